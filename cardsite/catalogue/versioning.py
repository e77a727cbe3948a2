"""One number that changes whenever the catalogue does.

Caches of derived data (the fuzzy-name index now, rendered pages later) key on it, so a
write anywhere invalidates them everywhere: the number lives in Django's cache, which is
shared between processes once the cache is Redis.
"""

import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

KEY = "catalogue:version"


def catalogue_version() -> int:
    version = cache.get(KEY)
    if version is None:
        # Start from the clock, not 1: after an eviction or a flush the number must never
        # return to one that a process-local cache (the fuzzy-name index) was built under.
        cache.add(KEY, time.time_ns(), timeout=None)
        version = cache.get(KEY, 0)
    return int(version)


def with_catalogue_version(*keys: str) -> tuple[int, dict[str, Any]]:
    """The catalogue version and what the cache holds under `keys` (a key holding nothing is
    absent), read in one round trip: for cached values that record the version they were made
    under."""
    held = cache.get_many([KEY, *keys])
    version = held.pop(KEY, None)
    return (catalogue_version() if version is None else int(version)), held


def bump_catalogue_version() -> None:
    try:
        cache.incr(KEY)
    except ValueError:  # not set yet, or evicted: a fresh clock-based value invalidates
        catalogue_version()


def catalogue_written() -> None:
    """Move the version for a write in the current transaction: now, so this process stops
    serving stale records at once; and after commit, so that a request which cached the old
    data while the transaction was open is not trusted either."""
    bump_catalogue_version()
    transaction.on_commit(bump_catalogue_version)
