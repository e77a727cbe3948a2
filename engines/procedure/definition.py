"""A goldfish procedure read from its data (fixtures/<slug>/goldfish.toml) into the
vocabulary's objects (engines/procedure/vocabulary.py). Everything a file gets wrong is refused
here, naming its path in the file and the reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.procedure.cards import (
    ProcedureError,
    Test,
    compile_test,
    compile_value,
)
from engines.procedure.reader import Reader, as_list, as_table, only_keys, policy_knob
from engines.procedure.vocabulary import (
    CHART_KINDS,
    MEASURE_KINDS,
    Chosen,
    Deal,
    Exchange,
    Figure,
    Level,
    Measure,
    Mulligan,
    Odds,
    Pile,
    Pool,
    Procedure,
    Step,
)
from engines.rules import DeckCard

ODDS_KEYS = {
    "pile",
    "of",
    "each_type",
    "at_least",
    "draws",
    "fewer",
    "after_mulligan",
    "when_present",
    "whole_draw",
    "label",
    "summary",
    "each_name",
    "after_exchange",
    "turns",
    "each_faction",
}
CHART_FIELDS = {"key", "title", "x", "y", "share", "spread"}
SUMMARY_FIELDS = {"path", "label", "unit", "spread", "exact"}


def _odds_by_name(
    path: str, spec: Mapping[str, Any], reader: Reader, setup: Sequence[Step]
) -> Odds:
    """Each card name's chance of a copy in hand `turns` draws after the set-up's exchange."""
    if not spec.get("after_exchange") or not any(isinstance(s, Exchange) for s in setup):
        raise ProcedureError(f"{path}.each_name", "only after the set-up's exchange")
    if not any(isinstance(s, Deal) for s in setup):
        raise ProcedureError(path, "the set-up deals no opening hand")
    for text in ("label", "summary"):
        if not isinstance(spec.get(text), str):
            raise ProcedureError(f"{path}.{text}", "a format string is required")
    return Odds(
        pile=reader.pile(path, spec),
        of=None,
        each_type=False,
        at_least=1,
        first=0,
        per_turn=0,
        fewer=False,
        after_mulligan=False,
        when_present=False,
        whole_draw=False,
        label=spec["label"],
        summary=spec["summary"],
        each_name=True,
        turns=reader.amount(f"{path}.turns", spec.get("turns", 0)),
    )


def _odds(path: str, spec: Mapping[str, Any], reader: Reader, setup: Sequence[Step]) -> Odds:
    only_keys(path, spec, ODDS_KEYS)
    if spec.get("each_name"):
        only_keys(path, spec, {"pile", "each_name", "after_exchange", "turns", "label", "summary"})
        return _odds_by_name(path, spec, reader, setup)
    of = spec.get("of")
    if (of is not None) + bool(spec.get("each_type")) + bool(spec.get("each_faction")) != 1:
        raise ProcedureError(
            path, "give either `of` (a card test), `each_type = true` or `each_faction = true`"
        )
    draws = spec.get("draws")
    first, per_turn = (draws, 0) if isinstance(draws, int) else (None, None)
    if isinstance(draws, Mapping):
        only_keys(f"{path}.draws", draws, {"first", "per_turn"})
        first, per_turn = draws.get("first"), draws.get("per_turn", 0)
    if not isinstance(first, int) or not isinstance(per_turn, int) or first < 0 or per_turn < 0:
        raise ProcedureError(f"{path}.draws", "a number, or a table of first and per_turn")
    if spec.get("after_mulligan"):
        if not any(isinstance(s, Mulligan) for s in setup):
            raise ProcedureError(f"{path}.after_mulligan", "the set-up has no mulligan")
        # The closed form after a redraw is for at least one card (none of them kept).
        if spec.get("at_least") != 1:
            raise ProcedureError(f"{path}.at_least", "after a mulligan, only 1")
    for text in ("label", "summary"):
        if not isinstance(spec.get(text), str):
            raise ProcedureError(f"{path}.{text}", "a format string is required")
    return Odds(
        pile=reader.pile(path, spec),
        of=None if of is None else reader.test(f"{path}.of", of),
        each_type=bool(spec.get("each_type", False)),
        at_least=reader.amount(f"{path}.at_least", spec.get("at_least")),
        first=first,
        per_turn=per_turn,
        fewer=bool(spec.get("fewer", False)),
        after_mulligan=bool(spec.get("after_mulligan", False)),
        when_present=bool(spec.get("when_present", False)),
        whole_draw=bool(spec.get("whole_draw", False)),
        label=spec["label"],
        summary=spec["summary"],
        each_faction=bool(spec.get("each_faction", False)),
    )


COST_CARD_KEYS = {"zone", "type", "copies", "stats", "text", "keywords", "factions"}


def _cost_deck(items: Any) -> tuple[DeckCard, ...]:
    deck = []
    for i, spec in enumerate(as_list("cost_deck", items)):
        path = f"cost_deck[{i}]"
        spec = as_table(path, spec)
        only_keys(path, spec, COST_CARD_KEYS)
        if not isinstance(spec.get("zone"), str) or not isinstance(spec.get("copies", 1), int):
            raise ProcedureError(path, "a card of the deck needs a zone and a number of copies")
        deck.append(
            DeckCard(
                key=f"cost-{i}",
                name=f"Card {i + 1}",
                card_type=str(spec.get("type", "")),
                zone=spec["zone"],
                quantity=spec.get("copies", 1),
                keywords=tuple(spec.get("keywords", ())),
                factions=tuple(spec.get("factions", ())),
                stats=dict(as_table(f"{path}.stats", spec.get("stats", {}))),
                text=str(spec.get("text", "")),
            )
        )
    return tuple(deck)


def _figures(name: str, items: Any, allowed: set[str], required: set[str]) -> tuple[Figure, ...]:
    found = []
    for i, spec in enumerate(as_list(name, items)):
        spec = as_table(f"{name}[{i}]", spec)
        only_keys(f"{name}[{i}]", spec, allowed)
        missing = required - set(spec)
        if missing:
            raise ProcedureError(f"{name}[{i}]", f"needs {sorted(missing)[0]!r}")
        found.append(Figure(dict(spec)))
    return tuple(found)


def _measure(
    path: str, spec: Mapping[str, Any], kind: str, charts: Mapping[str, Any], piles: list[Pile]
) -> Measure:
    in_summary = spec.get("in_summary", True)
    if not isinstance(in_summary, bool) or (not in_summary and kind != "first_turn"):
        raise ProcedureError(f"{path}.in_summary", "false only for a first_turn measure")
    if kind == "faction_share":
        if spec.get("pile") not in {p.name for p in piles}:
            raise ProcedureError(f"{path}.pile", f"no pile named {spec.get('pile')!r}")
        return Measure(str(spec["key"]), kind, dict(charts), pile=str(spec["pile"]))
    if kind != "per_name":
        for key in ("pile", "first", "held"):
            if key in spec:
                raise ProcedureError(f"{path}.{key}", "only a per_name measure")
        return Measure(
            str(spec["key"]), kind, dict(charts), spec.get("shares"), in_summary=in_summary
        )
    if spec.get("pile") not in {p.name for p in piles}:
        raise ProcedureError(f"{path}.pile", f"no pile named {spec.get('pile')!r}")
    first = dict(as_table(f"{path}.first", spec.get("first", {})))
    only_keys(f"{path}.first", first, {"by_turn", "mean", "sd"})
    held = dict(as_table(f"{path}.held", spec.get("held", {})))
    for figure, moment in held.items():
        if moment not in ("setup", "end"):
            raise ProcedureError(f"{path}.held.{figure}", "setup or end")
    return Measure(str(spec["key"]), kind, dict(charts), None, str(spec["pile"]), first, held)


def _pool(value: Any, tests: Mapping[str, Test]) -> Pool | None:
    if value is None:
        return None
    spec = as_table("pool", value)
    only_keys("pool", spec, {"resources", "cap", "trade", "cost"})
    resources = as_list("pool.resources", spec.get("resources"))
    cap, trade = spec.get("cap"), spec.get("trade")
    if not all(isinstance(r, str) for r in resources) or not resources:
        raise ProcedureError("pool.resources", "a list of resource names")
    if not isinstance(cap, int) or not isinstance(trade, int) or trade < 1:
        raise ProcedureError("pool", "cap and trade are whole numbers (trade at least 1)")
    cost = as_table("pool.cost", spec.get("cost"))
    if set(cost) != set(resources):
        raise ProcedureError("pool.cost", "an expression for each resource")
    return Pool(
        tuple(resources),
        cap,
        trade,
        {r: compile_value(f"pool.cost.{r}", cost[r], tests) for r in resources},
    )


def _level(value: Any, reader: Reader) -> Level | None:
    if value is None:
        return None
    spec = as_table("level", value)
    only_keys("level", spec, {"start", "need", "cost"})
    if reader.pool is None:
        raise ProcedureError("level", "a level is paid for from a [pool]")
    start = spec.get("start", 1)
    if not isinstance(start, int):
        raise ProcedureError("level.start", "a whole number")
    cost = as_table("level.cost", spec.get("cost", {}))
    for r in cost:
        reader.resource(f"level.cost.{r}", r)
    return Level(
        start,
        reader.bound("level.need", spec.get("need")),
        {r: reader.amount(f"level.cost.{r}", n) for r, n in cost.items()},
    )


def _chosen(value: Any, reader: Reader) -> Chosen | None:
    if value is None:
        return None
    spec = as_table("chosen", value)
    only_keys("chosen", spec, {"name", "zone", "knob", "most", "noun"})
    if spec.get("knob") not in reader.knobs:
        raise ProcedureError("chosen.knob", f"no policy knob named {spec.get('knob')!r}")
    if not all(isinstance(spec.get(k), str) for k in ("name", "zone", "noun")):
        raise ProcedureError("chosen", "name, zone and noun are strings")
    most = spec.get("most")
    if not isinstance(most, int) or most < 1:
        raise ProcedureError("chosen.most", "a whole number, 1 or more")
    return Chosen(spec["name"], spec["zone"], spec["knob"], most, spec["noun"])


def _report(value: Any, reader: Reader, path: str = "report") -> Mapping[str, Any]:
    """The `[report]` table, each `{ knob = "name" }` in it naming a knob."""
    spec = as_table(path, value)
    if set(spec) == {"knob"} and path != "report":
        if spec["knob"] not in reader.knobs:
            raise ProcedureError(f"{path}.knob", f"no policy knob named {spec['knob']!r}")
        return spec
    if set(spec) == {"chosen", "fact"}:
        if spec["fact"] not in ("name", "factions"):
            raise ProcedureError(f"{path}.fact", "name or factions")
        return spec
    return {
        key: _report(item, reader, f"{path}.{key}") if isinstance(item, Mapping) else item
        for key, item in spec.items()
    }


def read_procedure(definition: Mapping[str, Any]) -> Procedure:
    """The procedure a goldfish.toml declares, or a ProcedureError naming what is wrong."""
    only_keys(
        "",
        definition,
        {
            "policy",
            "cards",
            "piles",
            "counters",
            "turns",
            "setup",
            "turn",
            "measures",
            "odds",
            "charts",
            "summary",
            "cost_deck",
            "pool",
            "level",
            "report",
            "chosen",
            "cost",
        },
    )
    stated_cost = definition.get("cost")
    if stated_cost is not None and (
        not isinstance(stated_cost, int | float)
        or isinstance(stated_cost, bool)
        or stated_cost <= 0
    ):
        raise ProcedureError("cost", "a positive number, in the site's unit of work")
    policy = tuple(
        policy_knob(f"policy[{i}]", as_table(f"policy[{i}]", spec))
        for i, spec in enumerate(as_list("policy", definition.get("policy", [])))
    )
    cards = definition.get("cards", {})
    tests = {
        name: compile_test(f"cards.{name}", as_table(f"cards.{name}", spec))
        for name, spec in as_table("cards", cards).items()
    }
    piles = []
    for name, spec in as_table("piles", definition.get("piles", {})).items():
        spec = as_table(f"piles.{name}", spec)
        only_keys(f"piles.{name}", spec, {"zone", "reshuffle", "leave_out"})
        if not isinstance(spec.get("zone"), str):
            raise ProcedureError(f"piles.{name}.zone", "names the deck zone the pile is made of")
        leave_out = as_list(f"piles.{name}.leave_out", spec.get("leave_out", []))
        for i, test in enumerate(leave_out):
            if test not in tests:
                raise ProcedureError(f"piles.{name}.leave_out[{i}]", f"no card test named {test!r}")
        piles.append(Pile(name, spec["zone"], bool(spec.get("reshuffle", False)), tuple(leave_out)))
    counters = dict(as_table("counters", definition.get("counters", {})))
    measures = []
    for i, spec in enumerate(as_list("measures", definition.get("measures", []))):
        spec = as_table(f"measures[{i}]", spec)
        only_keys(
            f"measures[{i}]",
            spec,
            {"key", "kind", "charts", "shares", "pile", "first", "held", "in_summary"},
        )
        kind = spec.get("kind")
        if kind not in MEASURE_KINDS:
            raise ProcedureError(f"measures[{i}].kind", f"one of {', '.join(MEASURE_KINDS)}")
        charts = as_table(f"measures[{i}].charts", spec.get("charts", {}))
        for chart in charts:
            if chart not in CHART_KINDS[kind]:
                raise ProcedureError(f"measures[{i}].charts.{chart}", f"no {kind} chart")
        if "shares" in spec and kind != "hand_by_type":
            raise ProcedureError(f"measures[{i}].shares", "only a hand_by_type measure")
        measures.append(_measure(f"measures[{i}]", spec, kind, charts, piles))
    reader = Reader(policy, tests, piles, counters, measures)
    reader.pool = _pool(definition.get("pool"), tests)
    reader.level = _level(definition.get("level"), reader)
    turn, starts = [], []
    for i, spec in enumerate(as_list("turn", definition.get("turn", []))):
        spec = dict(as_table(f"turn[{i}]", spec))
        start = spec.pop("from_turn", 1)
        if not isinstance(start, int) or start < 1:
            raise ProcedureError(f"turn[{i}].from_turn", "a turn number, 1 or more")
        turn.append(spec)
        starts.append(start)
    setup = tuple(
        reader.step(f"setup[{i}]", as_table(f"setup[{i}]", s))
        for i, s in enumerate(as_list("setup", definition.get("setup", [])))
    )
    return Procedure(
        policy=policy,
        tests=tests,
        piles=tuple(piles),
        counters=counters,
        turns=reader.amount("turns", definition.get("turns")),
        setup=setup,
        turn=tuple(reader.step(f"turn[{i}]", spec) for i, spec in enumerate(turn)),
        from_turn=tuple(starts),
        measures=tuple(measures),
        odds=tuple(
            _odds(f"odds[{i}]", as_table(f"odds[{i}]", spec), reader, setup)
            for i, spec in enumerate(as_list("odds", definition.get("odds", [])))
        ),
        charts=_figures(
            "charts", definition.get("charts", []), CHART_FIELDS, {"key", "title", "x"}
        ),
        summary=_figures(
            "summary", definition.get("summary", []), SUMMARY_FIELDS, {"path", "label"}
        ),
        cost_deck=_cost_deck(definition.get("cost_deck", [])),
        pool=reader.pool,
        level=reader.level,
        report=_report(definition.get("report", {}), reader),
        chosen=_chosen(definition.get("chosen"), reader),
        stated_cost=None if stated_cost is None else float(stated_cost),
        test_facts={name: dict(spec) for name, spec in as_table("cards", cards).items()},
    )
