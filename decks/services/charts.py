"""A deck's charts, and a goldfish answer's, as plain numbers for a page to draw.

Which charts a deck shows is the engine's declaration (`GameEngine.charts`); this turns one
into categories and series of counts. The page draws them with Chart.js and writes the same
numbers as a table, which is what shows without JavaScript and what a screen reader reads.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from decks.services.resolve import ResolvedDeck, ResolvedEntry
from decks.services.summary import NOT_GIVEN, humanised
from engines.base import ChartKind, ChartSpec, GameEngine, ResultChart, slugify

# The most bars a chart draws: past it a row of bars stops being readable, and a stat may
# hold any 32-bit number, so a curve from 0 to 2,000,000,000 must not become that many bars.
# A wider range of whole numbers is grouped into equal spans; other categories are cut.
MAX_BARS = 60

TYPE_NOT_GIVEN = "Type not given"


class Unit(StrEnum):
    """What the values are, for axis ticks and the table."""

    COUNT = "count"
    # Shares of games, 0 to 1, shown as percentages.
    SHARE = "share"
    NUMBER = "number"


@dataclass(frozen=True)
class ChartSeries:
    name: str
    # #RRGGBB, or None for the theme's accent.
    colour: str | None
    values: tuple[float, ...]


@dataclass(frozen=True)
class DeckChart:
    id: str
    title: str
    x_title: str
    y_title: str
    labels: tuple[str, ...]
    series: tuple[ChartSeries, ...]
    unit: Unit = Unit.COUNT
    # Whether the categories are numbers in order (a curve, turns) rather than names.
    numbered: bool = True
    # What the bars leave out or group, in a sentence; empty when nothing.
    note: str = ""
    # For a chart of means (one series): each mean's standard deviation, drawn as a band of
    # mean ± sd around the bars and written beside the mean in the table.
    spread: tuple[float, ...] | None = None

    def data(self) -> dict[str, Any]:
        """The chart as JSON-ready data, for the page's script."""
        return {
            "title": self.title,
            "x": self.x_title,
            "y": self.y_title,
            "unit": str(self.unit),
            "numbered": self.numbered,
            "labels": list(self.labels),
            "series": [
                {"name": s.name, "colour": s.colour, "values": list(s.values)} for s in self.series
            ],
            # Only a chart of means has one: the builder's charts keep their shape.
            **({"spread": list(self.spread)} if self.spread is not None else {}),
        }

    def rows(self) -> list[tuple[str, list[str]]]:
        """Each category with its values as text, for the table of the same numbers."""
        if self.spread is not None:
            means = self.series[0].values
            return [
                (label, [f"{_shown(mean, self.unit)} ± {_shown(sd, self.unit)}"])
                for label, mean, sd in zip(self.labels, means, self.spread, strict=True)
            ]
        return [
            (label, [_shown(s.values[i], self.unit) for s in self.series])
            for i, label in enumerate(self.labels)
        ]


def _shown(value: float, unit: Unit) -> str:
    if unit is Unit.SHARE:
        return f"{value:.1%}"
    if unit is Unit.COUNT:
        return f"{int(value):,}"
    return f"{value:,.2f}"


def deck_charts(resolved: ResolvedDeck) -> list[DeckChart]:
    """Every chart the deck's game declares that the deck has numbers for, in its order."""
    if not resolved.entries:
        return []
    engine = resolved.snapshot.engine
    charts = []
    for spec in engine.charts:
        if spec.kind is ChartKind.CURVE:
            chart = _curve(engine, spec, resolved.entries)
        elif spec.kind is ChartKind.TYPES:
            chart = _types(engine, spec, resolved.entries)
        else:
            chart = _factions(spec, resolved.entries)
        if chart is not None:
            charts.append(chart)
    return charts


def _curve(
    engine: GameEngine, spec: ChartSpec, entries: Sequence[ResolvedEntry]
) -> DeckChart | None:
    counts: list[Counter[int]] = [Counter() for _ in spec.stats]
    unvalued = 0
    for entry in entries:
        held = False
        for counter, key in zip(counts, spec.stats, strict=True):
            value = entry.card.stats.get(key)
            # bool is an int; a stat is never one, but a card's stats are only a mapping here.
            if isinstance(value, int) and not isinstance(value, bool):
                held = True
                if value or not spec.skip_zero:
                    counter[value] += entry.quantity
        unvalued += 0 if held else entry.quantity
    if not any(counts):
        return None
    labels, values, grouped = _integer_axis(counts)
    labels_of = [_stat_label(engine, key) for key in spec.stats]
    notes = []
    if spec.skip_zero:
        notes.append("Each series counts only the cards whose value is not 0.")
    if unvalued:
        what = f"a {labels_of[0]}" if len(labels_of) == 1 else "any of these numbers"
        cards = f"{unvalued} card{'s' if unvalued != 1 else ''}"
        notes.append(f"{cards} without {what} left out.")
    if grouped:
        notes.append(grouped)
    return DeckChart(
        id=spec.slug,
        title=spec.title,
        x_title=spec.axis,
        y_title="Cards",
        labels=labels,
        # One stat's series is the cards; several are told apart by their stats' names.
        series=tuple(
            ChartSeries(
                label if len(spec.stats) > 1 else "Cards", engine.face.colour(key), tuple(v)
            )
            for label, key, v in zip(labels_of, spec.stats, values, strict=True)
        ),
        note=" ".join(notes),
    )


def _stat_label(engine: GameEngine, key: str) -> str:
    stat = engine.stat(key)
    return stat.label if stat is not None else key


def _types(engine: GameEngine, spec: ChartSpec, entries: Sequence[ResolvedEntry]) -> DeckChart:
    counts: Counter[str] = Counter()
    for entry in entries:
        counts[entry.card.card_type or TYPE_NOT_GIVEN] += entry.quantity
    # Every type a deck may hold, in the engine's order, so an empty one shows as 0; then any
    # other the deck holds anyway (a type never put in a deck, which its check reports).
    order = [t.name for t in engine.card_types if t.zone is not None]
    order += sorted(set(counts) - set(order) - {TYPE_NOT_GIVEN})
    order += [TYPE_NOT_GIVEN] if TYPE_NOT_GIVEN in counts else []
    return _categories(spec, counts, order)


def _factions(spec: ChartSpec, entries: Sequence[ResolvedEntry]) -> DeckChart:
    counts: Counter[str] = Counter()
    none = f"No {spec.axis.lower()}"
    # An official card whose faction the rulebook does not give is not a card of none (where
    # "no race" means any deck may play it), so it gets a bar of its own.
    not_given = f"{spec.axis} not given"
    for entry in entries:
        fallback = not_given if entry.card.factions_not_given else none
        for name in entry.card.factions or (fallback,):
            counts[name] += entry.quantity
    order = sorted(set(counts) - {none, not_given}, key=lambda name: (-counts[name], name))
    order += [last for last in (none, not_given) if last in counts]
    shared = any(len(e.card.factions) > 1 for e in entries)
    return _categories(
        spec,
        counts,
        order,
        f"A card of two {spec.axis.lower()}s counts for each." if shared else "",
    )


def _categories(
    spec: ChartSpec, counts: Mapping[str, int], order: list[str], note: str = ""
) -> DeckChart:
    shown = order[:MAX_BARS]
    if len(order) > MAX_BARS:
        note = f"{note} The first {MAX_BARS} of {len(order)} shown.".strip()
    return DeckChart(
        id=spec.slug,
        title=spec.title,
        x_title=spec.axis,
        y_title="Cards",
        labels=tuple(shown),
        series=(ChartSeries("Cards", None, tuple(counts.get(c, 0) for c in shown)),),
        numbered=False,
        note=note,
    )


def _integer_axis(
    counts: Sequence[Mapping[int, float]],
) -> tuple[tuple[str, ...], list[list[float]], str]:
    """Every whole number from the lowest value to the highest, so a gap shows as 0; past
    MAX_BARS numbers, equal spans of them. Returns the labels, each series' values and a note
    saying how values were grouped (empty when they were not)."""
    lo = min(min(c) for c in counts if c)
    hi = max(max(c) for c in counts if c)
    width = math.ceil((hi - lo + 1) / MAX_BARS)
    bars = (hi - lo) // width + 1
    values: list[list[float]] = [[0] * bars for _ in counts]
    for series, counter in zip(values, counts, strict=True):
        for value, n in counter.items():
            series[(value - lo) // width] += n
    if width == 1:
        return tuple(str(lo + i) for i in range(bars)), values, ""
    labels = tuple(
        f"{lo + i * width:,} to {min(hi, lo + (i + 1) * width - 1):,}" for i in range(bars)
    )
    return labels, values, f"Values grouped {width:,} to a bar."


def goldfish_charts(*, engine: GameEngine, charts: Mapping[str, Any]) -> list[DeckChart]:
    """A goldfish answer's charts, titled as its engine declares: histograms (value -> games,
    or plays), lists or mappings of histograms (a chart each), and per-turn lists."""
    declared = {c.key: c for c in engine.goldfish_charts}
    # A chart of standard deviations is drawn with the means it belongs to, not on its own.
    spreads = {c.spread for c in engine.goldfish_charts if c.spread}
    out: list[DeckChart] = []
    for key, chart in charts.items():
        if key in spreads or not chart:
            # Nothing to draw (no card of any type, no run got there): no empty frame.
            continue
        spec = declared.get(key) or ResultChart(key, humanised(key), "Value")
        if isinstance(chart, Mapping) and all(isinstance(v, int) for v in chart.values()):
            out.append(_histogram(spec, slugify(key), None, chart))
        elif isinstance(chart, Mapping):
            out += [
                _histogram(spec, f"{slugify(key)}-{slugify(str(part))}", str(part), h)
                for part, h in chart.items()
            ]
        elif chart and isinstance(chart[0], Mapping):
            out += [
                _histogram(spec, f"{slugify(key)}-{i}", str(i), h)
                for i, h in enumerate(chart, start=1)
            ]
        else:
            spread = charts.get(spec.spread) if spec.spread else None
            out.append(_per_turn(spec, slugify(key), chart, spread))
    return out


def _titled(spec: ResultChart, part: str | None) -> tuple[str, str]:
    if part is None:
        return spec.title.replace("{part}", "").strip(), spec.x.replace("{part}", "").strip()
    part = part or NOT_GIVEN
    title = spec.title.format(part=part) if "{part}" in spec.title else f"{spec.title}: {part}"
    return title, spec.x.format(part=part)


def _histogram(
    spec: ResultChart, chart_id: str, part: str | None, histogram: Mapping[str, int]
) -> DeckChart:
    title, x_title = _titled(spec, part)
    whole = {int(k): n for k, n in histogram.items() if _is_whole(k)}
    note = ""
    numbered = bool(histogram) and len(whole) == len(histogram)
    if numbered:
        labels, [values], note = _integer_axis([whole])
    else:
        # Not all whole numbers (a run that never got there): drawn as they come.
        labels = tuple(histogram)[:MAX_BARS]
        values = [float(histogram[k]) for k in labels]
        if len(histogram) > MAX_BARS:
            note = f"The first {MAX_BARS} of {len(histogram)} values shown."
    return DeckChart(
        id=chart_id,
        title=title,
        x_title=x_title,
        y_title=spec.y,
        labels=labels,
        series=(ChartSeries(spec.y, None, tuple(values)),),
        numbered=numbered,
        note=note,
    )


def _is_whole(key: str) -> bool:
    return key.lstrip("-").isdigit() and len(key) < 12


def _per_turn(
    spec: ResultChart, chart_id: str, values: Iterable[float], spread: Any = None
) -> DeckChart:
    # As long as the policy's turns, which its engine bounds: never cut.
    shown = tuple(float(v) for v in values)
    deviations = None
    if isinstance(spread, list) and len(spread) == len(shown):
        deviations = tuple(float(v) for v in spread)
    return DeckChart(
        id=chart_id,
        title=spec.title,
        x_title=spec.x,
        y_title=spec.y,
        labels=tuple(str(i) for i in range(1, len(shown) + 1)),
        series=(ChartSeries(spec.y, None, shown),),
        unit=Unit.SHARE if spec.share else Unit.NUMBER,
        spread=deviations,
    )


def overlaid_curves(decks: Sequence[tuple[str, ResolvedDeck]]) -> list[DeckChart]:
    """Each number the game curves (cost, CQ, Tier…), one chart each, with one series per
    deck on one shared axis: for comparing decks of the same game."""
    engine = decks[0][1].snapshot.engine
    charts = []
    for spec in engine.charts:
        if spec.kind is not ChartKind.CURVE:
            continue
        for key in spec.stats:
            counts: list[Counter[int]] = []
            for _name, resolved in decks:
                counter: Counter[int] = Counter()
                for entry in resolved.entries:
                    value = entry.card.stats.get(key)
                    if not isinstance(value, int) or isinstance(value, bool):
                        continue
                    if value or not spec.skip_zero:
                        counter[value] += entry.quantity
                counts.append(counter)
            if not any(counts):
                continue
            labels, values, grouped = _integer_axis(counts)
            label = _stat_label(engine, key)
            charts.append(
                DeckChart(
                    id=f"compare-{spec.slug}-{slugify(key)}",
                    title=label if len(spec.stats) > 1 else spec.title,
                    x_title=label,
                    y_title="Cards",
                    labels=labels,
                    series=tuple(
                        ChartSeries(name, None, tuple(v))
                        for (name, _r), v in zip(decks, values, strict=True)
                    ),
                    note=grouped,
                )
            )
    return charts
