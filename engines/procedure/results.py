"""The answer both interpreters give, from the measures' counts: the same shapes the
hand-written procedures gave (`{"summary": ..., "charts": ...}`), so either can stand in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
        self,
        measures: Sequence[Measure],
        turns: int,
        types: Mapping[str, Sequence[str]],
        names: Mapping[str, Sequence[str]] | None = None,
        factions: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self.turns = turns
        # share_per_turn: the games with a hit, per turn.
        self.turn_shares = {
            m.key: np.zeros(turns, np.int64) for m in measures if m.kind == "share_per_turn"
        }
        # per_name: each name's first turn counts, and its games counted by each held figure.
        self.names = {key: list(found) for key, found in (names or {}).items()}
        self.name_first = {
            key: np.zeros((len(found), turns + 2), np.int64) for key, found in self.names.items()
        }
        # faction_share: the factions, and the games whose hand held a card of each.
        self.factions = {key: list(found) for key, found in (factions or {}).items()}
        self.faction_hits = {
            key: np.zeros(len(found), np.int64) for key, found in self.factions.items()
        }
        self.name_held = {
            m.key: {figure: np.zeros(len(self.names[m.key]), np.int64) for figure in m.held or {}}
            for m in measures
            if m.kind == "per_name"
        }
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
        names = {
            m.key: procedure.names(m, cards) for m in procedure.measures if m.kind == "per_name"
        }
        factions = {
            m.key: procedure.factions(m, cards)
            for m in procedure.measures
            if m.kind == "faction_share"
        }
        return cls(procedure.measures, turns, types, names, factions)


def echo(report: Any, policy: Mapping[str, Any], chosen: DeckCard | None = None) -> Any:
    """A `[report]` value with its `{ knob = "name" }` tables replaced by the knobs' values,
    and its `{ chosen = ..., fact = "name" | "factions" }` by the chosen card's."""
    if isinstance(report, Mapping):
        if set(report) == {"knob"}:
            return policy[report["knob"]]
        if set(report) == {"chosen", "fact"}:
            if report["fact"] == "name":
                return chosen.name if chosen else None
            return list(chosen.factions) if chosen else []
        return {key: echo(value, policy, chosen) for key, value in report.items()}
    return report


def _per_name(m: Measure, counts: Counts, runs: int) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    figures, held = m.first or {}, counts.name_held[m.key]
    for i, name in enumerate(counts.names[m.key]):
        first = counts.name_first[m.key][i]
        turns = Tally()
        turns.add_counts(np.arange(1, counts.turns + 1), first[1 : counts.turns + 1])
        described = turns.describe()
        entry: dict[str, object] = {}
        if "by_turn" in figures:
            entry[figures["by_turn"]] = by_turn_counts(first, counts.turns, runs)
        if "mean" in figures:
            entry[figures["mean"]] = described["mean"]
        if "sd" in figures:
            entry[figures["sd"]] = described["sd"]
        for figure, games in held.items():
            entry[figure] = share(int(games[i]), runs)
        found[name] = entry
    return found


def answer(
    measures: Sequence[Measure],
    counts: Counts,
    runs: int,
    report: Mapping[str, Any] | None = None,
    policy: Mapping[str, Any] | None = None,
    chosen: DeckCard | None = None,
) -> dict[str, object]:
    summary: dict[str, object] = dict(echo(report or {}, policy or {}, chosen))
    charts: dict[str, object] = {}
    for m in measures:
        charts_of = m.charts
        if m.kind == "faction_share":
            hits = counts.faction_hits[m.key]
            summary[m.key] = {
                f: share(int(n), runs) for f, n in zip(counts.factions[m.key], hits, strict=True)
            }
            continue
        if m.kind == "share_per_turn":
            shares = [share(int(n), runs) for n in counts.turn_shares[m.key]]
            summary[m.key] = shares
            if "shares" in charts_of:
                charts[charts_of["shares"]] = shares
            continue
        if m.kind == "per_name":
            summary[m.key] = _per_name(m, counts, runs)
            continue
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
            if m.in_summary:
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
