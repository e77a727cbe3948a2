"""TEMPORARY: each game's goldfish procedure, attached from its engines/<game>_goldfish.py.

The declarations of a game live in fixtures/<slug>/engine.toml; its simulation does not yet.
Until the goldfish interpreter reads fixtures/<slug>/goldfish.toml, `with_goldfish` is the one
place that fills a file-built engine's goldfish fields (goldfish, goldfish_reference,
goldfish_policy, goldfish_cost, goldfish_charts, goldfish_summary, odds) from the hand-written
modules, as engines/<game>.py did. A game is matched by its rulebook file, which a copy of a
game's folder under a new slug keeps, as it would keep its goldfish.toml; a game of another
rulebook simply has no simulation.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace

from engines.base import GameEngine, ResultChart, SummaryFigure


@dataclass(frozen=True)
class _Legacy:
    module: str
    # CPU per game in games of Conquest of Fates' reference loop (GameEngine.goldfish_cost).
    goldfish_cost: float
    goldfish_charts: tuple[ResultChart, ...]
    goldfish_summary: tuple[SummaryFigure, ...]


_BY_RULEBOOK = {
    # fate-foretold (engines/fate_foretold_goldfish.py)
    "fate-foretold.txt": _Legacy(
        "engines.fate_foretold_goldfish",
        # Vectorised: 154,000 to 205,000 games a second on one core (2026-11-24, the sample Nest
        # and Sigils at the default policy, tests/benchmarks/bench_goldfish.py), against 53,000
        # games of the unit (a Conquest of Fates reference-loop game) when it was set: about a
        # third of one, rounded up.
        goldfish_cost=0.35,
        goldfish_charts=(
            ResultChart("turns_to_alignment", "Turn alignment is first reached", "Turn aligned"),
            ResultChart(
                "aligned_by_turn",
                "Aligned by each turn (share of games)",
                "Turn",
                "Share of games aligned",
                share=True,
            ),
        ),
        goldfish_summary=(
            SummaryFigure("alignment", "Cards of one suit to align", "count"),
            SummaryFigure("sigil", "Your Sigil"),
            SummaryFigure(
                "turns_to_alignment.mean",
                "Mean turn alignment is reached (games that align)",
                "mean",
                spread="turns_to_alignment.sd",
            ),
            SummaryFigure("turns_to_alignment.median", "Median turn alignment is reached"),
            SummaryFigure("aligned_within_limit", "Games aligned within the turn limit", "share"),
            SummaryFigure(
                "opening_suits.*",
                "Starting hand holds a {part} card",
                "share",
                exact="opening_suits.*",
            ),
        ),
    ),
}


def with_goldfish(engine: GameEngine) -> GameEngine:
    """`engine` with its game's goldfish procedure, odds and their wording, if it has one."""
    legacy = _BY_RULEBOOK.get(engine.rulebook)
    if legacy is None:
        return engine
    module = importlib.import_module(legacy.module)
    return replace(
        engine,
        goldfish=module.goldfish,
        goldfish_reference=module.goldfish_reference,
        goldfish_policy=module.GOLDFISH_POLICY,
        goldfish_cost=legacy.goldfish_cost,
        goldfish_charts=legacy.goldfish_charts,
        goldfish_summary=legacy.goldfish_summary,
        odds=module.odds,
    )
