"""Reads from the catalogue. Views, the API and exports fetch through these."""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Prefetch, Q, QuerySet

from cardsite.catalogue.documents import FORMAT, VERSION
from cardsite.catalogue.history import provenance_record
from cardsite.catalogue.models import (
    Card,
    CardChange,
    CardSet,
    Errata,
    Faction,
    Game,
    Keyword,
    Rarity,
    Ruling,
    Subtype,
    Term,
)
from cardsite.catalogue.search.dropped import Dropped
from cardsite.catalogue.versioning import catalogue_version
from engines import ENGINES


def card_queryset() -> QuerySet[Card]:
    """Cards with everything a card's page or API record shows, in a fixed number of queries."""
    return Card.objects.select_related("game", "card_set", "card_type", "rarity").prefetch_related(
        "subtypes",
        "factions",
        Prefetch("keywords", queryset=Keyword.objects.order_by("name")),
        Prefetch("rulings", queryset=Ruling.objects.order_by("position", "id")),
        Prefetch("errata", queryset=Errata.objects.order_by("position", "id")),
    )


def card_list(
    *,
    game: str | None = None,
    set_code: str | None = None,
    faction: str | None = None,
    card_type: str | None = None,
) -> QuerySet[Card]:
    cards = card_queryset()
    if game:
        cards = cards.filter(game__slug=game)
    if set_code:
        cards = cards.filter(card_set__code__iexact=set_code)
    if faction:
        cards = cards.filter(factions__slug=faction)
    if card_type:
        cards = cards.filter(card_type__slug=card_type)
    # A total order: pages of a list never overlap or skip a card.
    return cards.order_by("game__name", "card_set__code", "number_sort", "number", "id")


def games_for(slug: str | None) -> list[Game]:
    """The games a search covers: the one asked for, or all."""
    games = Game.objects.order_by("name")
    return list(games.filter(slug=slug) if slug else games)


@dataclass
class SearchResult:
    cards: QuerySet[Card]
    warnings: list[Dropped]
    name_words: list[str]
    # Every filtering term was dropped, so no card matches (see compile_query).
    nothing_applies: bool = False
    # It asked about the viewer's collection: its results are theirs alone.
    personal: bool = False

    @property
    def ids(self) -> QuerySet[Card, int]:
        """The matching ids in order: page over these, then load the page with cards_in_order.

        Sorting narrow (name, id) rows and fetching 50 full cards by id is far cheaper than
        sorting every matching card with all its joined columns.
        """
        return self.cards.values_list("id", flat=True)


def cards_in_order(ids: Iterable[int]) -> list[Card]:
    """Full cards for these ids, in the same order."""
    ids = list(ids)
    by_id = card_queryset().in_bulk(ids)
    return [by_id[i] for i in ids if i in by_id]


def listed_cards(ids: Iterable[int]) -> list[Card]:
    """Cards for these ids, in the same order, with what a list of results shows (name, game,
    set, type, classifications, factions, stats) and nothing else: a page of results needs
    neither keywords nor rulings nor errata, nor the rules text and notes."""
    ids = list(ids)
    cards = (
        Card.objects.select_related("game", "card_set", "card_type")
        .only(
            "name",
            "short_id",
            "slug",
            "number",
            "stats",
            "community",
            "game__slug",
            "game__name",
            "card_set__code",
            "card_set__is_official",
            "card_type__name",
        )
        .prefetch_related(
            Prefetch("subtypes", queryset=Subtype.objects.only("name")),
            Prefetch("factions", queryset=Faction.objects.only("name", "colour")),
        )
    )
    by_id = cards.in_bulk(ids)
    return [by_id[i] for i in ids if i in by_id]


@dataclass(frozen=True)
class GameChoice:
    """A game as a search form offers it."""

    slug: str
    name: str


# Per process, with the catalogue version it was read under: every search page lists the games.
_GAME_CHOICES: dict[str, tuple[int, list[GameChoice]]] = {}


def game_choices(*, version: int | None = None) -> list[GameChoice]:
    """Every game's slug and name, by name; read once per catalogue version (`version`, when
    the caller has it already) and process."""
    version = catalogue_version() if version is None else version
    cached = _GAME_CHOICES.get("all")
    if cached is None or cached[0] != version:
        rows = Game.objects.order_by("name").values_list("slug", "name")
        cached = _GAME_CHOICES["all"] = (version, [GameChoice(*row) for row in rows])
    return cached[1]


def card_search(
    *,
    text: str,
    game: str | None = None,
    cards: QuerySet[Card] | None = None,
    viewer: Any = None,
) -> SearchResult:
    """Cards matching a query in the search language, for `viewer` (whose collection `own`
    reads). Raises QuerySyntaxError if it cannot parse."""
    from cardsite.catalogue.search.compile import compile_query

    compiled = compile_query(text, games=games_for(game), scoped=game is not None, viewer=viewer)
    base = cards if cards is not None else card_list(game=game)
    return SearchResult(
        compiled.apply(base),
        compiled.warnings,
        compiled.name_words,
        compiled.nothing_applies,
        compiled.personal,
    )


@dataclass(frozen=True)
class FoundIds:
    """A search's matching card ids in order, ready to page over, with its notes."""

    # A list, or for a personal search (never cached) the lazy query of ids.
    ids: list[int] | QuerySet[Card, int]
    warnings: list[Dropped]
    name_words: list[str]
    nothing_applies: bool = False
    # Asked about the viewer's collection (`own`): never kept in or read from a shared cache.
    personal: bool = False


# A search's ids are kept while the catalogue is unchanged (its version is in the key), and
# only if there are few enough to be cheaper to fetch from the cache than to find again.
SEARCH_CACHE_SECONDS = 10 * 60
SEARCH_CACHE_MAX_IDS = 20_000


def card_search_ids(
    *,
    text: str,
    game: str | None = None,
    cards: QuerySet[Card] | None = None,
    narrowed_by: str = "",
    version: int | None = None,
    viewer: Any = None,
) -> FoundIds:
    """card_search's ids, from the shared cache when the same search ran on this version of
    the catalogue. `narrowed_by` names what narrowed `cards` (the API's filters), so searches
    over different narrowings never share an entry; `version` is the catalogue's, when the
        caller has it already. A search of the viewer's collection (`own`) is never cached: its
    answer is theirs, and changes with every card they add. Raises QuerySyntaxError as
    card_search."""
    from cardsite.catalogue.search.owned import uses_collection

    if uses_collection(text):
        result = card_search(text=text, game=game, cards=cards, viewer=viewer)
        # Left lazy: a page then counts and reads its 50 ids in the database, rather than
        # fetching every id of a search that cannot be kept (`own=0` matches most cards).
        return FoundIds(
            result.ids,
            result.warnings,
            result.name_words,
            result.nothing_applies,
            True,
        )
    version = catalogue_version() if version is None else version
    key = (
        # v2: warnings became Dropped terms; an entry of the old shape must not be read back.
        "search:v2:"
        + hashlib.sha256(json.dumps([version, text, game, narrowed_by]).encode()).hexdigest()
    )
    hit = cache.get(key)
    if hit is not None:
        return FoundIds(*hit)
    result = card_search(text=text, game=game, cards=cards)
    found = FoundIds(list(result.ids), result.warnings, result.name_words, result.nothing_applies)
    if len(found.ids) <= SEARCH_CACHE_MAX_IDS:
        entry = (found.ids, found.warnings, found.name_words, found.nothing_applies)
        cache.set(key, entry, SEARCH_CACHE_SECONDS)
    return found


def set_neighbours(card: Card) -> tuple[Card | None, Card | None]:
    """The cards before and after `card` in its set's collector order."""
    siblings = Card.objects.filter(card_set_id=card.card_set_id).only(
        "short_id", "slug", "name", "number"
    )
    before = (
        siblings.filter(
            Q(number_sort__lt=card.number_sort)
            | Q(number_sort=card.number_sort, number__lt=card.number)
        )
        .order_by("-number_sort", "-number")
        .first()
    )
    after = (
        siblings.filter(
            Q(number_sort__gt=card.number_sort)
            | Q(number_sort=card.number_sort, number__gt=card.number)
        )
        .order_by("number_sort", "number")
        .first()
    )
    return before, after


def set_get(*, game: str, code: str) -> CardSet | None:
    return CardSet.objects.select_related("game").filter(game__slug=game, code__iexact=code).first()


def card_get(*, short_id: str) -> Card | None:
    return card_queryset().filter(short_id=short_id).first()


def game_list() -> QuerySet[Game]:
    return Game.objects.annotate(card_count=Count("cards")).order_by("name")


def game_get_queryset() -> QuerySet[Game]:
    """Games with everything a game's page or API record shows."""
    return Game.objects.prefetch_related(
        Prefetch("sets", queryset=CardSet.objects.annotate(card_count=Count("cards"))),
        Prefetch("factions", queryset=Faction.objects.order_by("name")),
        Prefetch("keywords", queryset=Keyword.objects.prefetch_related("factions")),
        "rarities",
        "terms",
        "card_types",
    ).annotate(card_count=Count("cards"))


def game_get(*, slug: str) -> Game | None:
    return game_get_queryset().filter(slug=slug).first()


def rulebook_path(*, game_slug: str) -> Path | None:
    """The game's rulebook file under RULEBOOKS_DIR, if the game is known and it is there."""
    engine = ENGINES.get(game_slug)
    if engine is None:
        return None
    path = Path(settings.RULEBOOKS_DIR) / engine.rulebook
    return path if path.is_file() else None


def set_list(*, game: str | None = None) -> QuerySet[CardSet]:
    sets = CardSet.objects.select_related("game").annotate(card_count=Count("cards"))
    if game:
        sets = sets.filter(game__slug=game)
    return sets.order_by("game__name", "-is_official", "code", "id")


def _entries(items: Any) -> list[dict[str, Any]]:
    return [
        {"date": e.date.isoformat() if e.date else None, "text": e.text, "source": e.source}
        for e in items
    ]


def card_record(card: Card) -> dict[str, Any]:
    """A card as the catalogue document holds it: the shape of fixtures, imports and exports."""
    return {
        "set": card.card_set.code,
        "number": card.number,
        "name": card.name,
        "type": card.card_type.name if card.card_type else None,
        "subtypes": sorted(s.name for s in card.subtypes.all()),
        "factions": sorted(f.name for f in card.factions.all()),
        "rarity": card.rarity.name if card.rarity else None,
        "keywords": sorted(k.name for k in card.keywords.all()),
        "text": card.rules_text,
        "flavour": card.flavour_text,
        "artist": card.artist,
        "stats": dict(sorted(card.stats.items())),
        "source": card.source,
        "notes": card.notes,
        "inferred": list(card.inferred or []),
        "short_id": card.short_id,
        "rulings": _entries(card.rulings.all()),
        "errata": _entries(card.errata.all()),
    }


def catalogue_document(*, game: Game) -> dict[str, Any]:
    """Everything the catalogue holds for one game, as one importable document."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "slug": game.slug,
            "players": game.players,
            "play_time": game.play_time,
            "description": game.description,
            "source": game.source,
        },
        "sets": [
            {
                "code": s.code,
                "name": s.name,
                "release_date": s.release_date.isoformat() if s.release_date else None,
                "official": s.is_official,
                "description": s.description,
            }
            for s in CardSet.objects.filter(game=game).order_by("code")
        ],
        "factions": [
            {
                "name": f.name,
                "kind": f.kind,
                "abbreviation": f.abbreviation,
                "colour": f.colour,
                "official": f.is_official,
                "description": f.description,
                "source": f.source,
            }
            for f in Faction.objects.filter(game=game).order_by("name")
        ],
        "rarities": [
            {"name": r.name, "order": r.order, "source": r.source}
            for r in Rarity.objects.filter(game=game).order_by("order")
        ],
        "keywords": [
            {
                "name": k.name,
                "kind": k.kind,
                "abbreviation": k.abbreviation,
                "reminder_text": k.reminder_text,
                "description": k.description,
                "factions": sorted(f.name for f in k.factions.all()),
                "source": k.source,
            }
            for k in Keyword.objects.filter(game=game).prefetch_related("factions").order_by("name")
        ],
        "terms": [
            {"name": t.name, "text": t.text, "source": t.source}
            for t in Term.objects.filter(game=game).order_by("name")
        ],
        "cards": _cards_with_provenance(game),
    }


def _cards_with_provenance(game: Game) -> list[dict[str, Any]]:
    """Every card's record with where its values came from: `community` ("", "sourced" or
    "confirmed") and `provenance`, the origin of each field the community wrote. A field not
    named there takes the card's own origin: "sample" when its set is unofficial, else the
    rulebook passage in its `source`, or data a curator loaded when that is empty. Two queries
    beyond the cards, whatever their number."""
    changes: dict[int, list[CardChange]] = defaultdict(list)
    for change in (
        CardChange.objects.filter(card__game=game)
        .select_related("author", "reviewer")
        .order_by("at", "id")
    ):
        changes[change.card_id].append(change)
    records = []
    for card in card_list(game=game.slug):
        record = card_record(card)
        record["community"] = card.community
        record["provenance"] = (
            provenance_record(card=card, changes=changes[card.pk]) if card.pk in changes else {}
        )
        records.append(record)
    return records


# The sitemap's reads (cardsite/catalogue/sitemaps.py): only the columns a URL and its date need,
# in a total order, so that its pages never overlap or skip a row.


def sitemap_games() -> QuerySet[Game]:
    return Game.objects.only("slug").order_by("slug")


def sitemap_sets() -> QuerySet[CardSet]:
    return CardSet.objects.select_related("game").only("code", "game__slug").order_by("id")


def sitemap_cards() -> QuerySet[Card, tuple[str, str, datetime.datetime]]:
    """(short id, slug, last change) of every card: tuples, as thousands are read at once."""
    return Card.objects.order_by("id").values_list("short_id", "slug", "updated_at")


def cards_last_changed() -> datetime.datetime | None:
    """When any card last changed: one query."""
    return Card.objects.aggregate(newest=Max("updated_at"))["newest"]
