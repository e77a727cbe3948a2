"""One number that changes whenever a list of public decks could: any deck written or deleted.

The card page's list of the public decks using a card is cached under it, so a deck saved,
renamed, made private or deleted drops every cached list at once, across processes (the number
lives in the shared cache), without finding which cards the deck holds.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

KEY = "decks:public-version"


def public_decks_version() -> int:
    version = cache.get(KEY)
    if version is None:
        # From the clock, as the catalogue version: after an eviction the number must not
        # return to one whose lists may still be cached.
        cache.add(KEY, time.time_ns(), timeout=None)
        version = cache.get(KEY, 0)
    return int(version)


def bump_public_decks_version() -> None:
    try:
        cache.incr(KEY)
    except ValueError:  # not set yet, or evicted: a fresh clock-based value invalidates
        public_decks_version()


def decks_changed(**kwargs: Any) -> None:
    """Now, so this process stops serving the old lists at once; and after commit, so a list
    cached from the old rows while the transaction was open is not trusted either."""
    bump_public_decks_version()
    transaction.on_commit(bump_public_decks_version)
