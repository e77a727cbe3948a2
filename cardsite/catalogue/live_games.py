"""Every process serves the games its database holds, not only those it started with.

`load_games` stores each game's checked definition (GameDefinition) and then announces the new
set of games in the cache, which every process shares. A process reads that announcement, one
cache read, at the start of each request (GamesUpToDate), and only when it differs from the
last it acted on does it read the stored definitions and serve them (engines.ENGINES.use). So
a game loaded or changed while the site runs is served without a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from cardsite.catalogue.models import Game
from cardsite.catalogue.services.games import definition_hash
from engines import ENGINES

VERSION_KEY = "games:version"

# The announcement this process last acted on; None: none yet.
_seen: str | None = None


def stored_definitions() -> dict[str, tuple[str, Mapping[str, Any]]]:
    """Every stored game's (hash, definition), by slug: what ENGINES.use takes."""
    rows = Game.objects.exclude(definition_hash="").select_related("stored_definition")
    return {g.slug: (g.definition_hash, g.stored_definition.definition) for g in rows}


def announce() -> None:
    """Serve the stored games here, and tell every other process to (after load_games)."""
    global _seen
    stored = stored_definitions()
    ENGINES.use(stored)
    version = definition_hash({slug: digest for slug, (digest, _) in stored.items()})
    # No expiry: a process that has not yet seen this set must still find it.
    cache.set(VERSION_KEY, version, timeout=None)
    _seen = version


def catch_up() -> None:
    """Serve the stored games if another process announced a set this one has not acted on.
    No announcement (none yet, or the cache was emptied) leaves the games as they are."""
    global _seen
    version = cache.get(VERSION_KEY)
    if version is not None and version != _seen:
        ENGINES.use(stored_definitions())
        _seen = version


def forget() -> None:
    """Act as a process that has seen no announcement and stored game (for tests)."""
    global _seen
    _seen = None
    ENGINES.use({})


class GamesUpToDate:
    """Middleware: each request is served with the games the database holds (see catch_up)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        catch_up()
        return self.get_response(request)
