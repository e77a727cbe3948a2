"""Writes to the catalogue. Views, commands and the admin call these; nothing else writes.

An import is all or nothing: the whole document is checked first, every problem is
reported with its line and field, and only a clean document is written, in one
transaction.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from cardsite.catalogue.documents import Document, DocumentError, Problem, Record
from cardsite.catalogue.models import (
    Card,
    CardSet,
    CardType,
    Errata,
    Faction,
    Game,
    Keyword,
    Rarity,
    Ruling,
    Subtype,
    Term,
    number_sort_key,
    search_columns,
)
from cardsite.catalogue.search.backends import ensure_stat_indexes
from cardsite.catalogue.short_ids import is_valid_short_id, short_id_candidates
from cardsite.catalogue.versioning import bump_catalogue_version
from engines import ENGINES, get_engine
from engines.base import GameEngine, slugify

Progress = Callable[[int], None]
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
# Deleting through-rows by card id in chunks keeps SQLite under its bound-parameter limit.
_CHUNK = 900


@dataclass
class ImportSummary:
    game: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    sections: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        parts = [f"{n} {name}" for name, n in self.sections.items() if n]
        return (
            f"{self.game}: {self.created} cards created, {self.updated} updated, "
            f"{self.unchanged} unchanged" + (f"; {', '.join(parts)}" if parts else "")
        )


def game_sync(*, engine: GameEngine, meta: Mapping[str, Any] | None = None) -> Game:
    """The game's row, created or brought in line with its engine (name and card types)."""
    defaults: dict[str, Any] = {"name": engine.name}
    for key in ("players", "play_time", "description", "source"):
        if meta and key in meta:
            defaults[key] = meta[key] or ""
    game, _ = Game.objects.update_or_create(slug=engine.slug, defaults=defaults)
    for spec in engine.card_types:
        CardType.objects.update_or_create(
            game=game,
            slug=spec.slug,
            defaults={
                "name": spec.name,
                "zone": spec.zone or "",
                "source": spec.source,
                "description": spec.description,
            },
        )
    ensure_stat_indexes(spec.key for spec in engine.stats)
    return game


def games_sync() -> list[Game]:
    return [game_sync(engine=engine) for engine in ENGINES.values()]


# --- checking -----------------------------------------------------------------------------


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
        if value in (None, ""):
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
class _CleanCard:
    record: Record
    values: dict[str, Any]
    set_code: str
    type_slug: str
    subtypes: list[str]
    faction_slugs: list[str]
    keyword_slugs: list[str]
    rarity_slug: str | None
    rulings: list[dict[str, Any]]
    errata: list[dict[str, Any]]
    content_hash: str = ""


def _check_document(
    game: Game | None, engine: GameEngine, doc: Document
) -> tuple[dict[str, list[dict[str, Any]]], list[_CleanCard]]:
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

    def existing(model: type, key: str = "slug") -> dict[str, Any]:
        if game is None:
            return {}
        return dict(model.objects.filter(game=game).values_list(key, "name"))

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
        if isinstance(order, bool) or not isinstance(order, int) or order < 0:
            c.add(rec, "order", f"must be a whole number of at least 0, got {order!r}")
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
    cards: list[_CleanCard] = []
    seen: dict[tuple[str, str], int | None] = {}
    for rec in doc.sections["cards"]:
        if not isinstance(rec.data, dict):
            c.add(rec, "", "a card must be an object")
            continue
        set_code = c.text(rec, "set", required=True).upper()
        number = c.text(rec, "number", required=True, max_length=16)
        name = c.text(rec, "name", required=True, max_length=120)
        type_name = c.text(rec, "type", required=True)
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
            _CleanCard(
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
                    "short_id": short_id,
                },
                set_code=set_code,
                type_slug=slugify(type_name),
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


def _distinct_names(names: list[str]) -> list[str]:
    """The names once each, by slug, first spelling kept: as factions and keywords already
    were, or "Soldier; soldier" links the card to one subtype twice and the database refuses."""
    first: dict[str, str] = {}
    for name in names:
        first.setdefault(slugify(name), name)
    return list(first.values())


def _content_hash(card: _CleanCard) -> str:
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
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


# --- writing ------------------------------------------------------------------------------


def _upsert(model: type, game: Game, key: str, rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    by_key = {}
    for row in rows:
        row = dict(row)
        lookup = {key: row.pop(key)}
        faction_slugs = row.pop("factions", None)
        obj, _ = model.objects.update_or_create(game=game, **lookup, defaults=row)
        if faction_slugs is not None:
            obj.factions.set(Faction.objects.filter(game=game, slug__in=faction_slugs))
        by_key[lookup[key]] = obj
    return by_key


def _replace_m2m(
    through: type, column: str, card_ids: list[int], rows: list[tuple[int, int]]
) -> None:
    for start in range(0, len(card_ids), _CHUNK):
        through.objects.filter(card_id__in=card_ids[start : start + _CHUNK]).delete()
    through.objects.bulk_create(
        [through(card_id=card_id, **{column: other}) for card_id, other in rows], batch_size=2000
    )


def catalogue_import(
    *, game_slug: str, document: Document, progress: Progress | None = None
) -> ImportSummary:
    """Check `document` whole, then write it in one transaction.

    Raises DocumentError, having written nothing, when anything in it is wrong.
    """
    try:
        engine = get_engine(game_slug)
    except KeyError as exc:
        raise DocumentError([Problem(None, "game", str(exc.args[0]))]) from None
    game = Game.objects.filter(slug=game_slug).first()
    sections, cards = _check_document(game, engine, document)

    try:
        with transaction.atomic():
            game = game_sync(engine=engine, meta=document.game.data if document.game else None)
            summary = ImportSummary(
                game=game.slug, sections={k: len(v) for k, v in sections.items()}
            )
            for row in sections["sets"]:
                CardSet.objects.update_or_create(game=game, code=row.pop("code"), defaults=row)
            _upsert(Faction, game, "slug", sections["factions"])
            _upsert(Rarity, game, "slug", sections["rarities"])
            _upsert(Keyword, game, "slug", sections["keywords"])
            _upsert(Term, game, "slug", sections["terms"])
            if cards:
                _write_cards(game, cards, summary, progress)
            bump_catalogue_version()
            transaction.on_commit(bump_catalogue_version)
    except (IntegrityError, DataError) as exc:
        # Some conflicts only the database sees: a row another session committed while this
        # import ran, or a value one backend stores and another refuses. The transaction
        # has rolled back, so the caller gets the same all-or-nothing refusal as for a bad
        # row, not a traceback; the database's own words are the only detail there is.
        detail = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
        message = f"the database refused the import, so nothing was written: {detail}"
        raise DocumentError([Problem(None, "", message)]) from exc
    return summary


def _write_cards(
    game: Game, cards: list[_CleanCard], summary: ImportSummary, progress: Progress | None
) -> None:
    sets = {s.code.upper(): s for s in CardSet.objects.filter(game=game)}
    types = {t.slug: t for t in CardType.objects.filter(game=game)}
    factions = dict(Faction.objects.filter(game=game).values_list("slug", "id"))
    keywords = dict(Keyword.objects.filter(game=game).values_list("slug", "id"))
    rarities = {r.slug: r for r in Rarity.objects.filter(game=game)}
    subtypes = dict(Subtype.objects.filter(game=game).values_list("slug", "id"))
    for name in {s for card in cards for s in card.subtypes}:
        if slugify(name) not in subtypes:
            subtypes[slugify(name)] = Subtype.objects.create(
                game=game, name=name, slug=slugify(name)
            ).id

    existing = {(c.card_set_id, c.number): c for c in Card.objects.filter(game=game)}
    taken_ids = set(Card.objects.values_list("short_id", flat=True))
    now = timezone.now()
    to_create: list[Card] = []
    to_update: list[Card] = []
    changed: list[tuple[Card, _CleanCard]] = []
    for done, clean in enumerate(cards, start=1):
        card_set = sets[clean.set_code]
        card = existing.get((card_set.id, clean.values["number"]))
        if card is not None and card.content_hash == clean.content_hash:
            summary.unchanged += 1
        else:
            is_new = card is None
            if is_new:
                card = Card(game=game, card_set=card_set, created_at=now)
            wanted_id = clean.values["short_id"]
            if wanted_id and wanted_id != card.short_id:
                if wanted_id in taken_ids:
                    raise DocumentError(
                        [
                            Problem(
                                clean.record.line,
                                "short_id",
                                f"{wanted_id!r} already belongs to another card",
                            )
                        ]
                    )
            elif not card.short_id:
                wanted_id = next(
                    i
                    for i in short_id_candidates(game.slug, card_set.code, clean.values["number"])
                    if i not in taken_ids
                )
            else:
                wanted_id = card.short_id
            taken_ids.add(wanted_id)
            for attr, value in clean.values.items():
                setattr(card, attr, value)
            card.short_id = wanted_id
            card.slug = slugify(card.name) or "card"
            card.number_sort = number_sort_key(card.number)
            card.search_name, card.search_text = search_columns(card.name, card.rules_text)
            card.card_type = types[clean.type_slug]
            card.rarity = rarities.get(clean.rarity_slug) if clean.rarity_slug else None
            card.content_hash = clean.content_hash
            card.updated_at = now
            (to_create if is_new else to_update).append(card)
            changed.append((card, clean))
        if progress and done % 500 == 0:
            progress(500)
    if progress:
        progress(len(cards) % 500)

    Card.objects.bulk_create(to_create, batch_size=1000)
    Card.objects.bulk_update(
        to_update,
        [
            "number",
            "number_sort",
            "name",
            "slug",
            "short_id",
            "card_type",
            "rarity",
            "rules_text",
            "flavour_text",
            "artist",
            "stats",
            "source",
            "notes",
            "content_hash",
            "search_name",
            "search_text",
            "updated_at",
        ],
        batch_size=1000,
    )
    summary.created, summary.updated = len(to_create), len(to_update)

    ids = [card.id for card, _ in changed]
    _replace_m2m(
        Card.factions.through,
        "faction_id",
        ids,
        [(card.id, factions[s]) for card, clean in changed for s in clean.faction_slugs],
    )
    _replace_m2m(
        Card.keywords.through,
        "keyword_id",
        ids,
        [(card.id, keywords[s]) for card, clean in changed for s in clean.keyword_slugs],
    )
    _replace_m2m(
        Card.subtypes.through,
        "subtype_id",
        ids,
        [(card.id, subtypes[slugify(s)]) for card, clean in changed for s in clean.subtypes],
    )
    for model, attr in ((Ruling, "rulings"), (Errata, "errata")):
        for start in range(0, len(ids), _CHUNK):
            model.objects.filter(card_id__in=ids[start : start + _CHUNK]).delete()
        model.objects.bulk_create(
            [
                model(card_id=card.id, position=i, **entry)
                for card, clean in changed
                for i, entry in enumerate(getattr(clean, attr))
            ],
            batch_size=2000,
        )
