"""The procedure's card expressions: named tests of a card and sums over its facts.

Kept to what a goldfish procedure needs and nothing more, so that it maps one to one onto the
site's card filters when those move into engines/: a test is a table of facts a card must all
have (`{type = "Battle"}`, `{keyword = "Spy"}`, `{text = "up to 6"}`, `{stat = "tier",
at_most = 2}`), and a value is a sum of whole-number terms (`"attack + defence"`), each a stat,
a named test (1 when the card passes it, else 0) or a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.goldfish import stat
from engines.rules import DeckCard

Test = Callable[[DeckCard], bool]
Value = Callable[[DeckCard], int]

TEST_KEYS = frozenset({"type", "keyword", "text", "stat", "at_least", "at_most", "zone"})
_TERM = re.compile(r"\s*([+-])?\s*([A-Za-z_][A-Za-z0-9_]*|\d+)\s*")


class ProcedureError(ValueError):
    """A goldfish procedure that cannot be run, naming where in its file and why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def compile_test(path: str, spec: Mapping[str, Any]) -> Test:
    """A card test from its table; every fact named must hold."""
    unknown = set(spec) - TEST_KEYS
    if unknown:
        raise ProcedureError(path, f"unknown card fact {sorted(unknown)[0]!r}")
    if ("at_least" in spec or "at_most" in spec) and "stat" not in spec:
        raise ProcedureError(path, "at_least and at_most need a stat")
    checks: list[Test] = []
    if "type" in spec:
        wanted_type = str(spec["type"])
        checks.append(lambda c: c.card_type == wanted_type)
    if "zone" in spec:
        wanted_zone = str(spec["zone"])
        checks.append(lambda c: c.zone == wanted_zone)
    if "keyword" in spec:
        keyword = str(spec["keyword"]).lower()
        checks.append(lambda c: keyword in (k.lower() for k in c.keywords))
    if "text" in spec:
        # A phrase of the card's text, in any case: how rulebooks cite the cards that do a thing.
        phrase = str(spec["text"]).lower()
        checks.append(lambda c: phrase in c.text.lower())
    if "stat" in spec:
        key = str(spec["stat"])
        low, high = spec.get("at_least"), spec.get("at_most")
        if low is None and high is None:
            # The card states the stat as a whole number (a blank or a word is not one).
            checks.append(lambda c: _whole(c.stats.get(key)))
        else:
            checks.append(
                lambda c: (
                    (low is None or stat(c, key) >= low) and (high is None or stat(c, key) <= high)
                )
            )
    return lambda c: all(check(c) for check in checks)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Expression:
    """A sum of terms over one card, kept with its text for messages and the docs."""

    text: str
    value: Value

    def __call__(self, card: DeckCard) -> int:
        return self.value(card)


def compile_value(path: str, text: Any, tests: Mapping[str, Test]) -> Expression:
    """`"attack + defence"`, `"draws_six"`, `"2 - tier"`: each name a named test (0 or 1) or a
    stat (0 where the card leaves it empty). Or a choice by a test: `{ if = "unit", then =
    "cq", else = "-1" }`."""
    if isinstance(text, Mapping):
        return _choice(path, text, tests)
    if not isinstance(text, str) or not text.strip():
        raise ProcedureError(path, "an expression is a non-empty string")
    terms: list[tuple[int, str]] = []
    at = 0
    while at < len(text):
        match = _TERM.match(text, at)
        if match is None or (terms and match.group(1) is None):
            raise ProcedureError(path, f"cannot read {text!r} at {text[at:]!r}")
        terms.append((-1 if match.group(1) == "-" else 1, match.group(2)))
        at = match.end()
    parts = [(sign, _term(name, tests)) for sign, name in terms]
    return Expression(text, lambda c: sum(sign * part(c) for sign, part in parts))


def _choice(path: str, spec: Mapping[str, Any], tests: Mapping[str, Test]) -> Expression:
    if set(spec) != {"if", "then", "else"}:
        raise ProcedureError(path, "a choice is a table of if, then and else")
    if spec["if"] not in tests:
        raise ProcedureError(f"{path}.if", f"no card test named {spec['if']!r}")
    test = tests[spec["if"]]
    then = compile_value(f"{path}.then", spec["then"], tests)
    otherwise = compile_value(f"{path}.else", spec["else"], tests)
    text = f"({spec['if']} ? {then.text} : {otherwise.text})"
    return Expression(text, lambda c: then(c) if test(c) else otherwise(c))


def _term(name: str, tests: Mapping[str, Test]) -> Value:
    if name.isdigit():
        number = int(name)
        return lambda _card: number
    if name in tests:
        test = tests[name]
        return lambda card: int(test(card))
    return lambda card: stat(card, name)


def compile_order(path: str, spec: Any, tests: Mapping[str, Test]) -> tuple[Expression, ...]:
    """An ordering: one expression, or a list compared in turn (the first decides, the next
    breaks its ties). Ties left over go to the card drawn first."""
    items = [spec] if isinstance(spec, str | Mapping) else spec
    if not isinstance(items, list) or not items:
        raise ProcedureError(path, "an ordering is an expression or a list of them")
    return tuple(compile_value(f"{path}[{i}]", item, tests) for i, item in enumerate(items))


def order_key(order: tuple[Expression, ...]) -> Callable[[DeckCard], tuple[int, ...]]:
    return lambda c: tuple(e(c) for e in order)
