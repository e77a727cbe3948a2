"""A card's history: every accepted change of it, oldest first, as the API and the card page
show it. Authors and reviewers are named by username; a deleted account is null."""

from __future__ import annotations

from typing import Any

from cardsite.catalogue.models import Card, CardChange
from cardsite.catalogue.services.edits import field_labels

# The two changes that are not of a field: a card's addition and its image.
_WHOLE_CARD_LABELS = {"card": "Card added", "art": "Image"}


def card_history(*, card: Card) -> list[CardChange]:
    """Every accepted change of `card`, oldest first. Only accepted ones exist as changes: an
    open or rejected proposal is never one, so this is safe to show to anyone."""
    return list(
        CardChange.objects.filter(card=card)
        .select_related("author", "reviewer")
        .order_by("at", "id")
    )


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def change_record(change: CardChange, labels: dict[str, str] | None = None) -> dict[str, Any]:
    """One change as its record: `labels` is the game's field_labels, passed in by a caller
    listing many changes so that it is built once."""
    if labels is None:
        labels = field_labels(change.card.game.engine)
    label = _WHOLE_CARD_LABELS.get(change.field) or labels.get(change.field, change.field)
    return {
        "id": change.pk,
        "field": change.field,
        "label": label,
        "from": change.before,
        "to": change.after,
        "author": _username(change.author),
        "reviewer": _username(change.reviewer),
        "source": dict(change.source or {}),
        "at": change.at,
        "proposal": change.proposal,
        "reverts": change.reverts_id,
    }


def card_change_get(*, card: Card, pk: int) -> CardChange | None:
    return CardChange.objects.select_related("card__game").filter(card=card, pk=pk).first()
