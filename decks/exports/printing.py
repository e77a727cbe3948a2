"""Proxy sheets for decks and card lists: catalogue data turned into decks.proxies' values."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from django.conf import settings
from django.urls import reverse

from cardsite.catalogue.art import print_art
from cardsite.catalogue.faces.back import back_file
from cardsite.catalogue.models import Card
from decks.models import Deck
from decks.proxies import (
    PLAIN_BACK,
    ProxyCard,
    Sheet,
    SheetOptions,
    check_sheet_size,
    expand,
    parse_options,
    render_sheet,
)
from decks.reading.selectors import saved_back_offsets
from engines import get_engine


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
    # The game's slug, for its card back. Orders queued before it was added lack it; the
    # sheet then takes it from the cards' game.
    game_slug: NotRequired[str]
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
            "game_slug": deck.game.slug,
            "url": settings.SITE_URL + deck.get_absolute_url(),
            "entries": [(card, quantity) for card, quantity in entries],
            "options": asdict(options),
        }
    )


def list_order(
    title: str,
    game_name: str,
    entries: list[tuple[int, int]],
    options: SheetOptions,
    *,
    game_slug: str | None = None,
) -> SheetOrder:
    """A sheet of (card pk, copies). Raises InputError("cards", ...) for a sheet too large.
    Without `game_slug`, the sheet takes its game's back from the cards' game."""
    order: SheetOrder = {
        "title": title,
        "game": game_name,
        "url": settings.SITE_URL + "/",
        "entries": list(entries),
        "options": asdict(options),
    }
    if game_slug:
        order["game_slug"] = game_slug
    return _checked(order)


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
    slug = order.get("game_slug") or next((c.game.slug for c in cards.values()), "")
    back, colour = _back(slug)
    return Sheet(
        order["title"],
        order["game"],
        order["url"],
        proxies,
        SheetOptions(**order["options"]),
        back_image=back,
        back_colour=colour,
        calibration_url=settings.SITE_URL + reverse("decks:calibration"),
    )


def _back(game_slug: str) -> tuple[Path | None, str]:
    """The game's card back and its field colour; none for a game no engine knows (a job
    queued before its game left the site), which then prints the sheet's plain back."""
    try:
        engine = get_engine(game_slug)
    except KeyError:
        return None, PLAIN_BACK
    return back_file(engine.slug), engine.face.back.colours[0]


def options_for(params: Mapping[str, str], *, user: Any) -> SheetOptions:
    """Sheet options from query parameters, with the back offsets `user` saved (if any) where
    the parameters do not give them. Raises InputError naming a bad option."""
    saved = saved_back_offsets(user=user)
    return parse_options(params, back_offsets=saved) if saved else parse_options(params)


def print_order(order: SheetOrder, progress: Callable[[int], None] | None = None) -> bytes:
    return render_sheet(order_sheet(order), progress)


def deck_sheet(deck: Deck, options: SheetOptions) -> bytes:
    return print_order(deck_order(deck, options))


def list_sheet(
    title: str,
    game_name: str,
    entries: list[tuple[int, int]],
    options: SheetOptions,
    *,
    game_slug: str | None = None,
) -> bytes:
    return print_order(list_order(title, game_name, entries, options, game_slug=game_slug))
