"""Every process serves the games its database holds, not only those it started with.

`load_games` stores each game's checked definition (GameDefinition) and then announces the new
set of games in the cache, which every process shares. A process reads that announcement, one
cache read, at the start of each request (GamesUpToDate), and only when it differs from the
last it acted on does it read the stored definitions and serve them (engines.ENGINES.use). A
cache is shared between processes only with Redis, so every GAMES_RECHECK_SECONDS a process
also compares the stored games' hashes itself (one query). So a game loaded or changed while
the site runs is served without a restart.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from cardsite.catalogue.models import Game
from cardsite.catalogue.services.games import definition_hash
from engines import ENGINES

VERSION_KEY = "games:version"

# The last announcement this process acted on, and the version of the stored games it serves
# (None: none yet).
_announced: str | None = None
_served: str | None = None
# When this process last compared the stored games itself (time.monotonic()).
_checked_at = float("-inf")


def stored_definitions() -> dict[str, tuple[str, Mapping[str, Any]]]:
    """Every stored game's (hash, definition), by slug: what ENGINES.use takes."""
    rows = Game.objects.exclude(definition_hash="").select_related("stored_definition")
    return {g.slug: (g.definition_hash, g.stored_definition.definition) for g in rows}


def _version(hashes: Mapping[str, str]) -> str:
    return definition_hash(dict(hashes))


def _serve() -> None:
    global _served
    stored = stored_definitions()
    ENGINES.use(stored)
    _served = _version({slug: digest for slug, (digest, _) in stored.items()})


def announce() -> None:
    """Serve the stored games here, and tell every other process to (after load_games)."""
    global _announced
    _serve()
    # No expiry: a process that has not yet seen this set must still find it.
    cache.set(VERSION_KEY, _served, timeout=None)
    _announced = _served


def catch_up() -> None:
    """Serve the stored games if another process announced a set this one has not acted on,
    or, when the timed check comes due, if the stored games differ from those served."""
    global _announced, _checked_at
    announcement = cache.get(VERSION_KEY)
    if announcement is not None and announcement != _announced:
        _announced = announcement
        _serve()
        return
    every = settings.GAMES_RECHECK_SECONDS
    if every is None or time.monotonic() - _checked_at < every:
        return
    _checked_at = time.monotonic()
    hashes = Game.objects.exclude(definition_hash="").values_list("slug", "definition_hash")
    if _version(dict(hashes)) != _served:
        _serve()


def _asked_for(slug: str) -> None:
    # A game asked for by name that this process does not serve yet: stored since, perhaps,
    # in which case it is served now (one query), whatever the timed check says.
    try:
        stored = Game.objects.filter(slug=slug).exclude(definition_hash="").exists()
    except (DatabaseError, RuntimeError):
        # No database to ask here (a migration's state, a test without one): a plain miss.
        return
    if stored:
        _serve()


ENGINES.when_missing(_asked_for)


def forget() -> None:
    """Act as a process that has seen no announcement and stored game (for tests)."""
    global _announced, _served
    _announced = _served = None
    ENGINES.use({})


class GamesUpToDate:
    """Middleware: each request is served with the games the database holds (see catch_up)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        catch_up()
        return self.get_response(request)
