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
    # conquest-alpha-tactics (engines/conquest_alpha_tactics_goldfish.py)
    "star-trek-conquest-alpha-tactics.txt": _Legacy(
        "engines.conquest_alpha_tactics_goldfish",
        # Measured 2026-11-24 (tests/benchmarks/bench_goldfish.py, the sample set's legal deck,
        # default policy, one core): 142,900 vectorised games a second beside 19,000 default
        # Conquest of Fates games (the unit) in the same run: 7.5 times cheaper, rounded up.
        goldfish_cost=0.15,
        goldfish_charts=(
            ResultChart(
                "mean_combat_power_per_round",
                "Combat Power placed, by round (mean per game)",
                "Round",
                "Combat Power",
                spread="mean_combat_power_per_round_sd",
            ),
            ResultChart("opening_hand_by_type", "{part} cards in the opening hand", "{part} cards"),
            ResultChart(
                "combat_power_per_round", "Combat Power placed in round {part}", "Combat Power"
            ),
        ),
        goldfish_summary=(
            SummaryFigure(
                "combat_power_per_round.*.mean",
                "Round {part}: Combat Power placed",
                "mean",
                spread="combat_power_per_round.*.sd",
            ),
            SummaryFigure("opening_hand_by_type.*", "{part} cards in the opening hand", "mean"),
            SummaryFigure(
                "opening_hand_has_type.*",
                "At least one {part} card in the opening hand",
                "share",
                exact="opening_hand_has_type.*",
            ),
        ),
    ),
    # conquest-for-the-capital (engines/conquest_for_the_capital_goldfish.py)
    "conquest-for-the-capital.txt": _Legacy(
        "engines.conquest_for_the_capital_goldfish",
        # Measured 2026-11-24 (tests/benchmarks/bench_goldfish.py, the sample set's legal deck,
        # default policy, one core): 176,800 vectorised games a second beside 19,000 default
        # Conquest of Fates games (the unit) in the same run: 9.3 times cheaper, rounded up.
        goldfish_cost=0.12,
        goldfish_charts=(
            ResultChart(
                "bonus_per_turn",
                "Attack plus Defence played, by turn (mean per game)",
                "Turn",
                "Attack + Defence",
                spread="bonus_per_turn_sd",
            ),
            ResultChart(
                "attack", "Attack bonus of the Battle cards played", "Attack", "Cards played"
            ),
            ResultChart(
                "defence", "Defence bonus of the Battle cards played", "Defence", "Cards played"
            ),
        ),
        goldfish_summary=(
            SummaryFigure(
                "attack.mean", "Attack bonus of a Battle card played", "mean", spread="attack.sd"
            ),
            SummaryFigure(
                "defence.mean", "Defence bonus of a Battle card played", "mean", spread="defence.sd"
            ),
            SummaryFigure(
                "bonus_per_turn.*.mean",
                "Turn {part}: Attack plus Defence played",
                "mean",
                spread="bonus_per_turn.*.sd",
            ),
            SummaryFigure(
                "hand_of_six_by_turn.*",
                "Hand of six Battle cards by turn {part}",
                "share",
                exact="hand_of_six_by_turn.*",
            ),
        ),
    ),
    # conquest-of-fates (engines/conquest_of_fates_goldfish.py)
    "conquest-of-fates.txt": _Legacy(
        "engines.conquest_of_fates_goldfish",
        goldfish_charts=(
            ResultChart("total_cq", "CQ tallied over a game", "CQ over the game"),
            ResultChart("cq_per_battle", "CQ tallied in battle {part}", "CQ in the battle"),
        ),
        goldfish_summary=(
            SummaryFigure("total_cq.mean", "Mean CQ over a game", "mean", spread="total_cq.sd"),
            SummaryFigure("total_cq.p10", "CQ over a game: the worst tenth of games reach"),
            SummaryFigure("total_cq.median", "CQ over a game: median"),
            SummaryFigure("total_cq.p90", "CQ over a game: the best tenth of games reach"),
            SummaryFigure(
                "cq_per_battle.*.mean",
                "Battle {part}: mean CQ",
                "mean",
                spread="cq_per_battle.*.sd",
            ),
            SummaryFigure(
                "mulligan_rate", "Mulligan rate (first supply drop)", "share", exact="mulligan_rate"
            ),
            SummaryFigure(
                "celestial_by_battle.*",
                "A Celestial drawn by battle {part}",
                "share",
                exact="celestial_by_battle.*",
            ),
        ),
        # Costs are counted in games of this game's reference loop (GameEngine.goldfish_cost).
        # Vectorised, a game costs about a thirteenth of one: 670,000 to 718,000 games a second
        # on one core against 34,500 to 46,000 for the loop (2026-11-24, the 26-card sample deck,
        # tests/benchmarks/bench_goldfish.py), rounded up.
        goldfish_cost=0.08,
    ),
    # conquest-of-orion (engines/conquest_of_orion_goldfish.py)
    "conquest-of-orion.txt": _Legacy(
        "engines.conquest_of_orion_goldfish",
        # Measured 2026-11-24 (tests/benchmarks/bench_goldfish.py, the sample set's legal deck,
        # default policy, one core): 199,700 vectorised games a second beside 19,000 default
        # Conquest of Fates games (the unit) in the same run: 10.5 times cheaper, rounded up.
        goldfish_cost=0.1,
        goldfish_charts=(
            ResultChart(
                "playable_cards_per_turn",
                "Playable cards in hand, by turn (mean per game)",
                "Turn",
                "Playable cards in hand",
                spread="playable_cards_per_turn_sd",
            ),
            ResultChart(
                "any_playable_by_turn",
                "Games with a playable card in hand, by turn",
                "Turn",
                "Share of games",
                share=True,
            ),
        ),
        goldfish_summary=(
            SummaryFigure("turns", "Turns simulated", "count"),
            SummaryFigure(
                "playable_per_turn.*.mean",
                "Turn {part}: playable cards in hand",
                "mean",
                spread="playable_per_turn.*.sd",
            ),
            SummaryFigure(
                "any_playable_by_turn.*", "Turn {part}: games with a playable card in hand", "share"
            ),
            SummaryFigure(
                "cards.*.mean_first_turn",
                "{part}: first turn playable (in hand, Tier reached, cost payable)",
                "mean",
                spread="cards.*.sd_first_turn",
            ),
            SummaryFigure(
                "cards.*.in_opening_hand",
                "{part}: in the opening hand, after the exchange",
                "share",
                exact="cards.*.in_opening_hand",
            ),
            SummaryFigure(
                "cards.*.in_hand_by_last_turn",
                "{part}: in hand by the last turn",
                "share",
                exact="cards.*.in_hand_by_last_turn",
            ),
        ),
    ),
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
