"""The builder's card pool, read: one page of the deck's game's cards matching a query, with
what each card shows beside it, in a number of queries that does not grow with the page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator

from cardsite.catalogue.models import Card, Faction, Game, Keyword
from cardsite.catalogue.search.dropped import Dropped
from cardsite.catalogue.selectors import card_search_ids, listed_cards
from decks.models import Deck


@dataclass(frozen=True)
class PoolPage:
    page: Page[Any]
    cards: list[Card]
    warnings: list[Dropped]


def pool_page(*, deck: Deck, q: str, page: int, per_page: int, viewer: Any) -> PoolPage:
    """Page `page` (the last one, past it) of the cards of the deck's game that `q` matches
    (every card of the game for an empty `q`), in the query's order. Raises
    QuerySyntaxError as card_search."""
    found = card_search_ids(text=q, game=deck.game.slug, viewer=viewer)
    paginator = Paginator(found.ids, per_page)
    shown = paginator.page(min(page, paginator.num_pages))
    return PoolPage(shown, listed_cards(shown.object_list), found.warnings)


def game_classifications(*, game: Game) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The game's factions and keywords, each as (name, slug), by name: the pool's chips."""
    factions = Faction.objects.filter(game=game).order_by("name").values_list("name", "slug")
    keywords = Keyword.objects.filter(game=game).order_by("name").values_list("name", "slug")
    return list(factions), list(keywords)
