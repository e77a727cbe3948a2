"""Checking an import: every record of a document turned into clean values, or every problem
with it reported by line and field. Nothing here writes."""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import models

from cardsite.catalogue.card_fields import collector_number_problem, inferred_problem
from cardsite.catalogue.documents import Document, DocumentError, Problem, Record
from cardsite.catalogue.models import (
    MAX_RARITY_ORDER,
    CardSet,
    Faction,
    Game,
    Keyword,
    Rarity,
)
from cardsite.catalogue.short_ids import is_valid_short_id
from engines.base import GameEngine, slugify

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


class _Checker:
    """Collects problems while turning raw records into clean values."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, record: Record | None, field_name: str, message: str) -> None:
        self.problems.append(Problem(record.line if record else None, field_name, message))

    def text(
        self,
        record: Record,
        key: str,
        *,
        required: bool = False,
        max_length: int = 0,
        prefix: str = "",
    ) -> str:
        value = record.data.get(key)
        if value is None:
            value = ""
        if not isinstance(value, str):
            self.add(record, prefix + key, f"must be text, got {type(value).__name__}")
            return ""
        value = value.strip()
        if required and not value:
            self.add(record, prefix + key, "is required")
        if max_length and len(value) > max_length:
            self.add(record, prefix + key, f"is longer than {max_length} characters")
        return value

    def names(self, record: Record, key: str) -> list[str]:
        value = record.data.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.add(record, key, "must be a list of names")
            return []
        return [v.strip() for v in value if v.strip()]

    def boolean(self, record: Record, key: str, default: bool) -> bool:
        value = record.data.get(key, default)
        if isinstance(value, str) and value.lower() in {"true", "false", "1", "0", "yes", "no"}:
            return value.lower() in {"true", "1", "yes"}
        if not isinstance(value, bool):
            self.add(record, key, f"must be true or false, got {value!r}")
            return default
        return value

    def date(
        self, record: Record, key: str, prefix: str = "", data: Mapping | None = None
    ) -> dt.date | None:
        value = (data if data is not None else record.data).get(key)
        if value is None or value == "":
            return None
        try:
            return dt.date.fromisoformat(value)
        except (TypeError, ValueError):
            self.add(record, prefix + key, f"must be a date as YYYY-MM-DD, got {value!r}")
            return None

    def reference(
        self, record: Record, key: str, name: str, known: Mapping[str, Any], what: str
    ) -> Any:
        found = known.get(slugify(name))
        if found is None:
            self.add(record, key, f"unknown {what} {name!r}{_did_you_mean(name, known)}")
        return found


def _did_you_mean(name: str, known: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(slugify(name), list(known), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(known[c]) for c in close)}?" if close else ""


def _entries(checker: _Checker, record: Record, key: str) -> list[dict[str, Any]]:
    value = record.data.get(key) or []
    if not isinstance(value, list):
        checker.add(record, key, "must be a list of {date, text, source}")
        return []
    entries = []
    for i, entry in enumerate(value):
        where = f"{key}[{i}]."
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("text"), str)
            or not entry["text"].strip()
        ):
            checker.add(record, f"{key}[{i}]", "must be an object with a non-empty text")
            continue
        entries.append(
            {
                "date": checker.date(record, "date", prefix=where, data=entry),
                "text": entry["text"].strip(),
                "source": str(entry.get("source") or "").strip(),
            }
        )
    return entries


@dataclass
class CleanCard:
    record: Record
    values: dict[str, Any]
    set_code: str
    type_slug: str | None
    subtypes: list[str]
    faction_slugs: list[str]
    keyword_slugs: list[str]
    rarity_slug: str | None
    rulings: list[dict[str, Any]]
    errata: list[dict[str, Any]]
    content_hash: str = ""


def check_document(
    game: Game | None, engine: GameEngine, doc: Document
) -> tuple[dict[str, list[dict[str, Any]]], list[CleanCard]]:
    c = _Checker()
    if doc.game is not None:
        if not isinstance(doc.game.data, dict):
            c.add(doc.game, "game", "must be an object")
        else:
            slug = doc.game.data.get("slug")
            if slug not in (None, engine.slug):
                c.add(doc.game, "game.slug", f"this file is for {slug!r}, not {engine.slug!r}")
            for key, limit in (("players", 20), ("play_time", 40), ("description", 300)):
                c.text(doc.game, key, max_length=limit, prefix="game.")

    def existing(model: type[models.Model], key: str = "slug") -> dict[str, Any]:
        if game is None:
            return {}
        return dict(model._default_manager.filter(game=game).values_list(key, "name"))

    sections: dict[str, list[dict[str, Any]]] = {}

    known_sets = {code.upper(): name for code, name in existing(CardSet, "code").items()}
    sets = []
    for rec in doc.sections["sets"]:
        code = c.text(rec, "code", required=True, max_length=20).upper()
        sets.append(
            {
                "code": code,
                "name": c.text(rec, "name", required=True, max_length=120),
                "release_date": c.date(rec, "release_date"),
                "is_official": c.boolean(rec, "official", True),
                "description": c.text(rec, "description"),
            }
        )
        known_sets[code] = code
    sections["sets"] = sets

    known_factions = existing(Faction)
    factions = []
    for rec in doc.sections["factions"]:
        name = c.text(rec, "name", required=True, max_length=60)
        kind = c.text(rec, "kind") or Faction.Kind.FACTION
        if kind not in Faction.Kind.values:
            c.add(rec, "kind", f"must be one of {', '.join(Faction.Kind.values)}")
        colour = c.text(rec, "colour") or "#777777"
        if not _COLOUR.match(colour):
            c.add(rec, "colour", f"must be #RRGGBB, got {colour!r}")
        factions.append(
            {
                "name": name,
                "slug": slugify(name),
                "kind": kind,
                "colour": colour,
                "abbreviation": c.text(rec, "abbreviation", max_length=4),
                "is_official": c.boolean(rec, "official", True),
                "description": c.text(rec, "description"),
                "source": c.text(rec, "source"),
            }
        )
        known_factions[slugify(name)] = name
    sections["factions"] = factions

    known_rarities = existing(Rarity)
    rarities = []
    for rec in doc.sections["rarities"]:
        name = c.text(rec, "name", required=True, max_length=30)
        order = rec.data.get("order")
        if (
            isinstance(order, bool)
            or not isinstance(order, int)
            or not 0 <= order <= MAX_RARITY_ORDER
        ):
            c.add(
                rec,
                "order",
                f"must be a whole number from 0 to {MAX_RARITY_ORDER:,}, got {order!r}",
            )
            order = 0
        rarities.append(
            {
                "name": name,
                "slug": slugify(name),
                "order": order,
                "source": c.text(rec, "source"),
            }
        )
        known_rarities[slugify(name)] = name
    sections["rarities"] = rarities

    known_keywords = existing(Keyword)
    keywords = []
    for rec in doc.sections["keywords"]:
        name = c.text(rec, "name", required=True, max_length=60)
        kind = c.text(rec, "kind", required=True)
        if kind and kind not in Keyword.Kind.values:
            c.add(rec, "kind", f"must be one of {', '.join(Keyword.Kind.values)}")
        for faction in c.names(rec, "factions"):
            c.reference(rec, "factions", faction, known_factions, "faction")
        keywords.append(
            {
                "name": name,
                "slug": slugify(name),
                "kind": kind,
                "abbreviation": c.text(rec, "abbreviation", max_length=4),
                "reminder_text": c.text(rec, "reminder_text"),
                "description": c.text(rec, "description"),
                "source": c.text(rec, "source"),
                "factions": [slugify(f) for f in c.names(rec, "factions")],
            }
        )
        known_keywords[slugify(name)] = name
    sections["keywords"] = keywords

    terms = []
    for rec in doc.sections["terms"]:
        name = c.text(rec, "name", required=True, max_length=80)
        terms.append(
            {
                "name": name,
                "slug": slugify(name),
                "text": c.text(rec, "text", required=True),
                "source": c.text(rec, "source"),
            }
        )
    sections["terms"] = terms

    types = {spec.slug: spec.name for spec in engine.card_types}
    cards: list[CleanCard] = []
    seen: dict[tuple[str, str], int | None] = {}
    for rec in doc.sections["cards"]:
        if not isinstance(rec.data, dict):
            c.add(rec, "", "a card must be an object")
            continue
        set_code = c.text(rec, "set", required=True).upper()
        number = c.text(rec, "number", required=True, max_length=16)
        if number_problem := collector_number_problem(number):
            c.add(rec, "number", number_problem)
        name = c.text(rec, "name", required=True, max_length=120)
        # Optional: where the source does not state a card's type, it stays empty.
        type_name = c.text(rec, "type")
        if set_code and set_code not in known_sets:
            c.add(rec, "set", f"unknown set {set_code!r}{_did_you_mean(set_code, known_sets)}")
        if type_name and slugify(type_name) not in types:
            c.add(
                rec,
                "type",
                f"{type_name!r} is not a {engine.name} card type "
                f"(types: {', '.join(types.values())})",
            )
        if (set_code, number) in seen and number:
            c.add(
                rec,
                "number",
                f"{set_code} {number} appears twice (also on line {seen[(set_code, number)]})",
            )
        seen[(set_code, number)] = rec.line
        factions_ = c.names(rec, "factions")
        keywords_ = c.names(rec, "keywords")
        for f in factions_:
            c.reference(rec, "factions", f, known_factions, "faction")
        for k in keywords_:
            c.reference(rec, "keywords", k, known_keywords, "keyword")
        rarity = c.text(rec, "rarity")
        if rarity:
            c.reference(rec, "rarity", rarity, known_rarities, "rarity")
        stats = rec.data.get("stats") or {}
        if not isinstance(stats, dict):
            c.add(rec, "stats", "must be an object of stat: value")
            stats = {}
        stats = {k: v for k, v in stats.items() if v is not None}
        for error in engine.validate_stats(stats):
            c.add(rec, f"stats.{error.field}", error.message)
        short_id = c.text(rec, "short_id")
        if short_id and not is_valid_short_id(short_id):
            c.add(rec, "short_id", f"{short_id!r} is not a short id (8 of 0-9 a-z, no i l o u)")
        cards.append(
            CleanCard(
                record=rec,
                values={
                    "number": number,
                    "name": name,
                    "rules_text": c.text(rec, "text"),
                    "flavour_text": c.text(rec, "flavour"),
                    "artist": c.text(rec, "artist", max_length=120),
                    "stats": dict(sorted(stats.items())),
                    "source": c.text(rec, "source"),
                    "notes": c.text(rec, "notes"),
                    "inferred": _inferred(c, rec, engine),
                    "short_id": short_id,
                },
                set_code=set_code,
                type_slug=slugify(type_name) if type_name else None,
                subtypes=_distinct_names(c.names(rec, "subtypes")),
                faction_slugs=sorted({slugify(f) for f in factions_}),
                keyword_slugs=sorted({slugify(k) for k in keywords_}),
                rarity_slug=slugify(rarity) if rarity else None,
                rulings=_entries(c, rec, "rulings"),
                errata=_entries(c, rec, "errata"),
            )
        )
    if c.problems:
        raise DocumentError(c.problems)
    for card in cards:
        card.content_hash = _content_hash(card)
    return sections, cards


def _inferred(checker: _Checker, record: Record, engine: GameEngine) -> list[str]:
    value = record.data.get("inferred") or []
    problem = inferred_problem(value, engine)
    if problem:
        checker.add(record, "inferred", problem)
        return []
    return list(dict.fromkeys(value))


def _distinct_names(names: list[str]) -> list[str]:
    """The names once each, by slug, first spelling kept: as factions and keywords already
    were, or "Soldier; soldier" links the card to one subtype twice and the database refuses."""
    first: dict[str, str] = {}
    for name in names:
        first.setdefault(slugify(name), name)
    return list(first.values())


def _content_hash(card: CleanCard) -> str:
    payload = {
        **card.values,
        "set": card.set_code,
        "type": card.type_slug,
        "subtypes": sorted(slugify(s) for s in card.subtypes),
        "factions": card.faction_slugs,
        "keywords": card.keyword_slugs,
        "rarity": card.rarity_slug,
        "rulings": card.rulings,
        "errata": card.errata,
    }
    # Left out when empty, so cards imported before `inferred` existed keep their hash and a
    # re-import leaves them (and their Last-Modified dates) alone.
    if not payload["inferred"]:
        del payload["inferred"]
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
