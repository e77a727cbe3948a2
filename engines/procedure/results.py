"""The answer both interpreters give, from the measures' counts: the same shapes the
hand-written procedures gave (`{"summary": ..., "charts": ...}`), so either can stand in."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engines.procedure.definition import Measure
from engines.vectorised import Tally, by_turn_counts


class Counts:
    """What a run of games counted, per measure: a Tally for an `each` measure, a Tally per
    turn for a `per_turn` one, and how many games were first marked on each turn (index 0
    unused, `turns + 1`: never) for a `first_turn` one."""

    def __init__(self, measures: Sequence[Measure], turns: int) -> None:
        self.turns = turns
        self.each = {m.key: Tally() for m in measures if m.kind == "each"}
        self.per_turn = {
            m.key: [Tally() for _ in range(turns)] for m in measures if m.kind == "per_turn"
        }
        self.first = {
            m.key: np.zeros(turns + 2, np.int64) for m in measures if m.kind == "first_turn"
        }


def answer(measures: Sequence[Measure], counts: Counts, runs: int) -> dict[str, object]:
    summary: dict[str, object] = {}
    charts: dict[str, object] = {}
    for m in measures:
        if m.kind == "each":
            tally = counts.each[m.key]
            summary[m.key] = tally.describe()
            if m.chart == "histogram":
                charts[m.key] = tally.histogram()
        elif m.kind == "per_turn":
            described = [t.describe() for t in counts.per_turn[m.key]]
            summary[m.key] = described
            if m.chart == "means":
                charts[m.key] = [d["mean"] for d in described]
                charts[f"{m.key}_sd"] = [d["sd"] for d in described]
        else:
            shares = by_turn_counts(counts.first[m.key], counts.turns, runs)
            summary[m.key] = shares
            if m.chart == "shares":
                charts[m.key] = shares
    return {"summary": summary, "charts": charts}
