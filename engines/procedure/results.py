"""The answer both interpreters give, from the measures' counts: the same shapes the
hand-written procedures gave (`{"summary": ..., "charts": ...}`), so either can stand in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from engines.procedure.vocabulary import Measure, Procedure
from engines.rules import DeckCard
from engines.vectorised import Tally, by_turn_counts, share


class Counts:
    """What a run of games counted, per measure: a Tally for an `each` or `per_game` measure, a
    Tally per turn for a `per_turn` one, the games marked for a `share` one, and how many games
    were first marked on each turn (index 0 unused, `turns + 1`: never) for a `first_turn`
    one."""

    def __init__(
        self, measures: Sequence[Measure], turns: int, types: Mapping[str, Sequence[str]]
    ) -> None:
        self.turns = turns
        # hand_by_type: a Tally of the count in hand per card type.
        self.by_type = {key: {t: Tally() for t in found} for key, found in types.items()}
        self.each = {m.key: Tally() for m in measures if m.kind in ("each", "per_game")}
        self.per_game = {m.key for m in measures if m.kind == "per_game"}
        self.shares = {m.key: 0 for m in measures if m.kind == "share"}
        self.per_turn = {
            m.key: [Tally() for _ in range(turns)] for m in measures if m.kind == "per_turn"
        }
        self.first = {
            m.key: np.zeros(turns + 2, np.int64) for m in measures if m.kind == "first_turn"
        }

    @classmethod
    def of(cls, procedure: Procedure, cards: Sequence[DeckCard], turns: int) -> Counts:
        types = {
            m.key: procedure.types(m.key, cards)
            for m in procedure.measures
            if m.kind == "hand_by_type"
        }
        return cls(procedure.measures, turns, types)


def answer(measures: Sequence[Measure], counts: Counts, runs: int) -> dict[str, object]:
    summary: dict[str, object] = {}
    charts: dict[str, object] = {}
    for m in measures:
        charts_of = m.charts
        if m.kind in ("each", "per_game"):
            tally = counts.each[m.key]
            summary[m.key] = tally.describe()
            if "histogram" in charts_of:
                charts[charts_of["histogram"]] = tally.histogram()
        elif m.kind == "per_turn":
            tallies = counts.per_turn[m.key]
            described = [t.describe() for t in tallies]
            summary[m.key] = described
            if "histograms" in charts_of:
                charts[charts_of["histograms"]] = [t.histogram() for t in tallies]
            if "means" in charts_of:
                charts[charts_of["means"]] = [d["mean"] for d in described]
                charts[f"{charts_of['means']}_sd"] = [d["sd"] for d in described]
        elif m.kind == "share":
            summary[m.key] = share(counts.shares[m.key], runs)
        elif m.kind == "first_turn":
            shares = by_turn_counts(counts.first[m.key], counts.turns, runs)
            summary[m.key] = shares
            if "shares" in charts_of:
                charts[charts_of["shares"]] = shares
        else:
            by_type = counts.by_type[m.key]
            summary[m.key] = {t: tally.describe()["mean"] for t, tally in by_type.items()}
            if m.shares:
                summary[m.shares] = {
                    t: round((runs - tally.counts[0]) / runs, 6) for t, tally in by_type.items()
                }
            if "histograms" in charts_of:
                charts[charts_of["histograms"]] = {t: v.histogram() for t, v in by_type.items()}
    return {"summary": summary, "charts": charts}
