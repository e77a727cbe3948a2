"""A game read from its data file: fixtures/<slug>/engine.toml, built into a GameEngine.

A file is checked twice before anything is built: against engines/game.schema.json (shapes,
kinds, required values), then for meaning (every stat, card type, zone, table zone, counter,
setting and card filter it names must exist in the same file). Either refusal names the file,
the path in it (`formats[1].rules[0].zone`) and the reason, so a game's author can fix it
without reading Python. Nothing here imports Django.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from engines.base import (
    CardBack,
    CardTypeSpec,
    ChartKind,
    ChartSpec,
    FaceLayout,
    GameEngine,
    SearchExample,
    Zone,
)
from engines.filters import DeclaredFilter, StatSpec
from engines.gamefile_meaning import problems, stat_fields
from engines.hands import HandRules, Mulligan
from engines.rules import (
    CardLimit,
    CardsNotAllowed,
    CopyLimit,
    Format,
    FormatSetting,
    NotEmpty,
    OneFaction,
    Rule,
    Severity,
    TypesNotAllowed,
    ZoneSize,
)
from engines.table import (
    Choice,
    Clear,
    Counter,
    Deal,
    SecondDeck,
    Starting,
    Table,
    TableZone,
    Tally,
    TurnStep,
    ZoneKind,
)

SCHEMA_PATH = Path(__file__).with_name("game.schema.json")
ENGINE_FILE = "engine.toml"

RULE_KINDS: dict[str, type[Rule]] = {
    "zone_size": ZoneSize,
    "copy_limit": CopyLimit,
    "one_faction": OneFaction,
    "card_limit": CardLimit,
    "types_not_allowed": TypesNotAllowed,
    "cards_not_allowed": CardsNotAllowed,
    "not_empty": NotEmpty,
}

# tomllib gives the position only inside its message: "... (at line 3, column 7)".
_TOML_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")

TOP = "(top level)"


class GameFileError(ValueError):
    """A game file that cannot be used: which file, where in it, and why."""

    def __init__(self, file: str, path: str, reason: str) -> None:
        super().__init__(f"{file}: {path}: {reason}")
        self.file = file
        self.path = path
        self.reason = reason


def load_engine_file(path: Path | str) -> GameEngine:
    """The engine a game's engine.toml declares; GameFileError if the file cannot be used."""
    return engine_from_definition(read_definition(path), file=str(path))


def read_game_folder(folder: Path) -> dict[str, Any]:
    """A game folder's definition, parsed but not yet checked: its engine.toml, with its
    goldfish.toml (if it has one) under `goldfish`, so that a stored game simulates as its
    folder does."""
    definition = read_definition(folder / ENGINE_FILE)
    procedure = folder / "goldfish.toml"
    if procedure.exists():
        definition["goldfish"] = read_definition(procedure)
    return definition


def read_definition(path: Path | str) -> dict[str, Any]:
    """A game file's contents, parsed but not yet checked."""
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise GameFileError(str(path), TOP, f"cannot be read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        where = _TOML_WHERE.search(str(exc))
        at = f"line {where[1]}, column {where[2]}" if where else TOP
        reason = _TOML_WHERE.sub("", str(exc)).strip()
        raise GameFileError(str(path), at, f"not valid TOML: {reason}") from None


def engine_from_definition(
    definition: Mapping[str, Any], *, file: str = "<definition>"
) -> GameEngine:
    """The engine a parsed game file declares, after checking it against the schema and for
    meaning; GameFileError (naming `file`) if it cannot be used."""
    check_definition(definition, file=file)
    try:
        return _build(definition)
    except ValueError as exc:
        # The dataclasses' own checks, for anything the checks above let through.
        raise GameFileError(file, TOP, str(exc)) from None


def check_definition(definition: Mapping[str, Any], *, file: str = "<definition>") -> None:
    """Refuse (GameFileError) a definition the schema or the semantic checks refuse."""
    error = _schema_error(definition)
    if error is not None:
        raise GameFileError(file, *error)
    for path, reason in problems(definition):
        raise GameFileError(file, path, reason)


# --- the schema ----------------------------------------------------------------------------


@cache
def _validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _path(parts: Iterable[str | int]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or TOP


def _schema_error(definition: Mapping[str, Any]) -> tuple[str, str] | None:
    validator = _validator()
    error = jsonschema.exceptions.best_match(validator.iter_errors(definition))
    if error is None:
        return None
    path = list(error.absolute_path)
    # A rule is one of several shapes: "not valid under any of the given schemas" says
    # nothing, so a rule of a known kind is held to that kind's shape for the message.
    kind = _rule_kind(definition, path)
    if error.validator == "oneOf" and kind is not None:
        sub = validator.evolve(schema={"$ref": f"#/$defs/rule_{kind}"})
        inner = jsonschema.exceptions.best_match(sub.iter_errors(error.instance))
        if inner is not None:
            return _path([*path, *inner.absolute_path]), inner.message
    if error.validator == "oneOf" and len(path) == 4 and path[2] == "rules":
        return _path([*path, "kind"]), f"unknown rule kind; known: {', '.join(RULE_KINDS)}"
    return _path(path), error.message


def _rule_kind(definition: Mapping[str, Any], path: Sequence[str | int]) -> str | None:
    if len(path) != 4 or path[0] != "formats" or path[2] != "rules":
        return None
    try:
        rule = definition["formats"][path[1]]["rules"][path[3]]
    except (KeyError, IndexError, TypeError):
        return None
    kind = rule.get("kind") if isinstance(rule, Mapping) else None
    return kind if kind in RULE_KINDS else None


# --- building ------------------------------------------------------------------------------


def _tuples(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}


def _build(d: Mapping[str, Any]) -> GameEngine:
    hand = HandRules(**{**d["hand"], "mulligan": Mulligan(d["hand"].get("mulligan", "none"))})
    stats = stat_fields(d)
    return GameEngine(
        slug=d["slug"],
        name=d["name"],
        rulebook=d["rulebook"],
        stats=stats,
        card_types=tuple(CardTypeSpec(**{"zone": None, **t}) for t in d["card_types"]),
        zones=tuple(Zone(**z) for z in d["zones"]),
        face=_face(d.get("face", {})),
        formats=tuple(_format(f, stats) for f in d.get("formats", [])),
        chart_stat=d.get("chart_stat"),
        key_stats=tuple(d.get("key_stats", ())),
        charts=tuple(_chart(c) for c in d.get("charts", [])),
        untyped_zone=_untyped_zone(d["untyped_zone"], stats) if "untyped_zone" in d else None,
        unaligned_label=d.get("unaligned_label"),
        official_factions_not_given=d.get("official_factions_not_given"),
        hand=hand if "hand" in d else None,
        table=_table(d["table"], hand) if "table" in d else None,
        examples=tuple(SearchExample(**e) for e in d.get("examples", [])),
    )


def _face(face: Mapping[str, Any]) -> FaceLayout:
    values = _tuples({k: v for k, v in face.items() if k != "back"})
    for attr in ("stat_symbols", "stat_colours"):
        if attr in values:
            values[attr] = tuple(values[attr].items())
    if "back" in face:
        values["back"] = CardBack(**_tuples(face["back"]))
    return FaceLayout(**values)


def _chart(chart: Mapping[str, Any]) -> ChartSpec:
    return ChartSpec(**_tuples({**chart, "kind": ChartKind(chart["kind"])}))


def _format(fmt: Mapping[str, Any], stats: tuple[StatSpec, ...]) -> Format:
    return Format(
        slug=fmt["slug"],
        name=fmt["name"],
        description=fmt["description"],
        needs_faction=fmt.get("needs_faction", False),
        settings=tuple(
            FormatSetting(s["key"], s["label"], s.get("default"), s["help"])
            for s in fmt.get("settings", [])
        ),
        rules=tuple(_rule(r, stats) for r in fmt["rules"]),
    )


def _rule(rule: Mapping[str, Any], stats: tuple[StatSpec, ...]) -> Rule:
    params = _tuples({k: v for k, v in rule.items() if k not in ("kind", "reading", "filter")})
    # Rules carry one source line; a reading follows the passage it reads, as the rules'
    # sources have always written it.
    if "reading" in rule:
        params["source"] = f"{rule['source']}. Reading: {rule['reading']}"
    if "severity" in rule:
        params["severity"] = Severity(rule["severity"])
    if "names" in rule:
        params["names"] = frozenset(rule["names"])
    if "filter" in rule:
        params["excluded"] = DeclaredFilter(rule["filter"], stats)
    return RULE_KINDS[rule["kind"]](**params)


@dataclass(frozen=True)
class _UntypedCard:
    """A card of no stated type, as a filter sees it (GameEngine.untyped_zone's arguments)."""

    name: str
    factions: tuple[str, ...]
    keywords: tuple[str, ...]
    card_type: str = ""
    subtypes: tuple[str, ...] = ()
    stats: Mapping[str, object] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class UntypedZone:
    """GameEngine.untyped_zone from data: the zone of the first filter a card matches, else
    `default`. Equal by its data."""

    default: str
    when: tuple[tuple[DeclaredFilter, str], ...] = ()

    def __call__(
        self, factions: tuple[str, ...], keywords: tuple[str, ...] = (), name: str = ""
    ) -> str:
        card = _UntypedCard(name=name, factions=factions, keywords=keywords)
        return next((zone for test, zone in self.when if test(card)), self.default)


def _untyped_zone(untyped: Mapping[str, Any], stats: tuple[StatSpec, ...]) -> UntypedZone:
    when = tuple((DeclaredFilter(w["filter"], stats), w["zone"]) for w in untyped.get("when", []))
    return UntypedZone(untyped["default"], when)


def _deal(deal: Mapping[str, Any]) -> Deal:
    return Deal(**_tuples(deal))


def _table(table: Mapping[str, Any], hand: HandRules) -> Table:
    plain = {
        k: v
        for k, v in table.items()
        if k
        not in ("zones", "steps", "opening_deals", "starting", "choices", "counters", "second_deck")
    }
    return Table(
        zones=tuple(
            TableZone(**_tuples({**z, "kind": ZoneKind(z["kind"])})) for z in table["zones"]
        ),
        rules=hand,
        steps=tuple(_step(s) for s in table["steps"]),
        opening_deals=tuple(_deal(x) for x in table.get("opening_deals", [])),
        starting=tuple(Starting(**_tuples(s)) for s in table.get("starting", [])),
        choices=tuple(Choice(**c) for c in table.get("choices", [])),
        counters=tuple(Counter(**c) for c in table.get("counters", [])),
        second_deck=SecondDeck(**table["second_deck"]) if "second_deck" in table else None,
        **{"discard": None, **plain},
    )


def _step(step: Mapping[str, Any]) -> TurnStep:
    values = _tuples({k: v for k, v in step.items() if k not in ("deals", "tally", "clear")})
    return TurnStep(
        **values,
        deals=tuple(_deal(x) for x in step.get("deals", [])),
        tally=tuple(Tally(**_tuples(t)) for t in step.get("tally", [])),
        clear=tuple(Clear(**_tuples(c)) for c in step.get("clear", [])),
    )
