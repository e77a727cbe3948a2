"""A saved deck as a Cockatrice deck file (`.cod`, `cockatrice_deck`), and a `.cod` read back.

Cockatrice deals a deck's `main` zone as its library and keeps `side` as its sideboard. Every
zone of the deck goes into `main` (a game's other zones, its targets or sigils, are set aside
from it by hand at the table; on import each card goes back to the zone its type belongs in);
the deck's planned cards are its `side`. Each card is named as the game's Cockatrice card
database names it (cardsite.catalogue.cockatrice.unique_names), so every name in the file is
one card of that database.
"""

from __future__ import annotations

from collections import defaultdict
from xml.etree import ElementTree as ET

from cardsite.catalogue.cockatrice import Printing, unique_names
from cardsite.catalogue.models import Card
from decks.models import Deck
from decks.services import ResolvedDeck, intake_deck, resolve

MAIN = "main"
SIDE = "side"
# What Cockatrice itself writes as a deck file's version.
COD_VERSION = "1"


def _names(deck: Deck, card_ids: set[int]) -> dict[int, str]:
    """The database names of `card_ids`, by the game-wide rule: one query, over the cards of
    the game that share a name with one of them."""
    shared = Card.objects.filter(
        game=deck.game, name__in=Card.objects.filter(id__in=card_ids).values("name")
    )
    rows = shared.values_list("id", "name", "card_set__code", "number")
    return unique_names(Printing(*row) for row in rows)


def deck_cod(deck: Deck, resolved: ResolvedDeck | None = None, *, source_url: str = "") -> bytes:
    """`deck` as a Cockatrice `.cod` file, UTF-8 XML."""
    resolved = resolved or resolve(game=deck.game.slug, intake=intake_deck(deck))
    zones: dict[str, dict[int, int]] = defaultdict(dict)
    for entry in resolved.entries:
        main = zones[MAIN]
        main[entry.card.pk] = main.get(entry.card.pk, 0) + entry.quantity
    for card_id, quantity in deck.maybe.values_list("card_id", "quantity"):
        zones[SIDE][card_id] = zones[SIDE].get(card_id, 0) + quantity
    names = _names(deck, {pk for zone in zones.values() for pk in zone})
    root = ET.Element("cockatrice_deck", {"version": COD_VERSION})
    ET.SubElement(root, "deckname").text = deck.name
    fmt = deck.game.engine.format(deck.format)
    about = f"{deck.game.name} · {fmt.name if fmt else deck.format}"
    about += f"\nFrom {source_url}" if source_url else ""
    ET.SubElement(root, "comments").text = (
        f"{deck.description}\n\n{about}" if deck.description else about
    )
    for zone in (MAIN, SIDE):
        if not zones.get(zone):
            continue
        element = ET.SubElement(root, "zone", {"name": zone})
        for pk, quantity in sorted(zones[zone].items(), key=lambda item: names[item[0]]):
            ET.SubElement(element, "card", {"number": str(quantity), "name": names[pk]})
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
