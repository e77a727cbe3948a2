"""The builder's card pool, read: one page of the deck's game's cards matching a query, with
what each card shows beside it, in a number of queries that does not grow with the page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator

from cardsite.catalogue.models import Card, Faction, Game, Keyword
from cardsite.catalogue.search.dropped import Dropped
from cardsite.catalogue.selectors import card_search_ids
from decks.models import Deck


@dataclass(frozen=True)
class PoolCard:
    """What a card of the pool shows, read as plain values: a page is sixty cards, and
    building each as a Card with its set, type and factions as models cost more than the
    rest of the page's reading."""

    id: int
    short_id: str
    name: str
    slug: str
    stats: dict[str, Any]
    community: str
    is_sample: bool
    type_name: str
    faction_names: tuple[str, ...]


@dataclass(frozen=True)
class PoolPage:
    page: Page[Any]
    cards: list[PoolCard]
    warnings: list[Dropped]


def pool_cards(ids: list[int]) -> list[PoolCard]:
    """The pool's cards for these ids, in the same order, in two queries."""
    rows = Card.objects.filter(pk__in=ids).values_list(
        "id",
        "short_id",
        "name",
        "slug",
        "stats",
        "community",
        "card_set__is_official",
        "card_type__name",
    )
    factions: dict[int, list[str]] = {}
    through = Card.factions.through.objects.filter(card_id__in=ids).order_by("id")
    for card_id, faction in through.values_list("card_id", "faction__name"):
        factions.setdefault(card_id, []).append(faction)
    by_id = {
        row[0]: PoolCard(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4] or {},
            row[5],
            not row[6],
            row[7] or "",
            tuple(factions.get(row[0], ())),
        )
        for row in rows
    }
    return [by_id[i] for i in ids if i in by_id]


def pool_page(*, deck: Deck, q: str, page: int, per_page: int, viewer: Any) -> PoolPage:
    """Page `page` (the last one, past it) of the cards of the deck's game that `q` matches
    (every card of the game for an empty `q`), in the query's order. Raises
    QuerySyntaxError as card_search."""
    found = card_search_ids(text=q, game=deck.game.slug, viewer=viewer)
    paginator = Paginator(found.ids, per_page)
    shown = paginator.page(min(page, paginator.num_pages))
    return PoolPage(shown, pool_cards(list(shown.object_list)), found.warnings)


def game_classifications(*, game: Game) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The game's factions and keywords, each as (name, slug), by name: the pool's chips."""
    factions = Faction.objects.filter(game=game).order_by("name").values_list("name", "slug")
    keywords = Keyword.objects.filter(game=game).order_by("name").values_list("name", "slug")
    return list(factions), list(keywords)
