"""Game engines: one module per game, pure Python, no Django.

Each module defines ENGINE, a `GameEngine`. Modules are discovered, so a new game
is one new module here plus its fixtures in `fixtures/<slug>/`.
"""

from __future__ import annotations

import importlib
import pkgutil

from engines.base import GameEngine

_NOT_GAMES = {"base"}


def _discover() -> dict[str, GameEngine]:
    found: dict[str, GameEngine] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name in _NOT_GAMES or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        engine = getattr(module, "ENGINE", None)
        if isinstance(engine, GameEngine):
            found[engine.slug] = engine
    return found


ENGINES: dict[str, GameEngine] = _discover()


def get_engine(slug: str) -> GameEngine:
    try:
        return ENGINES[slug]
    except KeyError:
        raise KeyError(f"no engine for game {slug!r}; known games: {', '.join(ENGINES)}") from None
