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
    Choose,
    Clear,
    Deal,
    Deploy,
    Discard,
    Figure,
    Gain,
    Mark,
    Measure,
    Mulligan,
    Odds,
    Pile,
    Procedure,
    Refill,
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
        if verb == "mulligan":
            _only(path, spec, {"do", "by", "pile", "test", "fewer_than", "mark"})
            if spec.get("by") != "redraw":
                raise ProcedureError(f"{path}.by", "a mulligan is by redraw")
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
}
CHART_FIELDS = {"key", "title", "x", "y", "share", "spread"}
SUMMARY_FIELDS = {"path", "label", "unit", "spread", "exact"}


def _odds(path: str, spec: Mapping[str, Any], reader: _Reader, setup: Sequence[Step]) -> Odds:
    _only(path, spec, ODDS_KEYS)
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
        _only(f"piles.{name}", spec, {"zone", "reshuffle"})
        if not isinstance(spec.get("zone"), str):
            raise ProcedureError(f"piles.{name}.zone", "names the deck zone the pile is made of")
        piles.append(Pile(name, spec["zone"], bool(spec.get("reshuffle", False))))
    counters = dict(_table("counters", definition.get("counters", {})))
    measures = []
    for i, spec in enumerate(_list("measures", definition.get("measures", []))):
        spec = _table(f"measures[{i}]", spec)
        _only(f"measures[{i}]", spec, {"key", "kind", "charts", "shares"})
        kind = spec.get("kind")
        if kind not in MEASURE_KINDS:
            raise ProcedureError(f"measures[{i}].kind", f"one of {', '.join(MEASURE_KINDS)}")
        charts = _table(f"measures[{i}].charts", spec.get("charts", {}))
        for chart in charts:
            if chart not in CHART_KINDS[kind]:
                raise ProcedureError(f"measures[{i}].charts.{chart}", f"no {kind} chart")
        if "shares" in spec and kind != "hand_by_type":
            raise ProcedureError(f"measures[{i}].shares", "only a hand_by_type measure")
        measures.append(Measure(str(spec["key"]), kind, dict(charts), spec.get("shares")))
    reader = _Reader(policy, tests, piles, counters, measures)
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
    )
