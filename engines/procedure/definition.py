"""A goldfish procedure read from its data (fixtures/<slug>/goldfish.toml) into the
vocabulary's objects (engines/procedure/vocabulary.py). Everything a file gets wrong is refused
here, naming its path in the file and the reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.goldfish import PolicyParam
from engines.procedure.cards import (
    ProcedureError,
    Test,
    compile_order,
    compile_test,
    compile_value,
)
from engines.procedure.vocabulary import (
    CHART_KINDS,
    MEASURE_KINDS,
    Amount,
    Ascend,
    Bound,
    Choose,
    Clear,
    Deal,
    Deploy,
    Discard,
    Exchange,
    Figure,
    Gain,
    Income,
    Level,
    Mark,
    Measure,
    Mulligan,
    Odds,
    Pile,
    Playable,
    Pool,
    Procedure,
    Refill,
    Rise,
    Shuffle,
    Step,
    Tally,
)
from engines.rules import DeckCard


def _table(path: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ProcedureError(path, "must be a table")
    return value


def _list(path: str, value: Any) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ProcedureError(path, "must be an array")
    return value


def _only(path: str, spec: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(spec) - allowed
    if unknown:
        raise ProcedureError(path, f"unknown key {sorted(unknown)[0]!r}")


def _policy(path: str, spec: Mapping[str, Any]) -> PolicyParam:
    _only(path, spec, {"key", "default", "help", "minimum", "maximum", "work", "label"})
    for required in ("key", "default", "help"):
        if required not in spec:
            raise ProcedureError(path, f"a policy knob needs {required!r}")
    try:
        return PolicyParam(
            key=spec["key"],
            default=spec["default"],
            help=spec["help"],
            minimum=spec.get("minimum"),
            maximum=spec.get("maximum"),
            work=bool(spec.get("work", False)),
            label=spec.get("label", ""),
        )
    except ValueError as error:
        raise ProcedureError(path, str(error)) from error


class _Reader:
    """Reads steps, checking each name against what the procedure declares."""

    def __init__(
        self,
        policy: Sequence[PolicyParam],
        tests: Mapping[str, Test],
        piles: Sequence[Pile],
        counters: Mapping[str, int],
        measures: Sequence[Measure],
    ) -> None:
        self.knobs = {p.key for p in policy}
        self.tests = tests
        self.piles = {p.name for p in piles}
        self.counters = counters
        self.measures = {m.key: m for m in measures}
        self.pool: Pool | None = None
        self.level: Level | None = None

    def amount(self, path: str, value: Any, counters: bool = False) -> Amount:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        if isinstance(value, str) and (
            value in self.knobs or (counters and value in self.counters)
        ):
            return value
        kinds = "a policy knob or counter" if counters else "a policy knob"
        raise ProcedureError(path, f"must be a whole number or {kinds}, got {value!r}")

    def pile(self, path: str, spec: Mapping[str, Any]) -> str:
        name = spec.get("pile")
        if name not in self.piles:
            raise ProcedureError(f"{path}.pile", f"no pile named {name!r}")
        return str(name)

    def measure(self, path: str, key: Any, kind: str) -> str:
        measure = self.measures.get(key)
        if measure is None or measure.kind != kind:
            raise ProcedureError(path, f"no {kind} measure named {key!r}")
        return str(key)

    def step(self, path: str, spec: Mapping[str, Any]) -> Step:
        verb = spec.get("do")
        if verb == "shuffle":
            _only(path, spec, {"do", "pile"})
            return Shuffle(self.pile(path, spec))
        if verb == "deal":
            _only(path, spec, {"do", "pile", "count"})
            return Deal(self.pile(path, spec), self.amount(f"{path}.count", spec.get("count")))
        if verb == "refill":
            _only(path, spec, {"do", "pile", "up_to"})
            up_to = self.amount(f"{path}.up_to", spec.get("up_to"), counters=True)
            return Refill(self.pile(path, spec), up_to)
        if verb == "discard":
            _only(path, spec, {"do", "pile", "down_to", "best"})
            return Discard(
                pile=self.pile(path, spec),
                down_to=self.amount(f"{path}.down_to", spec.get("down_to")),
                best=compile_order(f"{path}.best", spec.get("best"), self.tests),
            )
        if verb == "mulligan" and spec.get("by") == "exchange":
            _only(path, spec, {"do", "by", "pile", "keep"})
            return Exchange(self.pile(path, spec), self.bound(f"{path}.keep", spec.get("keep")))
        if verb == "income":
            self.economy(path, pool=True)
            _only(path, spec, {"do", "gain", "not_on_turn_1"})
            gain = _table(f"{path}.gain", spec.get("gain"))
            for r in gain:
                self.resource(f"{path}.gain.{r}", r)
            skip = spec.get("not_on_turn_1")
            if skip is not None and skip not in self.knobs:
                raise ProcedureError(f"{path}.not_on_turn_1", f"no policy knob named {skip!r}")
            return Income(
                {r: self.amount(f"{path}.gain.{r}", n) for r, n in gain.items()},
                None if skip is None else str(skip),
            )
        if verb == "rise":
            self.economy(path, level=True)
            _only(path, spec, {"do"})
            return Rise()
        if verb == "ascend":
            self.economy(path, pool=True, level=True)
            _only(path, spec, {"do", "pile"})
            return Ascend(self.pile(path, spec))
        if verb == "playable":
            self.economy(path, pool=True, level=True)
            _only(path, spec, {"do", "count", "any", "first"})
            found = {
                (key, kind): None
                if spec.get(key) is None
                else self.measure(f"{path}.{key}", spec[key], kind)
                for key, kind in (
                    ("count", "per_turn"),
                    ("any", "share_per_turn"),
                    ("first", "per_name"),
                )
            }
            return Playable(*found.values())
        if verb == "mulligan":
            _only(path, spec, {"do", "by", "pile", "test", "fewer_than", "mark"})
            if spec.get("by") != "redraw":
                raise ProcedureError(f"{path}.by", "a mulligan is by redraw or by exchange")
            mark = spec.get("mark")
            return Mulligan(
                pile=self.pile(path, spec),
                test=self.test(f"{path}.test", spec.get("test")),
                fewer_than=self.amount(f"{path}.fewer_than", spec.get("fewer_than")),
                mark=None if mark is None else self.measure(f"{path}.mark", mark, "share"),
            )
        if verb == "mark":
            _only(path, spec, {"do", "measure", "holds"})
            return Mark(
                measure=self.measure(f"{path}.measure", spec.get("measure"), "first_turn"),
                holds=self.test(f"{path}.holds", spec.get("holds")),
            )
        if verb == "clear":
            _only(path, spec, {"do", "pile"})
            return Clear(self.pile(path, spec))
        if verb == "tally":
            _only(path, spec, {"do", "pile", "measure"})
            measure = self.measure(f"{path}.measure", spec.get("measure"), "hand_by_type")
            return Tally(measure, self.pile(path, spec))
        if verb == "deploy":
            _only(path, spec, {"do", "pile", "times", "best", "record", "refill", "to", "only"})
            if spec.get("to", "discard") not in ("discard", "table"):
                raise ProcedureError(f"{path}.to", "a deployed card goes to discard or table")
            record = _table(f"{path}.record", spec.get("record", {}))
            return Deploy(
                pile=self.pile(path, spec),
                times=self.amount(f"{path}.times", spec.get("times")),
                best=compile_order(f"{path}.best", spec.get("best"), self.tests),
                record=tuple(
                    (
                        self._recorded(f"{path}.record.{key}", key),
                        compile_value(f"{path}.record.{key}", text, self.tests),
                    )
                    for key, text in record.items()
                ),
                refill=self.amount(f"{path}.refill", spec.get("refill", 0), counters=True),
                to_table=spec.get("to") == "table",
                only=None if "only" not in spec else self.test(f"{path}.only", spec["only"]),
            )
        if verb == "choose":
            _only(path, spec, {"do", "pile", "look", "best", "then"})
            look = spec.get("look")
            if not isinstance(look, int) or look < 1:
                raise ProcedureError(f"{path}.look", "must be a whole number of at least 1")
            then = _list(f"{path}.then", spec.get("then", []))
            return Choose(
                pile=self.pile(path, spec),
                look=look,
                best=compile_order(f"{path}.best", spec.get("best"), self.tests),
                then=tuple(
                    self.gain(f"{path}.then[{i}]", _table(path, g)) for i, g in enumerate(then)
                ),
            )
        raise ProcedureError(f"{path}.do", f"unknown verb {verb!r}")

    def economy(self, path: str, *, pool: bool = False, level: bool = False) -> None:
        if pool and self.pool is None:
            raise ProcedureError(path, "the procedure declares no [pool]")
        if level and self.level is None:
            raise ProcedureError(path, "the procedure declares no [level]")

    def resource(self, path: str, name: str) -> None:
        if self.pool is None or name not in self.pool.resources:
            raise ProcedureError(path, f"no resource named {name!r}")

    def bound(self, path: str, value: Any) -> Bound:
        spec = _table(path, value)
        _only(path, spec, {"stat", "default", "at_most"})
        if not isinstance(spec.get("stat"), str) or not isinstance(spec.get("default", 0), int):
            raise ProcedureError(path, "a bound names a stat, and a whole-number default")
        at_most = self.amount(f"{path}.at_most", spec.get("at_most", 0))
        return Bound(spec["stat"], spec.get("default", 0), at_most)

    def _recorded(self, path: str, key: str) -> str:
        measure = self.measures.get(key)
        if measure is None or measure.kind not in ("each", "per_turn", "per_game"):
            raise ProcedureError(path, f"no each, per_turn or per_game measure named {key!r}")
        return key

    def test(self, path: str, name: Any) -> str:
        if name not in self.tests:
            raise ProcedureError(path, f"no card test named {name!r}")
        return str(name)

    def gain(self, path: str, spec: Mapping[str, Any]) -> Gain:
        _only(path, spec, {"do", "counter", "amount", "cap", "when", "mark"})
        if spec.get("do") != "gain":
            raise ProcedureError(f"{path}.do", "a chosen card may only `gain`")
        counter = spec.get("counter")
        if counter not in self.counters:
            raise ProcedureError(f"{path}.counter", f"no counter named {counter!r}")
        when = spec.get("when")
        if when is not None:
            self.test(f"{path}.when", when)
        amount, cap = spec.get("amount", 1), spec.get("cap")
        if not isinstance(amount, int) or not isinstance(cap, int):
            raise ProcedureError(path, "amount and cap are whole numbers")
        mark = spec.get("mark")
        return Gain(
            counter=str(counter),
            amount=amount,
            cap=cap,
            when=when,
            mark=None if mark is None else self.measure(f"{path}.mark", mark, "first_turn"),
        )


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
}
CHART_FIELDS = {"key", "title", "x", "y", "share", "spread"}
SUMMARY_FIELDS = {"path", "label", "unit", "spread", "exact"}


def _odds_by_name(
    path: str, spec: Mapping[str, Any], reader: _Reader, setup: Sequence[Step]
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


def _odds(path: str, spec: Mapping[str, Any], reader: _Reader, setup: Sequence[Step]) -> Odds:
    _only(path, spec, ODDS_KEYS)
    if spec.get("each_name"):
        _only(path, spec, {"pile", "each_name", "after_exchange", "turns", "label", "summary"})
        return _odds_by_name(path, spec, reader, setup)
    of = spec.get("of")
    if (of is None) == (not spec.get("each_type")):
        raise ProcedureError(path, "give either `of` (a card test) or `each_type = true`")
    draws = spec.get("draws")
    first, per_turn = (draws, 0) if isinstance(draws, int) else (None, None)
    if isinstance(draws, Mapping):
        _only(f"{path}.draws", draws, {"first", "per_turn"})
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
    )


COST_CARD_KEYS = {"zone", "type", "copies", "stats", "text", "keywords"}


def _cost_deck(items: Any) -> tuple[DeckCard, ...]:
    deck = []
    for i, spec in enumerate(_list("cost_deck", items)):
        path = f"cost_deck[{i}]"
        spec = _table(path, spec)
        _only(path, spec, COST_CARD_KEYS)
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
                stats=dict(_table(f"{path}.stats", spec.get("stats", {}))),
                text=str(spec.get("text", "")),
            )
        )
    return tuple(deck)


def _figures(name: str, items: Any, allowed: set[str], required: set[str]) -> tuple[Figure, ...]:
    found = []
    for i, spec in enumerate(_list(name, items)):
        spec = _table(f"{name}[{i}]", spec)
        _only(f"{name}[{i}]", spec, allowed)
        missing = required - set(spec)
        if missing:
            raise ProcedureError(f"{name}[{i}]", f"needs {sorted(missing)[0]!r}")
        found.append(Figure(dict(spec)))
    return tuple(found)


def _measure(
    path: str, spec: Mapping[str, Any], kind: str, charts: Mapping[str, Any], piles: list[Pile]
) -> Measure:
    if kind != "per_name":
        for key in ("pile", "first", "held"):
            if key in spec:
                raise ProcedureError(f"{path}.{key}", "only a per_name measure")
        return Measure(str(spec["key"]), kind, dict(charts), spec.get("shares"))
    if spec.get("pile") not in {p.name for p in piles}:
        raise ProcedureError(f"{path}.pile", f"no pile named {spec.get('pile')!r}")
    first = dict(_table(f"{path}.first", spec.get("first", {})))
    _only(f"{path}.first", first, {"by_turn", "mean", "sd"})
    held = dict(_table(f"{path}.held", spec.get("held", {})))
    for figure, moment in held.items():
        if moment not in ("setup", "end"):
            raise ProcedureError(f"{path}.held.{figure}", "setup or end")
    return Measure(str(spec["key"]), kind, dict(charts), None, str(spec["pile"]), first, held)


def _pool(value: Any, tests: Mapping[str, Test]) -> Pool | None:
    if value is None:
        return None
    spec = _table("pool", value)
    _only("pool", spec, {"resources", "cap", "trade", "cost"})
    resources = _list("pool.resources", spec.get("resources"))
    cap, trade = spec.get("cap"), spec.get("trade")
    if not all(isinstance(r, str) for r in resources) or not resources:
        raise ProcedureError("pool.resources", "a list of resource names")
    if not isinstance(cap, int) or not isinstance(trade, int) or trade < 1:
        raise ProcedureError("pool", "cap and trade are whole numbers (trade at least 1)")
    cost = _table("pool.cost", spec.get("cost"))
    if set(cost) != set(resources):
        raise ProcedureError("pool.cost", "an expression for each resource")
    return Pool(
        tuple(resources),
        cap,
        trade,
        {r: compile_value(f"pool.cost.{r}", cost[r], tests) for r in resources},
    )


def _level(value: Any, reader: _Reader) -> Level | None:
    if value is None:
        return None
    spec = _table("level", value)
    _only("level", spec, {"start", "need", "cost"})
    if reader.pool is None:
        raise ProcedureError("level", "a level is paid for from a [pool]")
    start = spec.get("start", 1)
    if not isinstance(start, int):
        raise ProcedureError("level.start", "a whole number")
    cost = _table("level.cost", spec.get("cost", {}))
    for r in cost:
        reader.resource(f"level.cost.{r}", r)
    return Level(
        start,
        reader.bound("level.need", spec.get("need")),
        {r: reader.amount(f"level.cost.{r}", n) for r, n in cost.items()},
    )


def _report(value: Any, reader: _Reader, path: str = "report") -> Mapping[str, Any]:
    """The `[report]` table, each `{ knob = "name" }` in it naming a knob."""
    spec = _table(path, value)
    if set(spec) == {"knob"} and path != "report":
        if spec["knob"] not in reader.knobs:
            raise ProcedureError(f"{path}.knob", f"no policy knob named {spec['knob']!r}")
        return spec
    return {
        key: _report(item, reader, f"{path}.{key}") if isinstance(item, Mapping) else item
        for key, item in spec.items()
    }


def read_procedure(definition: Mapping[str, Any]) -> Procedure:
    """The procedure a goldfish.toml declares, or a ProcedureError naming what is wrong."""
    _only(
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
        },
    )
    policy = tuple(
        _policy(f"policy[{i}]", _table(f"policy[{i}]", spec))
        for i, spec in enumerate(_list("policy", definition.get("policy", [])))
    )
    tests = {
        name: compile_test(f"cards.{name}", _table(f"cards.{name}", spec))
        for name, spec in _table("cards", definition.get("cards", {})).items()
    }
    piles = []
    for name, spec in _table("piles", definition.get("piles", {})).items():
        spec = _table(f"piles.{name}", spec)
        _only(f"piles.{name}", spec, {"zone", "reshuffle", "leave_out"})
        if not isinstance(spec.get("zone"), str):
            raise ProcedureError(f"piles.{name}.zone", "names the deck zone the pile is made of")
        leave_out = _list(f"piles.{name}.leave_out", spec.get("leave_out", []))
        for i, test in enumerate(leave_out):
            if test not in tests:
                raise ProcedureError(f"piles.{name}.leave_out[{i}]", f"no card test named {test!r}")
        piles.append(Pile(name, spec["zone"], bool(spec.get("reshuffle", False)), tuple(leave_out)))
    counters = dict(_table("counters", definition.get("counters", {})))
    measures = []
    for i, spec in enumerate(_list("measures", definition.get("measures", []))):
        spec = _table(f"measures[{i}]", spec)
        _only(f"measures[{i}]", spec, {"key", "kind", "charts", "shares", "pile", "first", "held"})
        kind = spec.get("kind")
        if kind not in MEASURE_KINDS:
            raise ProcedureError(f"measures[{i}].kind", f"one of {', '.join(MEASURE_KINDS)}")
        charts = _table(f"measures[{i}].charts", spec.get("charts", {}))
        for chart in charts:
            if chart not in CHART_KINDS[kind]:
                raise ProcedureError(f"measures[{i}].charts.{chart}", f"no {kind} chart")
        if "shares" in spec and kind != "hand_by_type":
            raise ProcedureError(f"measures[{i}].shares", "only a hand_by_type measure")
        measures.append(_measure(f"measures[{i}]", spec, kind, charts, piles))
    reader = _Reader(policy, tests, piles, counters, measures)
    reader.pool = _pool(definition.get("pool"), tests)
    reader.level = _level(definition.get("level"), reader)
    turn, starts = [], []
    for i, spec in enumerate(_list("turn", definition.get("turn", []))):
        spec = dict(_table(f"turn[{i}]", spec))
        start = spec.pop("from_turn", 1)
        if not isinstance(start, int) or start < 1:
            raise ProcedureError(f"turn[{i}].from_turn", "a turn number, 1 or more")
        turn.append(spec)
        starts.append(start)
    setup = tuple(
        reader.step(f"setup[{i}]", _table(f"setup[{i}]", s))
        for i, s in enumerate(_list("setup", definition.get("setup", [])))
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
            _odds(f"odds[{i}]", _table(f"odds[{i}]", spec), reader, setup)
            for i, spec in enumerate(_list("odds", definition.get("odds", [])))
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
    )
