"""Writing an import: a document checked whole, then written in one transaction, with cards
whose record is unchanged left alone."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone

from cardsite.catalogue.card_fields import number_sort_key, search_columns
from cardsite.catalogue.documents import Document, DocumentError, Problem
from cardsite.catalogue.models import (
    Card,
    CardChange,
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
)
from cardsite.catalogue.services.check import CleanCard, check_document
from cardsite.catalogue.services.games import game_sync
from cardsite.catalogue.short_ids import short_id_candidates
from cardsite.catalogue.versioning import catalogue_written
from engines import get_engine
from engines.base import slugify

Progress = Callable[[int], None]
# Told, before an import writes any card, the cards it creates and the ids of those it changes,
# so a caller can note their old values without reading the file again.
BeforeWrite = Callable[[list[Card], list[int]], None]
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


def _upsert(
    model: type[models.Model], game: Game, key: str, rows: Iterable[dict[str, Any]]
) -> dict[str, Any]:
    by_key = {}
    for row in rows:
        row = dict(row)
        lookup = {key: row.pop(key)}
        faction_slugs = row.pop("factions", None)
        # Any: only the models whose rows name factions have them, which the rows say.
        obj: Any
        obj, _ = model._default_manager.update_or_create(game=game, **lookup, defaults=row)
        if faction_slugs is not None:
            obj.factions.set(Faction.objects.filter(game=game, slug__in=faction_slugs))
        by_key[lookup[key]] = obj
    return by_key


def _replace_m2m(
    through: type[models.Model], column: str, card_ids: list[int], rows: list[tuple[int, int]]
) -> None:
    for start in range(0, len(card_ids), _CHUNK):
        through._default_manager.filter(card_id__in=card_ids[start : start + _CHUNK]).delete()
    through._default_manager.bulk_create(
        [through(card_id=card_id, **{column: other}) for card_id, other in rows], batch_size=2000
    )


def catalogue_import(
    *,
    game_slug: str,
    document: Document,
    progress: Progress | None = None,
    before_write: BeforeWrite | None = None,
    keep_community: bool = False,
) -> ImportSummary:
    """Check `document` whole, then write it in one transaction.

    Raises DocumentError, having written nothing, when anything in it is wrong.
    """
    try:
        engine = get_engine(game_slug)
    except KeyError as exc:
        raise DocumentError([Problem(None, "game", str(exc.args[0]))]) from None
    game = Game.objects.filter(slug=game_slug).first()
    sections, cards = check_document(game, engine, document)

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
                write_cards(
                    game,
                    cards,
                    summary,
                    progress,
                    before_write=before_write,
                    keep_community=keep_community,
                )
            catalogue_written()
    except (IntegrityError, DataError) as exc:
        # Some conflicts only the database sees: a row another session committed while this
        # import ran, or a value one backend stores and another refuses. The transaction
        # has rolled back, so the caller gets the same all-or-nothing refusal as for a bad
        # row, not a traceback; the database's own words are the only detail there is.
        detail = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
        message = f"the database refused the import, so nothing was written: {detail}"
        raise DocumentError([Problem(None, "", message)]) from exc
    return summary


def write_cards(
    game: Game,
    cards: list[CleanCard],
    summary: ImportSummary,
    progress: Progress | None,
    *,
    existing: dict[tuple[int, str], Card] | None = None,
    before_write: BeforeWrite | None = None,
    keep_community: bool = False,
) -> list[Card]:
    """Write checked cards, each found by its set and number in `existing` (by default every
    card of the game: one card's edit passes its own) or else created; return the cards
    written, in order. `keep_community`: a card with an accepted change is left as it is,
    whatever the file says (the fixtures, loaded again at every deploy, would otherwise undo
    what players wrote and curators approved)."""
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

    if existing is None:
        existing = {(c.card_set_id, c.number): c for c in Card.objects.filter(game=game)}
        taken_ids = set(Card.objects.values_list("short_id", flat=True))
    else:
        wanted = [c.values["short_id"] for c in cards if c.values["short_id"]]
        wanted += [
            i
            for c in cards
            for i in islice(short_id_candidates(game.slug, c.set_code, c.values["number"]), 8)
        ]
        taken_ids = set(Card.objects.filter(short_id__in=wanted).values_list("short_id", flat=True))
    reviewed = (
        set(CardChange.objects.filter(card__game=game).values_list("card_id", flat=True))
        if keep_community
        else set()
    )
    now = timezone.now()
    to_create: list[Card] = []
    to_update: list[Card] = []
    changed: list[tuple[Card, CleanCard]] = []
    written: list[Card] = []
    for done, clean in enumerate(cards, start=1):
        card_set = sets[clean.set_code]
        held = existing.get((card_set.id, clean.values["number"]))
        if held is not None and (held.content_hash == clean.content_hash or held.pk in reviewed):
            summary.unchanged += 1
            written.append(held)
        else:
            is_new = held is None
            card = Card(game=game, card_set=card_set, created_at=now) if held is None else held
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
            card.card_type = types[clean.type_slug] if clean.type_slug else None
            card.rarity = rarities.get(clean.rarity_slug) if clean.rarity_slug else None
            card.content_hash = clean.content_hash
            card.updated_at = now
            (to_create if is_new else to_update).append(card)
            changed.append((card, clean))
            written.append(card)
        if progress and done % 500 == 0:
            progress(500)
    if progress:
        progress(len(cards) % 500)

    if before_write is not None:
        before_write(to_create, [card.id for card in to_update])
    Card.objects.bulk_create(to_create, batch_size=1000)
    Card.objects.bulk_update(
        to_update,
        [
            "card_set",
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
            "inferred",
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
    texts: tuple[tuple[type[models.Model], str], ...] = ((Ruling, "rulings"), (Errata, "errata"))
    for model, attr in texts:
        for start in range(0, len(ids), _CHUNK):
            model._default_manager.filter(card_id__in=ids[start : start + _CHUNK]).delete()
        model._default_manager.bulk_create(
            [
                model(card_id=card.id, position=i, **entry)
                for card, clean in changed
                for i, entry in enumerate(getattr(clean, attr))
            ],
            batch_size=2000,
        )
    return written
