"""One number that changes whenever the catalogue does.

Caches of derived data (the fuzzy-name index now, rendered pages later) key on it, so a
write anywhere invalidates them everywhere: the number lives in Django's cache, which is
shared between processes once the cache is Redis.
"""

from django.core.cache import cache

KEY = "catalogue:version"


def catalogue_version() -> int:
    version = cache.get(KEY)
    if version is None:
        cache.add(KEY, 1, timeout=None)
        version = cache.get(KEY, 1)
    return int(version)


def bump_catalogue_version() -> None:
    try:
        cache.incr(KEY)
    except ValueError:  # not set yet, or evicted: any new value invalidates
        cache.set(KEY, catalogue_version() + 1, timeout=None)
