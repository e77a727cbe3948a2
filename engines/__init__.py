"""Game engines: the interpreter of games declared as data, pure Python, no Django.

Each game is a folder fixtures/<slug>/ whose engine.toml declares it (engines.gamefile reads
it); ENGINES holds every game found there when the package is imported. The folder is the
repository's fixtures/, or the one the CARDSITE_GAMES_DIR environment variable names.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engines._goldfish_legacy import with_goldfish
from engines.base import GameEngine
from engines.gamefile import ENGINE_FILE, engine_from_definition, load_engine_file

GAMES_DIR = Path(
    os.environ.get("CARDSITE_GAMES_DIR") or Path(__file__).resolve().parents[1] / "fixtures"
)


def game_engine(definition: Mapping[str, Any], *, file: str = "<definition>") -> GameEngine:
    """The whole engine a checked game definition declares, its simulation included."""
    return with_goldfish(engine_from_definition(definition, file=file))


def load_engines(folder: Path = GAMES_DIR) -> dict[str, GameEngine]:
    """Every game declared under `folder` (one <slug>/engine.toml each), by slug."""
    found: dict[str, GameEngine] = {}
    for path in sorted(folder.glob(f"*/{ENGINE_FILE}")):
        engine = with_goldfish(load_engine_file(path))
        found[engine.slug] = engine
    return found


ENGINES: dict[str, GameEngine] = load_engines()


def get_engine(slug: str) -> GameEngine:
    try:
        return ENGINES[slug]
    except KeyError:
        raise KeyError(f"no engine for game {slug!r}; known games: {', '.join(ENGINES)}") from None
