"""The game rows, kept in line with the engines that declare each game and its card types, and
the definitions they were built from."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from cardsite.catalogue.game_definitions import GameDefinition
from cardsite.catalogue.models import CardType, Game
from cardsite.catalogue.search.backends import ensure_stat_indexes
from engines import ENGINES
from engines.base import GameEngine


def game_sync(*, engine: GameEngine, meta: Mapping[str, Any] | None = None) -> Game:
    """The game's row, created or brought in line with its engine (name and card types)."""
    defaults: dict[str, Any] = {"name": engine.name}
    for key in ("players", "play_time", "description", "source"):
        if meta and key in meta:
            defaults[key] = meta[key] or ""
    game, _ = Game.objects.update_or_create(slug=engine.slug, defaults=defaults)
    for spec in engine.card_types:
        CardType.objects.update_or_create(
            game=game,
            slug=spec.slug,
            defaults={
                "name": spec.name,
                "zone": spec.zone or "",
                "source": spec.source,
                "description": spec.description,
            },
        )
    ensure_stat_indexes(spec.key for spec in engine.stats)
    return game


def definition_hash(definition: Mapping[str, Any]) -> str:
    """A stable hash of a game definition: equal definitions, equal hashes."""
    text = json.dumps(definition, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def game_definition_store(*, definition: Mapping[str, Any], engine: GameEngine) -> Game:
    """The game's row in line with its checked definition, which it stores with its hash."""
    game = game_sync(engine=engine)
    game.definition_hash = definition_hash(definition)
    game.save(update_fields=["definition_hash"])
    GameDefinition.objects.update_or_create(game=game, defaults={"definition": definition})
    return game


def games_sync() -> list[Game]:
    return [game_sync(engine=engine) for engine in ENGINES.values()]
