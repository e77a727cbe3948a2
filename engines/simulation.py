"""A game's simulation: the goldfish procedure its folder declares (goldfish.toml, kept in the
game's definition under `goldfish` and run by engines.procedure). A game without one has no
simulation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

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
        return engine
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
        goldfish_cost=parts.procedure.stated_cost or engine.goldfish_cost,
        # Measured on first use, not when the game is loaded: a process that never simulates
        # never pays for the timing. A cost the file states is kept as it is.
        goldfish_measured=None
        if parts.procedure.stated_cost
        else partial(getattr, parts, "goldfish_cost"),
    )
