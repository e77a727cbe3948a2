"""Card fields' rules that need no database: collector numbers, search columns, and which
fields a card may list as inferred. The models, the importer and the edit service share them."""

from __future__ import annotations

import re

from engines.base import GameEngine
from engines.filters.text import fold

# The largest value the collector-number sort column holds on every database (PostgreSQL's
# `integer`; SQLite would store far more, and a value one backend keeps the other refuses).
MAX_COLLECTOR_NUMBER = 2**31 - 1


def search_columns(name: str, rules_text: str) -> tuple[str, str]:
    return fold(name), fold(rules_text)


def number_sort_key(number: str) -> int:
    """Leading digits of a collector number, so that 2 sorts before 10; capped at what the
    column holds, so no write can fail on it (checks refuse larger ones by name first)."""
    match = re.match(r"\d+", number)
    return min(int(match.group()), MAX_COLLECTOR_NUMBER) if match else 0


def collector_number_problem(number: str) -> str:
    """Why `number` cannot be stored as a collector number, or ""."""
    match = re.match(r"\d+", number)
    if match and int(match.group()) > MAX_COLLECTOR_NUMBER:
        return (
            f"the number part of a collector number may be at most {MAX_COLLECTOR_NUMBER:,}, "
            f"got {match.group()}"
        )
    return ""


# What a card's `inferred` list may name: its fields as catalogue documents name them, and
# "stats.<key>" for each stat of its game.
INFERABLE_FIELDS = {
    "type": "Type",
    "subtypes": "Classifications",
    "factions": "Factions",
    "rarity": "Rarity",
    "keywords": "Keywords",
    "text": "Rules text",
    "flavour": "Flavour text",
    "artist": "Artist",
    "rulings": "Rulings",
    "errata": "Errata",
}


def inferable_fields(engine: GameEngine) -> dict[str, str]:
    """Every name a card of this game may list as inferred, with the label a page shows."""
    return {**INFERABLE_FIELDS, **{f"stats.{s.key}": s.label for s in engine.stats}}


def inferred_problem(value: object, engine: GameEngine) -> str:
    """Why `value` is not a valid `inferred` list for a card of this game, or ""."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return "must be a list of field names"
    known = inferable_fields(engine)
    unknown = [v for v in value if v not in known]
    if unknown:
        return f"unknown field {unknown[0]!r}; fields: {', '.join(known)}"
    return ""


# The fields a change may name, in the order a diff lists them, with the words a page uses.
FIELDS = {
    "name": "Name",
    "type": "Type",
    "subtypes": "Classifications",
    "factions": "Factions",
    "rarity": "Rarity",
    "keywords": "Keywords",
    "text": "Rules text",
    "flavour": "Flavour text",
    "artist": "Artist",
    "set": "Set",
    "number": "Number",
}
ENTRY_FIELDS = {"rulings": "Rulings", "errata": "Errata"}


def field_labels(engine: GameEngine) -> dict[str, str]:
    """Every field a change may name for a card of this game, with its label."""
    return {**FIELDS, **{s.key: s.label for s in engine.stats}, **ENTRY_FIELDS}
