"""A curator's reverts and confirmations from a card's history: the curator check, then the
catalogue's own recorded write."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from cardsite.catalogue.models import Card, CardChange
from cardsite.catalogue.services.edits import card_change_revert, card_confirm
from cardsite.contributions.selectors import is_curator


def change_revert(*, user: User, change: CardChange) -> list[CardChange]:
    """Revert `change` as a change of its own; only a curator of the card's game may
    (PermissionDenied). InputError when the value cannot be put back."""
    if not is_curator(user, change.card.game_id):
        raise PermissionDenied("only a curator of this game can revert a change")
    return card_change_revert(change=change, reviewer=user)


def card_confirm_as(*, user: User, card: Card) -> Card:
    """A second curator of the card's game confirms a community-sourced card
    (PermissionDenied for anyone else; InputError for the proposer or approver)."""
    if not is_curator(user, card.game_id):
        raise PermissionDenied("only a curator of this game can confirm a card")
    return card_confirm(card=card, curator=user)
