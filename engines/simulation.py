"""A game's simulation: the goldfish procedure its folder declares (goldfish.toml, kept in the
game's definition under `goldfish` and run by engines.procedure). A game without one has no
simulation."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass, replace
from functools import partial
from typing import Any

from engines.base import GameEngine
from engines.gamefile import ENGINE_FILE, GameFileError
from engines.procedure import ProcedureError, goldfish_parts
from engines.procedure.cards import Expression
from engines.procedure.describe import describe
from engines.procedure.vocabulary import Procedure

GOLDFISH_FILE = "goldfish.toml"


def with_simulation(
    engine: GameEngine, definition: Mapping[str, Any], *, file: str = "<definition>"
) -> GameEngine:
    """`engine` with the simulation `definition` declares; GameFileError naming the procedure's
    file (beside `file`, the game's engine.toml) if it cannot be run."""
    declared = definition.get("goldfish")
    if declared is None:
        return engine
    where = file.removesuffix(ENGINE_FILE) + GOLDFISH_FILE
    try:
        parts = goldfish_parts(declared)
    except ProcedureError as exc:
        raise GameFileError(where, exc.path, exc.reason) from None
    for path, reason in procedure_problems(declared, parts.procedure, engine):
        raise GameFileError(where, path, reason)
    return replace(
        engine,
        goldfish=parts.goldfish,
        goldfish_reference=parts.goldfish_reference,
        goldfish_policy=parts.goldfish_policy,
        goldfish_charts=parts.goldfish_charts,
        goldfish_summary=parts.goldfish_summary,
        goldfish_description=partial(
            describe, parts.procedure, stat_labels={s.key: s.label for s in engine.stats}
        ),
        odds=parts.odds,
        goldfish_cost_written=parts.procedure.stated_cost or engine.goldfish_cost_written,
        # Measured on first use, not when the game is loaded: a process that never simulates
        # never pays for the timing. A cost the file states is kept as it is.
        goldfish_measured=None
        if parts.procedure.stated_cost
        else partial(getattr, parts, "goldfish_cost"),
    )


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def procedure_problems(
    declared: Mapping[str, Any], procedure: Procedure, engine: GameEngine
) -> Iterator[tuple[str, str]]:
    """What a goldfish file names that its game does not declare: a pile's zone, a card
    test's type, stat or zone, a stat in an expression. The procedure reads a stat a card
    leaves empty as 0, so a misspelt one would quietly count nothing."""
    zones = {z.slug for z in engine.zones}
    types = {t.name for t in engine.card_types}
    stats = {s.key for s in engine.stats}
    known = {"zone": zones, "type": types, "stat": stats}
    for pile in procedure.piles:
        if pile.zone not in zones:
            yield f"piles.{pile.name}.zone", _unknown("zone", pile.zone, zones)
    for name, test in declared.get("cards", {}).items():
        for fact, values in known.items():
            if fact in test and test[fact] not in values:
                yield f"cards.{name}.{fact}", _unknown(fact, test[fact], values)
    for path, expression in _expressions(procedure, ""):
        for word in _NAME.findall(expression.text):
            if word not in procedure.tests and word not in stats:
                reason = f"{word!r} in {expression.text!r} is neither a card test nor a stat"
                yield path, f"{reason}; stats: {', '.join(sorted(stats)) or 'none'}"


def _unknown(fact: str, value: object, known: set[str]) -> str:
    return f"unknown {fact} {value!r}; known: {', '.join(sorted(known)) or 'none'}"


def _expressions(value: object, path: str) -> Iterator[tuple[str, Expression]]:
    """Every expression in the procedure, with where it is (as the file's keys are named)."""
    if isinstance(value, Expression):
        yield path, value
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from _expressions(getattr(value, f.name), f"{path}.{f.name}".lstrip("."))
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            yield from _expressions(item, f"{path}[{i}]")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _expressions(item, f"{path}.{key}")
