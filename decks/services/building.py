"""A deck built: its owner has put it together from their collection (their pool's, if they
pooled), so its copies are taken and other built decks compete with it for them.

Building records intent, never a check: a deck is built however short the collection is, and
the shortfall shows as conflicts (decks.owning.built_conflicts). Neither write is a change to
the deck's cards, so neither makes a version or touches its update time.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from decks.models import Deck
from engines.errors import InputError

# Built decks one user may hold at once: what the conflicts and missing-card reads add up
# stays within (this many decks of at most 500 entries each, per pool member).
MAX_BUILT_DECKS = 100


def _own(deck: Deck, user: Any, verb: str) -> None:
    if deck.owner_id != getattr(user, "pk", None) or deck.deleted_at is not None:
        raise InputError("deck", f"Only the deck's owner may {verb} it.")


def deck_build(*, deck: Deck, user: Any) -> Deck:
    """Mark `deck` built by its owner `user` (already built: unchanged). InputError naming
    `deck` for anyone else, or naming the limit past MAX_BUILT_DECKS built decks."""
    _own(deck, user, "build")
    if deck.built_at is not None:
        return deck
    built = Deck.objects.filter(owner_id=deck.owner_id, built_at__isnull=False)
    if built.filter(deleted_at__isnull=True).count() >= MAX_BUILT_DECKS:
        raise InputError(
            "deck",
            f"You have {MAX_BUILT_DECKS} decks built, the most at once: unbuild one first.",
        )
    now = timezone.now()
    Deck.objects.filter(pk=deck.pk, built_at__isnull=True).update(built_at=now)
    deck.built_at = now
    return deck


def deck_unbuild(*, deck: Deck, user: Any) -> Deck:
    """Mark `deck` no longer built, freeing its copies for the owner's other decks."""
    _own(deck, user, "unbuild")
    Deck.objects.filter(pk=deck.pk).update(built_at=None)
    deck.built_at = None
    return deck
