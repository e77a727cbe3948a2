"""The definition each game's row was loaded from, and the engine a row serves from it.

catalogue.models imports this module, so Django registers the model with the app's others.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db import models

from engines import ENGINES, get_engine
from engines.base import GameEngine


class _GameRow(Protocol):
    # catalogue.models.Game, which imports this module (so it cannot be imported here).
    slug: str
    definition_hash: str

    @property
    def stored_definition(self) -> Any: ...


def stored_engine(game: _GameRow) -> GameEngine:
    """Game.engine: the engine of the definition load_games stored for the game, built once
    per hash in each process (the definition is read only then), so a game loaded or changed
    after the process started is served without a restart; a game stored without one (rows
    made before definitions were stored) is served from the game files."""
    if not game.definition_hash:
        return get_engine(game.slug)
    return ENGINES.stored(game.definition_hash, lambda: game.stored_definition.definition)


class GameDefinition(models.Model):
    """A game's engine.toml as load_games checked it, apart from the game's row: cards and
    decks join their game on nearly every page, and would otherwise each carry the whole file.
    The row keeps its hash (Game.definition_hash)."""

    game = models.OneToOneField(
        "catalogue.Game",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="stored_definition",
    )
    definition = models.JSONField()

    class Meta:
        app_label = "catalogue"

    def __str__(self) -> str:
        return f"definition of game {self.game_id}"
