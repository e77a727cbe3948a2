"""Reads of decks, always through who is asking: a private deck exists only for its owner,
and a deleted one for nobody but its owner's "Recently deleted" list."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from cardsite.catalogue.search.text import fold
from decks.models import DELETED_KEEP_DAYS, Deck, Job

# Shown in "Recently deleted", newest first; older ones are still restorable by their link.
DELETED_SHOWN = 100


def _base() -> QuerySet[Deck]:
    """Every deck anyone may read: deleted decks are left out here, so that every reader
    (pages, lists, the API, forks, card pages) loses them at once."""
    return _all().filter(deleted_at__isnull=True)


def _all() -> QuerySet[Deck]:
    # The fork source too: a deck's record names it only while it is not deleted.
    return Deck.objects.select_related("owner", "game", "faction", "forked_from")


def deck_for_reader(*, deck_id: str, user: Any) -> Deck | None:
    """The deck with this id (its share key) if `user` may read it: public and unlisted decks
    are readable by anyone holding the id, private ones by their owner only."""
    deck = _base().filter(share_key=deck_id).first()
    if deck is None:
        return None
    if deck.visibility == Deck.Visibility.PRIVATE and deck.owner_id != getattr(user, "id", None):
        return None
    return deck


def decks_listed(
    *,
    user: Any = None,
    mine: bool = False,
    game: str | None = None,
    format: str | None = None,
    faction: str | None = None,
    card: str | None = None,
) -> QuerySet[Deck]:
    """Public decks (or all of the user's own, with `mine`), filtered, newest first.
    Unlisted decks are never listed: their link is the only way in."""
    if mine:
        decks = _base().filter(owner_id=getattr(user, "id", None))
    else:
        decks = _base().filter(visibility=Deck.Visibility.PUBLIC)
    if game:
        decks = decks.filter(game__slug=game)
    if format:
        decks = decks.filter(format=format)
    if faction:
        decks = decks.filter(Q(faction__slug=faction) | Q(faction__name__iexact=faction))
    if card:
        holding = Deck.objects.filter(
            Q(entries__card__short_id=card) | Q(entries__card__search_name=fold(card))
        ).values("id")
        decks = decks.filter(id__in=holding)
    return decks.order_by("-updated_at", "-id")


def decks_deleted(*, user: Any) -> QuerySet[Deck]:
    """The user's decks deleted recently enough to restore, most recently deleted first."""
    since = timezone.now() - timedelta(days=DELETED_KEEP_DAYS)
    return (
        _all()
        .filter(owner_id=getattr(user, "id", None), deleted_at__gt=since)
        .order_by("-deleted_at", "-id")[:DELETED_SHOWN]
    )


def deleted_deck_of(*, deck_id: str, user: Any) -> Deck | None:
    """The user's own deleted deck with this id, however long ago it was deleted."""
    return (
        _all()
        .filter(share_key=deck_id, owner_id=getattr(user, "id", None), deleted_at__isnull=False)
        .first()
    )


def job_for_reader(*, key: str, user: Any) -> Job | None:
    """The job with this key, if `user` may read it: a signed-in requester's job is theirs
    alone (it may print a private deck); an anonymous one is readable by its key."""
    job = Job.objects.filter(key=key).first()
    if job is None:
        return None
    if job.owner_id is not None and job.owner_id != getattr(user, "id", None):
        return None
    return job


def deck_card_counts(*, deck: Deck) -> dict[str, int]:
    """Copies of each card (by short id) in the deck, all zones together, in one query."""
    counts: dict[str, int] = {}
    for short_id, quantity in deck.entries.values_list("card__short_id", "quantity"):
        counts[short_id] = counts.get(short_id, 0) + quantity
    return counts
