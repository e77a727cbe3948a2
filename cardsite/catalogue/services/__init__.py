"""Writes to the catalogue. Views, commands and the admin call these; nothing else writes.

An import is all or nothing: the whole document is checked first (`check`), every problem is
reported with its line and field, and only a clean document is written (`write`), in one
transaction. `games` keeps each game's row in line with its engine.
"""

from cardsite.catalogue.services.games import game_definition_store, game_sync, games_sync
from cardsite.catalogue.services.write import ImportSummary, Progress, catalogue_import

__all__ = [
    "ImportSummary",
    "Progress",
    "catalogue_import",
    "game_definition_store",
    "game_sync",
    "games_sync",
]
