"""Proxy sheets for decks and card lists: catalogue data turned into decks.proxies' values."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypedDict

from django.conf import settings

from cardsite.catalogue.art import print_art
from cardsite.catalogue.models import Card
from decks.models import Deck
from decks.proxies import (
    ProxyCard,
    Sheet,
    SheetOptions,
    check_sheet_size,
    expand,
    render_sheet,
)


def proxy_card(card: Card) -> ProxyCard:
    subtypes = ", ".join(s.name for s in card.subtypes.all())
    factions = [f for f in card.factions.all()]
    type_name = card.card_type.name if card.card_type else "type not given"
    type_line = type_name + (f" — {subtypes}" if subtypes else "")
    if factions:
        type_line += " · " + " / ".join(f.name for f in factions)
    stats = tuple(
        ((spec.aliases[0] if spec.aliases else spec.key).upper(), str(value))
        for spec, value in card.stat_items()
    )
    return ProxyCard(
        name=card.name,
        type_line=type_line,
        colours=tuple(f.colour for f in factions),
        stats=stats,
        keywords=tuple(k.name for k in card.keywords.all()),
        text=card.rules_text,
        short_url=settings.SITE_URL + card.get_short_url(),
        set_line=f"{card.card_set.code} · No. {card.number}",
        sample=card.is_sample,
        # The small copy: decoding a full-size upload for every sheet would cost far more.
        art=print_art(Path(card.art.path)) if card.art else None,
    )


def _cards(ids: Iterable[int]) -> dict[int, Card]:
    return (
        Card.objects.select_related("card_type", "card_set", "game")
        .prefetch_related("factions", "keywords", "subtypes")
        .in_bulk(list(ids))
    )


class SheetOrder(TypedDict):
    """What to print, in plain JSON values, so that a background job can carry it."""

    title: str
    game: str
    url: str
    entries: list[tuple[int, int]]  # (card pk, copies)
    options: dict[str, Any]


def deck_order(deck: Deck, options: SheetOptions) -> SheetOrder:
    """What printing the deck takes. Raises InputError("cards", ...) for a sheet too large."""
    entries = deck.entries.order_by("zone", "card__name").values_list("card_id", "quantity")
    return _checked(
        {
            "title": deck.name,
            "game": deck.game.name,
            "url": settings.SITE_URL + deck.get_absolute_url(),
            "entries": [(card, quantity) for card, quantity in entries],
            "options": asdict(options),
        }
    )


def list_order(
    title: str, game_name: str, entries: list[tuple[int, int]], options: SheetOptions
) -> SheetOrder:
    """A sheet of (card pk, copies). Raises InputError("cards", ...) for a sheet too large."""
    return _checked(
        {
            "title": title,
            "game": game_name,
            "url": settings.SITE_URL + "/",
            "entries": list(entries),
            "options": asdict(options),
        }
    )


def order_cards(order: SheetOrder) -> int:
    return sum(quantity for _, quantity in order["entries"])


def _checked(order: SheetOrder) -> SheetOrder:
    # Every sheet, inline or a job, starts as an order: refused here, nothing is queued.
    check_sheet_size(order_cards(order))
    return order


def order_sheet(order: SheetOrder) -> Sheet:
    """The sheet to draw. Raises Card.DoesNotExist if a card has left the catalogue since
    the order was made (a queued job can outlive a card)."""
    cards = _cards(card for card, _ in order["entries"])
    missing = [card for card, _ in order["entries"] if card not in cards]
    if missing:
        raise Card.DoesNotExist(f"{len(missing)} of the cards are no longer in the catalogue")
    proxies = expand((proxy_card(cards[card]), quantity) for card, quantity in order["entries"])
    return Sheet(
        order["title"], order["game"], order["url"], proxies, SheetOptions(**order["options"])
    )


def print_order(order: SheetOrder, progress: Callable[[int], None] | None = None) -> bytes:
    return render_sheet(order_sheet(order), progress)


def deck_sheet(deck: Deck, options: SheetOptions) -> bytes:
    return print_order(deck_order(deck, options))


def list_sheet(
    title: str, game_name: str, entries: list[tuple[int, int]], options: SheetOptions
) -> bytes:
    return print_order(list_order(title, game_name, entries, options))
