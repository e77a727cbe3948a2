"""A deck built: its owner has put it together from their collection (their pool's, if they
pooled), so its copies are taken and other built decks compete with it for them.

Building records intent, never a check: a deck is built however short the collection is, and
the shortfall shows as conflicts (decks.reading.owning.built_conflicts). Neither write is a
change to the deck's cards, so neither makes a version or touches its update time.

MAX_BUILT_DECKS holds on every path that makes a deck built again (building, restoring a
deleted deck, restoring a backup): each counts through built_counts_locked, which locks the
owner's user row first, so two such writes at once queue there and the second counts the
first. Forks and reverts never carry `built_at` over: a copy or an older version is unbuilt.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from cardsite.collection.services.owner_lock import lock_owners
from decks.models import Deck
from engines.errors import InputError

# Built decks one user may hold at once: what the conflicts and missing-card reads add up
# stays within (this many decks of at most 500 entries each, per pool member).
MAX_BUILT_DECKS = 100


def _own(deck: Deck, user: User, verb: str) -> None:
    if deck.owner_id != getattr(user, "pk", None) or deck.deleted_at is not None:
        raise InputError("deck", f"Only the deck's owner may {verb} it.")


def built_counts_locked(*, owner_ids: Iterable[int]) -> dict[int, int]:
    """The decks each of these users has built (deleted ones aside), counted after locking
    their user rows until the transaction ends: call it inside the transaction that then
    makes a deck built, and a concurrent one waits for this one's count to include it."""
    ids = sorted(set(owner_ids))
    lock_owners(owner_ids=ids)
    built = Deck.objects.filter(owner_id__in=ids, built_at__isnull=False, deleted_at__isnull=True)
    counts = dict(built.values("owner_id").annotate(n=Count("pk")).values_list("owner_id", "n"))
    return {owner_id: counts.get(owner_id, 0) for owner_id in ids}


def deck_build(*, deck: Deck, user: User) -> Deck:
    """Mark `deck` built by its owner `user` (already built: unchanged). InputError naming
    `deck` for anyone else, or naming the limit past MAX_BUILT_DECKS built decks."""
    _own(deck, user, "build")
    if deck.built_at is not None:
        return deck
    with transaction.atomic():
        if built_counts_locked(owner_ids=[deck.owner_id])[deck.owner_id] >= MAX_BUILT_DECKS:
            raise InputError(
                "deck",
                f"You have {MAX_BUILT_DECKS} decks built, the most at once: unbuild one first.",
            )
        now = timezone.now()
        Deck.objects.filter(pk=deck.pk, built_at__isnull=True).update(built_at=now)
    deck.built_at = now
    return deck


def deck_unbuild(*, deck: Deck, user: User) -> Deck:
    """Mark `deck` no longer built, freeing its copies for the owner's other decks."""
    _own(deck, user, "unbuild")
    Deck.objects.filter(pk=deck.pk).update(built_at=None)
    deck.built_at = None
    return deck
