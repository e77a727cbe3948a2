"""What a deck list shows of each deck's cards: how many it holds, and the few that stand for it
(its strip of thumbnails), for a whole page of decks in one query.

Only the entries of the decks given are read, so a thumbnail is always of a card in a deck its
reader may already see listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from decks.models import Deck, DeckEntry

# Enough to recognise a deck by, few enough to fit a phone's width beside nothing else.
KEY_CARDS = 4


@dataclass(frozen=True)
class KeyCard:
    short_id: str
    name: str
    quantity: int
    # Its face lies on its side (the game's engine says which types do).
    landscape: bool


@dataclass(frozen=True)
class DeckCards:
    count: int
    key: tuple[KeyCard, ...] = ()


@dataclass
class _Tally:
    name: str
    type_name: str
    quantity: int
    # The earliest of its zones in the game's declared order: the deck proper comes first.
    zone: int


def deck_cards(*, decks: Sequence[Deck]) -> dict[int, DeckCards]:
    """Each deck's card count (copies, every zone) and its key cards, by deck id: the cards
    with the most copies, ties going to the game's first zone, then by name. The decks need
    their game loaded (decks_listed does). One query, however many decks."""
    if not decks:
        return {}
    by_id = {deck.pk: deck for deck in decks}
    tallies: dict[int, dict[str, _Tally]] = {pk: {} for pk in by_id}
    rows = DeckEntry.objects.filter(deck_id__in=list(by_id)).values_list(
        "deck_id", "card__short_id", "card__name", "card__card_type__name", "quantity", "zone"
    )
    zone_orders = {
        deck.pk: {z.slug: i for i, z in enumerate(deck.game.engine.zones)} for deck in decks
    }
    for deck_id, short_id, name, type_name, quantity, zone in rows:
        order = zone_orders[deck_id].get(zone, len(zone_orders[deck_id]))
        tally = tallies[deck_id].get(short_id)
        if tally is None:
            tallies[deck_id][short_id] = _Tally(name, type_name or "", quantity, order)
        else:
            tally.quantity += quantity
            tally.zone = min(tally.zone, order)
    found = {}
    for pk, cards in tallies.items():
        landscape = by_id[pk].game.engine.face.landscape_types
        ranked = sorted(cards.items(), key=lambda c: (-c[1].quantity, c[1].zone, c[1].name, c[0]))
        found[pk] = DeckCards(
            count=sum(t.quantity for t in cards.values()),
            key=tuple(
                KeyCard(short_id, t.name, t.quantity, t.type_name in landscape)
                for short_id, t in ranked[:KEY_CARDS]
            ),
        )
    return found
