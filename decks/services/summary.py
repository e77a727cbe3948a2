"""A goldfish answer's summary as a table a player reads, in the game's own words.

The engine declares its rows (`GameEngine.goldfish_summary`, engines.base.SummaryFigure); an
engine that declares none still gets a readable table, its summary flattened with humanised
keys. Figures with a closed form get the exact value beside the simulated one, so a reader
sees how close sampling came. Pure: no database, no request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import SummaryFigure

# Summary keys that are not figures of the simulation but the assumptions it ran on.
ASSUMED = "assumed"
# The statistics engines.goldfish.describe gives, read as one figure rather than four rows.
DESCRIBED = frozenset({"mean", "p10", "median", "p90", "sd"})
# What an empty key (cards of no type, say) is called in a label.
NOT_GIVEN = "(not given)"
# Key words that say a 0-to-1 number is a share of games, for a summary with no declaration.
SHARE_WORDS = re.compile(r"(^|_)(rate|share|chance|by_turn|within_limit|within)($|_)")


@dataclass(frozen=True)
class SummaryRow:
    label: str
    value: str
    # The closed-form value of the same figure, where the game has one.
    exact: str | None = None
    # The declared figure a row was expanded from (its label, `{part}` as "…"), for a figure
    # that is one row per turn or per card; "" for a figure of one row.
    group: str = ""
    # The row is one of a figure's rows per key (a card's name, a type, a faction) rather
    # than per turn.
    keyed: bool = False


# A figure expanding into more rows than this (one per turn of a 50-turn game) is folded on
# the page, its title and count showing.
FOLD_ROWS = 10
# In a summary of more rows than this, every figure of one row per card (or type, or
# faction) is folded too: the per-turn figures and the charts are read first.
LONG_SUMMARY = 20


@dataclass(frozen=True)
class SummarySection:
    title: str
    rows: tuple[SummaryRow, ...]
    folded: bool


@dataclass(frozen=True)
class SummaryTable:
    rows: tuple[SummaryRow, ...]
    # What the simulation assumed where the rulebook is silent: a sentence, and the values.
    assumed_note: str = ""
    assumed: tuple[SummaryRow, ...] = field(default=())

    @property
    def has_exact(self) -> bool:
        return any(r.exact for r in self.rows)

    @property
    def sections(self) -> list[SummarySection]:
        """The rows in order, each long figure (more than FOLD_ROWS rows, or in a long summary
        one row per card) a folded section of its own and the rows between them together in
        one open section."""
        sections: list[SummarySection] = []
        open_rows: list[SummaryRow] = []
        i = 0
        while i < len(self.rows):
            group = self.rows[i].group
            j = i + 1
            while group and j < len(self.rows) and self.rows[j].group == group:
                j += 1
            keyed = self.rows[i].keyed and len(self.rows) > LONG_SUMMARY
            if group and (j - i > FOLD_ROWS or (keyed and j - i > 1)):
                if open_rows:
                    sections.append(SummarySection("", tuple(open_rows), False))
                    open_rows = []
                sections.append(SummarySection(group, self.rows[i:j], True))
            else:
                open_rows += self.rows[i:j]
            i = j
        if open_rows:
            sections.append(SummarySection("", tuple(open_rows), False))
        return sections

    def data(self) -> list[dict[str, str | None]]:
        """The rows as JSON-ready data."""
        return [{"label": r.label, "value": r.value, "exact": r.exact} for r in self.rows]


def summary_table(
    *,
    figures: Sequence[SummaryFigure],
    summary: Mapping[str, Any],
    odds: Sequence[Mapping[str, Any]] = (),
) -> SummaryTable:
    """The summary's rows: the declared figures that are present, in their order (or, with
    none declared, every figure the summary holds), then each exact chance no figure named."""
    exact = {o["key"]: o["exact"] for o in odds if o.get("key")}
    rows: list[SummaryRow] = []
    used: set[str] = set()
    if figures:
        for figure in figures:
            rows += _declared(figure, summary, exact, used)
    else:
        rows += _flattened({k: v for k, v in summary.items() if k != ASSUMED}, ())
    for o in odds:
        if o.get("key") in used:
            continue
        simulated = o.get("simulated")
        rows.append(
            SummaryRow(
                f"Chance of {o['label']}",
                _percent(simulated) if _is_number(simulated) else "not simulated",
                _percent(o["exact"]),
            )
        )
    note, assumed = _assumed(summary.get(ASSUMED))
    return SummaryTable(tuple(rows), note, assumed)


def _declared(
    figure: SummaryFigure, summary: Mapping[str, Any], exact: Mapping[str, float], used: set[str]
) -> Iterator[SummaryRow]:
    for parts, steps, value in _expand(summary, figure.path.split("."), (), ()):
        if value is None or isinstance(value, Mapping | list):
            # The engine's summary has changed shape under its declaration: no row, not a dict.
            continue
        spread = None
        if figure.spread:
            spread = _at(summary, _filled(figure.spread, steps))
        label = figure.label.replace("{part}", " · ".join(parts))
        closed = None
        if figure.exact:
            # The odds name their figure concretely ("cards.Osiris.in_opening_hand",
            # "celestial_by_battle.0"): the declaration's `*`s stand for this row's steps.
            key = ".".join(_filled(figure.exact, steps))
            closed = exact.get(key)
            if closed is not None:
                used.add(key)
        yield SummaryRow(
            label,
            _formatted(value, figure.unit, spread),
            _percent(closed) if closed is not None else None,
            figure.label.replace("{part}", "…") if "*" in figure.path else "",
            any(not str(step).isdigit() for step in steps),
        )


def _expand(
    node: Any, path: Sequence[str], parts: tuple[str, ...], steps: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], Any]]:
    """Each value at the dotted path, with what its `*`s stood for: as shown (a mapping's
    key, a list item's number from 1) and as steps into the summary (the key, the index
    from 0)."""
    if not path:
        yield parts, steps, node
        return
    head, rest = path[0], path[1:]
    if head == "*":
        if isinstance(node, Mapping):
            for key, child in node.items():
                yield from _expand(child, rest, (*parts, str(key) or NOT_GIVEN), (*steps, key))
        elif isinstance(node, list):
            for i, child in enumerate(node):
                yield from _expand(child, rest, (*parts, str(i + 1)), (*steps, str(i)))
        return
    if isinstance(node, Mapping) and head in node:
        yield from _expand(node[head], rest, parts, steps)


def _filled(path: str, steps: Sequence[str]) -> list[str]:
    """A spread's or an exact chance's path with its `*`s standing for the figure's steps."""
    out, given = [], iter(steps)
    for step in path.split("."):
        out.append(str(next(given, step)) if step == "*" else step)
    return out


def _at(summary: Any, path: Sequence[str]) -> Any:
    node = summary
    for step in path:
        if isinstance(node, Mapping):
            node = node.get(step)
        elif isinstance(node, list) and step.isascii() and step.isdigit():
            index = int(step)
            node = node[index] if index < len(node) else None
        else:
            return None
    return node


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _percent(value: Any) -> str:
    return f"{float(value):.1%}"


def _number(value: float) -> str:
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}"


def _formatted(value: Any, unit: str, spread: Any = None) -> str:
    if not _is_number(value):
        return _text(value)
    if unit == "share":
        return _percent(value)
    if unit == "count":
        return f"{round(value):,}"
    if unit == "mean":
        shown = f"{value:,.2f}"
        return f"{shown} ± {spread:,.2f}" if _is_number(spread) else shown
    return _number(value)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def humanised(key: str) -> str:
    """A summary key as words: "total_cq" -> "Total CQ". A short word without vowels is an
    abbreviation, and stays one in capitals."""
    words = [
        w.upper() if len(w) <= 3 and not re.search(r"[aeiouy]", w) else w for w in key.split("_")
    ]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def _described(value: Mapping[str, Any]) -> str:
    """A describe() mapping as one figure: the mean with its spread, then the middle 80%."""
    shown = _formatted(value["mean"], "mean", value.get("sd"))
    if _is_number(value.get("p10")) and _is_number(value.get("p90")):
        shown += f" (10th to 90th percentile: {_number(value['p10'])} to {_number(value['p90'])})"
    return shown


def _flattened(node: Mapping[str, Any], labels: tuple[str, ...]) -> list[SummaryRow]:
    rows: list[SummaryRow] = []
    for key, value in node.items():
        word = str(key) or NOT_GIVEN
        here = (*labels, humanised(word) if not labels else word.replace("_", " "))
        label = " · ".join(here)
        if isinstance(value, Mapping) and value and set(value) <= DESCRIBED and "mean" in value:
            rows.append(SummaryRow(label, _described(value)))
        elif isinstance(value, Mapping):
            rows += _flattened(value, here)
        elif isinstance(value, list) and all(isinstance(v, Mapping) for v in value):
            for i, item in enumerate(value, start=1):
                rows += _flattened({str(i): item}, here)
        elif isinstance(value, list):
            share = _is_share(str(key), value)
            rows.append(
                SummaryRow(label, ", ".join(_percent(v) if share else _shown(v) for v in value))
            )
        else:
            share = _is_share(str(key), [value])
            rows.append(SummaryRow(label, _percent(value) if share else _shown(value)))
    return rows


def _is_share(key: str, values: Sequence[Any]) -> bool:
    return bool(SHARE_WORDS.search(key)) and all(_is_number(v) and 0 <= v <= 1 for v in values)


def _shown(value: Any) -> str:
    return _number(value) if _is_number(value) else _text(value)


def _assumed(assumed: Any) -> tuple[str, tuple[SummaryRow, ...]]:
    """The assumptions as a sentence and rows: a mapping of values on one line each."""
    if not isinstance(assumed, Mapping):
        return "", ()
    note = str(assumed.get("note", ""))
    rows = []
    for key, value in assumed.items():
        if key == "note":
            continue
        if isinstance(value, Mapping):
            shown = ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in value.items())
        else:
            shown = _shown(value)
        rows.append(SummaryRow(humanised(str(key)), shown))
    return note, tuple(rows)
