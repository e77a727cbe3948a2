"""Proxy sheets for decks and card lists: catalogue data turned into decks.proxies' values."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from django.conf import settings

from cardsite.catalogue.models import Card
from decks.models import Deck
from decks.proxies import ProxyCard, Sheet, SheetOptions, expand, render_sheet


def proxy_card(card: Card) -> ProxyCard:
    subtypes = ", ".join(s.name for s in card.subtypes.all())
    factions = [f for f in card.factions.all()]
    type_line = card.card_type.name + (f" — {subtypes}" if subtypes else "")
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
        art=Path(card.art.path) if card.art else None,
    )


def _cards(ids: Iterable[int]) -> dict[int, Card]:
    return (
        Card.objects.select_related("card_type", "card_set", "game")
        .prefetch_related("factions", "keywords", "subtypes")
        .in_bulk(list(ids))
    )


def deck_sheet(deck: Deck, options: SheetOptions) -> bytes:
    entries = list(deck.entries.order_by("zone", "card__name"))
    cards = _cards(e.card_id for e in entries)
    proxies = expand((proxy_card(cards[e.card_id]), e.quantity) for e in entries)
    return render_sheet(
        Sheet(
            deck.name, deck.game.name, settings.SITE_URL + deck.get_absolute_url(), proxies, options
        )
    )


def list_sheet(
    title: str, game_name: str, entries: list[tuple[Card, int]], options: SheetOptions
) -> bytes:
    cards = _cards(card.id for card, _ in entries)
    proxies = expand((proxy_card(cards[card.id]), quantity) for card, quantity in entries)
    return render_sheet(Sheet(title, game_name, settings.SITE_URL + "/", proxies, options))
