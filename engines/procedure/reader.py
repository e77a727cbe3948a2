"""Reading a goldfish.toml's parts (engines/procedure/definition.py): the shapes every table
must have, its policy knobs, and its steps, each name checked against what the procedure
declares. Everything a file gets wrong is refused, naming its path in the file and why."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.goldfish import PolicyParam, copies
from engines.procedure.cards import (
    ProcedureError,
    Test,
    compile_order,
    compile_value,
)
from engines.procedure.vocabulary import (
    Amount,
    Ascend,
    Bound,
    Choose,
    Clear,
    Deal,
    Deploy,
    Discard,
    Exchange,
    Gain,
    Income,
    Level,
    Mark,
    Measure,
    Mulligan,
    Pile,
    Playable,
    PlayLeaning,
    Pool,
    Refill,
    Rise,
    Shuffle,
    Step,
    StopWhen,
    Tally,
    TallyFactions,
    Trim,
)
from engines.rules import DeckCard


def as_table(path: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ProcedureError(path, "must be a table")
    return value


def as_list(path: str, value: Any) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ProcedureError(path, "must be an array")
    return value


def only_keys(path: str, spec: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(spec) - allowed
    if unknown:
        raise ProcedureError(path, f"unknown key {sorted(unknown)[0]!r}")


def _card_choices(
    path: str, value: Any, most: Any
) -> Callable[[Sequence[DeckCard]], list[tuple[int, str]]] | None:
    """A knob that picks one of the deck's cards of a zone: 0, the first listed (`first`
    names it), then each card by its number, up to the knob's maximum."""
    if value is None:
        return None
    spec = as_table(path, value)
    only_keys(path, spec, {"zone", "first"})
    zone, first = spec.get("zone"), spec.get("first")
    if not isinstance(zone, str) or not isinstance(first, str) or not isinstance(most, int):
        raise ProcedureError(path, "a zone and the words for the first listed, with a maximum")

    def options(cards: Sequence[DeckCard]) -> list[tuple[int, str]]:
        listed = copies(cards, zone)[:most]
        opening = f"{first} ({listed[0].name})" if listed else first
        return [(0, opening), *((n, c.name) for n, c in enumerate(listed, 1))]

    return options


def policy_knob(path: str, spec: Mapping[str, Any]) -> PolicyParam:
    only_keys(
        path, spec, {"key", "default", "help", "minimum", "maximum", "work", "label", "choices"}
    )
    for required in ("key", "default", "help"):
        if required not in spec:
            raise ProcedureError(path, f"a policy knob needs {required!r}")
    choices = _card_choices(f"{path}.choices", spec.get("choices"), spec.get("maximum"))
    try:
        return PolicyParam(
            key=spec["key"],
            default=spec["default"],
            help=spec["help"],
            minimum=spec.get("minimum"),
            maximum=spec.get("maximum"),
            work=bool(spec.get("work", False)),
            label=spec.get("label", ""),
            choices=choices,
        )
    except ValueError as error:
        raise ProcedureError(path, str(error)) from error


class Reader:
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
            only_keys(path, spec, {"do", "pile"})
            return Shuffle(self.pile(path, spec))
        if verb == "deal":
            only_keys(path, spec, {"do", "pile", "count"})
            return Deal(self.pile(path, spec), self.amount(f"{path}.count", spec.get("count")))
        if verb == "refill":
            only_keys(path, spec, {"do", "pile", "up_to"})
            up_to = self.amount(f"{path}.up_to", spec.get("up_to"), counters=True)
            return Refill(self.pile(path, spec), up_to)
        if verb == "discard":
            only_keys(path, spec, {"do", "pile", "down_to", "best"})
            return Discard(
                pile=self.pile(path, spec),
                down_to=self.amount(f"{path}.down_to", spec.get("down_to")),
                best=compile_order(f"{path}.best", spec.get("best"), self.tests),
            )
        if verb == "mulligan" and spec.get("by") == "exchange":
            only_keys(path, spec, {"do", "by", "pile", "keep"})
            return Exchange(self.pile(path, spec), self.bound(f"{path}.keep", spec.get("keep")))
        if verb == "income":
            self.economy(path, pool=True)
            only_keys(path, spec, {"do", "gain", "not_on_turn_1"})
            gain = as_table(f"{path}.gain", spec.get("gain"))
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
            only_keys(path, spec, {"do"})
            return Rise()
        if verb == "ascend":
            self.economy(path, pool=True, level=True)
            only_keys(path, spec, {"do", "pile"})
            return Ascend(self.pile(path, spec))
        if verb == "playable":
            self.economy(path, pool=True, level=True)
            only_keys(path, spec, {"do", "count", "any", "first"})
            count, any_, first = self.optional_measures(
                path,
                spec,
                (("count", "per_turn"), ("any", "share_per_turn"), ("first", "per_name")),
            )
            return Playable(count, any_, first)
        if verb == "play_leaning":
            only_keys(path, spec, {"do", "pile"})
            return PlayLeaning(self.pile(path, spec))
        if verb == "trim":
            only_keys(path, spec, {"do", "pile", "field", "hand"})
            return Trim(
                self.pile(path, spec),
                field=self.amount(f"{path}.field", spec.get("field")),
                hand=self.amount(f"{path}.hand", spec.get("hand")),
            )
        if verb == "stop_when":
            only_keys(path, spec, {"do", "faction_at_least", "turn", "share", "first"})
            turn, share, first = self.optional_measures(
                path, spec, (("turn", "each"), ("share", "share"), ("first", "first_turn"))
            )
            at_least = self.amount(f"{path}.faction_at_least", spec.get("faction_at_least"))
            return StopWhen(at_least, turn, share, first)
        if verb == "tally_factions":
            only_keys(path, spec, {"do", "measure"})
            measure = self.measure(f"{path}.measure", spec.get("measure"), "faction_share")
            return TallyFactions(measure)
        if verb == "mulligan":
            only_keys(path, spec, {"do", "by", "pile", "test", "fewer_than", "mark"})
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
            only_keys(path, spec, {"do", "measure", "holds"})
            return Mark(
                measure=self.measure(f"{path}.measure", spec.get("measure"), "first_turn"),
                holds=self.test(f"{path}.holds", spec.get("holds")),
            )
        if verb == "clear":
            only_keys(path, spec, {"do", "pile"})
            return Clear(self.pile(path, spec))
        if verb == "tally":
            only_keys(path, spec, {"do", "pile", "measure"})
            measure = self.measure(f"{path}.measure", spec.get("measure"), "hand_by_type")
            return Tally(measure, self.pile(path, spec))
        if verb == "deploy":
            only_keys(path, spec, {"do", "pile", "times", "best", "record", "refill", "to", "only"})
            if spec.get("to", "discard") not in ("discard", "table"):
                raise ProcedureError(f"{path}.to", "a deployed card goes to discard or table")
            record = as_table(f"{path}.record", spec.get("record", {}))
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
            only_keys(path, spec, {"do", "pile", "look", "best", "then"})
            look = spec.get("look")
            if not isinstance(look, int) or look < 1:
                raise ProcedureError(f"{path}.look", "must be a whole number of at least 1")
            then = as_list(f"{path}.then", spec.get("then", []))
            return Choose(
                pile=self.pile(path, spec),
                look=look,
                best=compile_order(f"{path}.best", spec.get("best"), self.tests),
                then=tuple(
                    self.gain(f"{path}.then[{i}]", as_table(path, g)) for i, g in enumerate(then)
                ),
            )
        raise ProcedureError(f"{path}.do", f"unknown verb {verb!r}")

    def optional_measures(
        self, path: str, spec: Mapping[str, Any], wanted: Sequence[tuple[str, str]]
    ) -> list[str | None]:
        """For each (key, kind): the measure of that kind the step names under key, if any."""
        return [
            None if spec.get(key) is None else self.measure(f"{path}.{key}", spec[key], kind)
            for key, kind in wanted
        ]

    def economy(self, path: str, *, pool: bool = False, level: bool = False) -> None:
        if pool and self.pool is None:
            raise ProcedureError(path, "the procedure declares no [pool]")
        if level and self.level is None:
            raise ProcedureError(path, "the procedure declares no [level]")

    def resource(self, path: str, name: str) -> None:
        if self.pool is None or name not in self.pool.resources:
            raise ProcedureError(path, f"no resource named {name!r}")

    def bound(self, path: str, value: Any) -> Bound:
        spec = as_table(path, value)
        only_keys(path, spec, {"stat", "default", "at_most"})
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
        only_keys(path, spec, {"do", "counter", "amount", "cap", "when", "mark"})
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
