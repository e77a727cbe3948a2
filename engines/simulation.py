"""A game's simulation: the goldfish procedure its folder declares (goldfish.toml, kept in the
game's definition under `goldfish` and run by engines.procedure), or, for a game whose
procedure is not declared yet, its hand-written one (engines._goldfish_legacy)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from engines._goldfish_legacy import with_goldfish
from engines.base import GameEngine
from engines.gamefile import ENGINE_FILE, GameFileError
from engines.procedure import ProcedureError, goldfish_parts

GOLDFISH_FILE = "goldfish.toml"


def with_simulation(
    engine: GameEngine, definition: Mapping[str, Any], *, file: str = "<definition>"
) -> GameEngine:
    """`engine` with the simulation `definition` declares; GameFileError naming the procedure's
    file (beside `file`, the game's engine.toml) if it cannot be run."""
    declared = definition.get("goldfish")
    if declared is None:
        return with_goldfish(engine)
    try:
        parts = goldfish_parts(declared)
    except ProcedureError as exc:
        where = file.removesuffix(ENGINE_FILE) + GOLDFISH_FILE
        raise GameFileError(where, exc.path, exc.reason) from None
    return replace(
        engine,
        goldfish=parts.goldfish,
        goldfish_reference=parts.goldfish_reference,
        goldfish_policy=parts.goldfish_policy,
        goldfish_charts=parts.goldfish_charts,
        goldfish_summary=parts.goldfish_summary,
        odds=parts.odds,
        # Measured on first use, not when the game is loaded: a process that never simulates
        # never pays for the timing.
        goldfish_measured=partial(getattr, parts, "goldfish_cost"),
    )
