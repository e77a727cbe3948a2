"""What a game file means, checked before it is built: every stat, card type, zone, table zone,
counter, setting and card filter key it names must be declared in the same file, charts draw
whole-number stats, and nothing is declared twice. Each problem is (path in the file, reason),
for engines.gamefile to report.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import StatField, StatKind
from engines.filters import QuerySyntaxError, compile_filter


@dataclass(frozen=True)
class _Names:
    """What a file declares, that the rest of it may name."""

    stats: dict[str, str]  # key -> kind
    types: frozenset[str]
    zones: frozenset[str]
    table_zones: frozenset[str]
    counters: frozenset[str]
    formats: frozenset[str]

    def problem(self, kind: str, value: str | None) -> str | None:
        known: Iterable[str] = {
            "stat": self.stats,
            "card type": self.types,
            "zone": self.zones,
            "table zone": self.table_zones,
            "counter": self.counters,
            "format": self.formats,
        }[kind]
        if value is None or value in known:
            return None
        return f"unknown {kind} {value!r}; known: {', '.join(sorted(known)) or 'none'}"


def _names(d: Mapping[str, Any]) -> _Names:
    stats = d.get("stats", [])
    table = d.get("table", {})
    return _Names(
        stats={s["key"]: s["kind"] for s in stats},
        types=frozenset(t["name"] for t in d.get("card_types", [])),
        zones=frozenset(z["slug"] for z in d.get("zones", [])),
        table_zones=frozenset(z["slug"] for z in table.get("zones", [])),
        counters=frozenset(c["slug"] for c in table.get("counters", [])),
        formats=frozenset(f["slug"] for f in d.get("formats", [])),
    )


def problems(d: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    names = _names(d)
    for path, kind, value in _references(d):
        if (reason := names.problem(kind, value)) is not None:
            yield path, reason
    yield from _filter_problems(d)
    yield from _chart_problems(d, names)
    yield from _duplicates(d)
    for f, fmt in enumerate(d.get("formats", [])):
        settings = {s["key"] for s in fmt.get("settings", [])}
        for r, rule in enumerate(fmt["rules"]):
            if (setting := rule.get("setting")) is not None and setting not in settings:
                path = f"formats[{f}].rules[{r}].setting"
                yield path, f"unknown setting {setting!r} of format {fmt['slug']!r}"


def _references(d: Mapping[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    """(path, what it names, the name) for every name a file uses."""
    for n, key in enumerate(d.get("key_stats", [])):
        yield f"key_stats[{n}]", "stat", key
    yield "chart_stat", "stat", d.get("chart_stat")
    for n, card_type in enumerate(d.get("card_types", [])):
        yield f"card_types[{n}].zone", "zone", card_type.get("zone")
    face = d.get("face", {})
    for attr in ("corner_stats", "footer_stats", "star_stats", "tag_stats"):
        for n, key in enumerate(face.get(attr, [])):
            yield f"face.{attr}[{n}]", "stat", key
    for attr in ("stat_symbols", "stat_colours"):
        for key in face.get(attr, {}):
            yield f"face.{attr}.{key}", "stat", key
    for n, name in enumerate(face.get("landscape_types", [])):
        yield f"face.landscape_types[{n}]", "card type", name
    untyped = d.get("untyped_zone", {})
    if untyped:
        yield "untyped_zone.default", "zone", untyped["default"]
    for n, when in enumerate(untyped.get("when", [])):
        yield f"untyped_zone.when[{n}].zone", "zone", when["zone"]
    for f, fmt in enumerate(d.get("formats", [])):
        for r, rule in enumerate(fmt["rules"]):
            at = f"formats[{f}].rules[{r}]"
            yield f"{at}.zone", "zone", rule.get("zone")
            yield f"{at}.card_type", "card type", rule.get("card_type")
            for n, name in enumerate(rule.get("types", [])):
                yield f"{at}.types[{n}]", "card type", name
    if "hand" in d:
        yield "hand.zone", "zone", d["hand"].get("zone")
    if "table" in d:
        yield from _table_references(d["table"])


def _table_references(table: Mapping[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    for attr in ("deck", "hand", "discard"):
        yield f"table.{attr}", "table zone", table.get(attr)
    for n, zone in enumerate(table["zones"]):
        for h, held in enumerate(zone.get("holds", [])):
            yield f"table.zones[{n}].holds[{h}]", "zone", held
    for n, deal in enumerate(table.get("opening_deals", [])):
        yield from _deal_references(f"table.opening_deals[{n}]", deal)
    for n, starting in enumerate(table.get("starting", [])):
        yield f"table.starting[{n}].zone", "table zone", starting["zone"]
        yield f"table.starting[{n}].card_type", "card type", starting.get("card_type") or None
    if "second_deck" in table:
        yield "table.second_deck.zone", "table zone", table["second_deck"]["zone"]
        yield "table.second_deck.format", "format", table["second_deck"]["format"]
    for n, choice in enumerate(table.get("choices", [])):
        for attr in ("zone", "to", "rest_to"):
            yield f"table.choices[{n}].{attr}", "table zone", choice[attr]
    for s, step in enumerate(table["steps"]):
        at = f"table.steps[{s}]"
        for attr in ("ready", "reveal"):
            for n, zone in enumerate(step.get(attr, [])):
                yield f"{at}.{attr}[{n}]", "table zone", zone
        for attr in ("only_while_holding", "skipped_while_holding"):
            yield f"{at}.{attr}", "table zone", step.get(attr)
        for n, deal in enumerate(step.get("deals", [])):
            yield from _deal_references(f"{at}.deals[{n}]", deal)
        for n, clear in enumerate(step.get("clear", [])):
            for z, zone in enumerate(clear["zones"]):
                yield f"{at}.clear[{n}].zones[{z}]", "table zone", zone
            yield f"{at}.clear[{n}].to", "table zone", clear["to"]
            for z, zone in enumerate(clear.get("deck_zones", [])):
                yield f"{at}.clear[{n}].deck_zones[{z}]", "zone", zone
        for n, tally in enumerate(step.get("tally", [])):
            yield f"{at}.tally[{n}].counter", "counter", tally["counter"]
            yield f"{at}.tally[{n}].stat", "stat", tally["stat"]
            for z, zone in enumerate(tally["zones"]):
                yield f"{at}.tally[{n}].zones[{z}]", "table zone", zone


def _deal_references(at: str, deal: Mapping[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    yield f"{at}.source", "table zone", deal["source"]
    for n, zone in enumerate(deal["to"]):
        yield f"{at}.to[{n}]", "table zone", zone


def _filters(d: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for n, when in enumerate(d.get("untyped_zone", {}).get("when", [])):
        yield f"untyped_zone.when[{n}].filter", when["filter"]
    for f, fmt in enumerate(d.get("formats", [])):
        for r, rule in enumerate(fmt["rules"]):
            if "filter" in rule:
                yield f"formats[{f}].rules[{r}].filter", rule["filter"]
    if "second_deck" in d.get("table", {}):
        yield "table.second_deck.default", d["table"]["second_deck"]["default"]


def stat_fields(d: Mapping[str, Any]) -> tuple[StatField, ...]:
    """The file's stats as the engine holds them (filters are compiled against them)."""
    return tuple(
        StatField(
            **{
                **s,
                "kind": StatKind(s["kind"]),
                "aliases": tuple(s.get("aliases", ())),
                "choices": tuple(s.get("choices", ())),
            }
        )
        for s in d.get("stats", [])
    )


def _filter_problems(d: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    # Compiled strictly, as the engine will compile them: an unknown key, an impossible stat
    # value, or a key that needs the catalogue or a viewer (`s:`, `own`) is refused here.
    stats = stat_fields(d)
    for path, expression in _filters(d):
        try:
            compile_filter(expression, stats=stats)
        except QuerySyntaxError as exc:
            yield path, f"the card filter {expression!r}: {exc}"


def _chart_problems(d: Mapping[str, Any], names: _Names) -> Iterator[tuple[str, str]]:
    titles: set[str] = set()
    for n, chart in enumerate(d.get("charts", [])):
        if chart["title"] in titles:
            yield f"charts[{n}].title", f"two charts are titled {chart['title']!r}"
        titles.add(chart["title"])
        stats = chart.get("stats", [])
        if (chart["kind"] == "curve") != bool(stats):
            yield f"charts[{n}].stats", "a curve names its stats, and only a curve"
        for s, key in enumerate(stats):
            if (reason := names.problem("stat", key)) is not None:
                yield f"charts[{n}].stats[{s}]", reason
            elif names.stats[key] != StatKind.INTEGER:
                yield f"charts[{n}].stats[{s}]", f"{key!r} is no whole-number stat"


def _duplicates(d: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    lists = {
        "stats": ("key", d.get("stats", [])),
        "card_types": ("name", d.get("card_types", [])),
        "zones": ("slug", d.get("zones", [])),
        "formats": ("slug", d.get("formats", [])),
        "table.zones": ("slug", d.get("table", {}).get("zones", [])),
        "table.counters": ("slug", d.get("table", {}).get("counters", [])),
    }
    for where, (attr, items) in lists.items():
        seen: set[str] = set()
        for n, item in enumerate(items):
            if item[attr] in seen:
                yield f"{where}[{n}].{attr}", f"{item[attr]!r} is declared twice"
            seen.add(item[attr])
