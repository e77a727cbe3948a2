"""A deck's end: deleted softly, restorable by its owner for DELETED_KEEP_DAYS, then purged.

Deleting only stamps `deleted_at`; every reader (decks.reading.selectors) looks past such a deck, so
it is gone from pages, lists and the API at once, and restoring it brings it back unchanged
(same link, same version). Purging removes the row, its entries and its rendered images.
"""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from decks.exports.images import deck_images_folder
from decks.models import DELETED_KEEP_DAYS, Deck
from decks.public.versioning import decks_changed
from decks.services.building import MAX_BUILT_DECKS, built_counts_locked
from engines.errors import InputError

# Decks removed per transaction by a purge: a backlog of thousands never holds one long lock.
PURGE_BATCH = 500


def deck_delete(*, deck: Deck) -> None:
    """Delete `deck` softly. Its version and update time stay as they were: nothing in the
    deck changed, and a restore should give back exactly what was there."""
    now = timezone.now()
    Deck.objects.filter(pk=deck.pk, deleted_at__isnull=True).update(deleted_at=now)
    deck.deleted_at = deck.deleted_at or now
    # update() bypasses Deck.save(): the cached lists of public decks must still drop it.
    decks_changed()


def deck_restore(*, deck: Deck, owner: User, now: datetime | None = None) -> Deck:
    """Bring back a deck `owner` deleted less than DELETED_KEEP_DAYS ago. Raises InputError
    naming `deck` for someone else's deck or one deleted too long ago.

    A built deck comes back built while its owner has fewer than MAX_BUILT_DECKS built, and
    unbuilt otherwise (its `built_at` then None): restoring one's deck should not fail over
    a build flag, which one click sets again once another deck is unbuilt."""
    now = now or timezone.now()
    if deck.owner_id != getattr(owner, "pk", None):
        raise InputError("deck", "Only the deck's owner may restore it.")
    if deck.deleted_at is None:
        return deck
    if deck.deleted_at <= now - timedelta(days=DELETED_KEEP_DAYS):
        raise InputError(
            "deck",
            f"This deck was deleted more than {DELETED_KEEP_DAYS} days ago and can no longer "
            "be restored.",
        )
    with transaction.atomic():
        built = deck.built_at is not None
        if built and built_counts_locked(owner_ids=[deck.owner_id])[deck.owner_id] >= (
            MAX_BUILT_DECKS
        ):
            deck.built_at = None
        Deck.objects.filter(pk=deck.pk).update(deleted_at=None, built_at=deck.built_at)
    deck.deleted_at = None
    decks_changed()
    return deck


def decks_purge(*, now: datetime | None = None) -> int:
    """Remove for good every deck deleted DELETED_KEEP_DAYS or more ago, with its entries and
    rendered images; the number of decks removed."""
    cutoff = (now or timezone.now()) - timedelta(days=DELETED_KEEP_DAYS)
    expired = Deck.objects.filter(deleted_at__lte=cutoff).order_by("pk")
    purged = 0
    while batch := list(expired.values_list("pk", "share_key")[:PURGE_BATCH]):
        with transaction.atomic():
            # Filtered again, so a deck restored since it was read stays.
            _, removed = expired.filter(pk__in=[pk for pk, _ in batch]).delete()
        decks = removed.get(Deck._meta.label, 0)
        if not decks:
            break
        for _, share_key in batch:
            shutil.rmtree(deck_images_folder(share_key), ignore_errors=True)
        purged += decks
    return purged
