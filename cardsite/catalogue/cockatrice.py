"""A game's cards as a Cockatrice card database (`cockatrice_carddatabase` version 4), the
file Cockatrice loads from its custom sets folder.

Cockatrice finds a card by its name alone, so every name in one database is unique. A name
held by one card of the game is written as it is; a name several cards of the game share (a
reprint, a card in two factions' decks) is written, for each of them, with its printing the
way a decklist line gives one: `Name (SET) number`. A `.cod` deck names its cards the same
way (`unique_names`), and its import reads such a name back as that printing.

The database carries no licence of Cockatrice's: it is written from what Cockatrice's reader
takes (its `cards.xsd`, elements in the order its sequence requires), nothing copied from it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from django.db.models import QuerySet

from cardsite.catalogue.models import Card, CardSet, Game

VERSION = "4"
UNOFFICIAL = " (unofficial sample)"
# A prop's element name: what XML allows in a name, from a stat key like "combat_power".
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.-]")


@dataclass(frozen=True)
class Printing:
    id: int
    name: str
    set_code: str
    number: str


def unique_names(printings: Iterable[Printing]) -> dict[int, str]:
    """Each printing's name in a Cockatrice database of `printings` (every card of a game):
    its own name when no other card has it, else `Name (SET) number`."""
    listed = list(printings)
    counts = Counter(p.name for p in listed)
    return {
        p.id: p.name if counts[p.name] == 1 else f"{p.name} ({p.set_code}) {p.number}"
        for p in listed
    }


def game_named(slug: str) -> Game | None:
    """The game alone, in one query (the game page's selector reads its sets, factions and
    glossary too, none of which the database needs)."""
    return Game.objects.filter(slug=slug).first()


def game_printings(game: Game) -> list[Printing]:
    """Every card of `game` as the naming rule needs it, in one query of plain values."""
    rows = Card.objects.filter(game=game).values_list("id", "name", "card_set__code", "number")
    return [Printing(*row) for row in rows]


def database_cards(game: Game) -> QuerySet[Card]:
    """The game's cards with everything the database says of them: one query for the cards,
    their sets, types and rarities, and one for each of factions and subtypes."""
    return (
        Card.objects.filter(game=game)
        .select_related("card_set", "card_type", "rarity")
        .prefetch_related("factions", "subtypes")
        .order_by("card_set__code", "number_sort", "number", "id")
    )


def _prop_name(key: str) -> str:
    name = _NOT_NAME.sub("_", key)
    return name if name[:1].isalpha() or name[:1] == "_" else f"_{name}"


def _text(parent: ET.Element, tag: str, value: str) -> ET.Element:
    element = ET.SubElement(parent, tag)
    element.text = value
    return element


def _set(parent: ET.Element, card_set: CardSet) -> None:
    element = ET.SubElement(parent, "set")
    _text(element, "name", card_set.code)
    official = card_set.is_official
    # A sample set's own name may say so already ("Unofficial sample set").
    plain = official or "unofficial" in card_set.name.lower()
    _text(element, "longname", card_set.name + ("" if plain else UNOFFICIAL))
    _text(element, "settype", "Official" if official else "Unofficial sample")
    if card_set.release_date:
        _text(element, "releasedate", card_set.release_date.isoformat())


def _card(
    parent: ET.Element, card: Card, name: str, picurl: str, landscape: frozenset[str]
) -> None:
    element = ET.SubElement(parent, "card")
    # The order cards.xsd's sequence requires: name, text, prop, set, then the flags.
    _text(element, "name", name)
    _text(element, "text", card.rules_text)
    prop = ET.SubElement(element, "prop")
    type_name = card.card_type.name if card.card_type else ""
    subtypes = ", ".join(s.name for s in card.subtypes.all())
    _text(prop, "type", f"{type_name} — {subtypes}" if type_name and subtypes else type_name)
    _text(prop, "maintype", type_name)
    _text(prop, "subtypes", subtypes)
    _text(prop, "factions", ", ".join(sorted(f.name for f in card.factions.all())))
    for key, value in (card.stats or {}).items():
        _text(prop, _prop_name(key), "" if value is None else str(value))
    if card.is_sample:
        _text(prop, "unofficial", "unofficial sample card (made up, not from a rulebook)")
    printing = ET.SubElement(
        element,
        "set",
        {"picurl": picurl, "num": card.number, "uuid": card.short_id}
        | ({"rarity": card.rarity.name} if card.rarity else {}),
    )
    printing.text = card.card_set.code
    if type_name and type_name in landscape:
        _text(element, "landscapeOrientation", "1")


def card_database(*, game: Game, face_url: Callable[[str], str], source_url: str) -> bytes:
    """`game`'s catalogue as a Cockatrice card database, UTF-8 XML; `face_url` gives a card's
    absolute face image URL from its short id."""
    root = ET.Element("cockatrice_carddatabase", {"version": VERSION})
    info = ET.SubElement(root, "info")
    _text(info, "author", "cardsite")
    _text(info, "sourceUrl", source_url)
    sets = ET.SubElement(root, "sets")
    cards = list(database_cards(game))
    # Every set of a card, from the cards' own query (a set without cards is left out).
    for card_set in sorted({c.card_set_id: c.card_set for c in cards}.values(), key=_code):
        _set(sets, card_set)
    names = unique_names(Printing(c.id, c.name, c.card_set.code, c.number) for c in cards)
    landscape = frozenset(game.engine.face.landscape_types)
    listed = ET.SubElement(root, "cards")
    for card in cards:
        _card(listed, card, names[card.id], face_url(card.short_id), landscape)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _code(card_set: CardSet) -> str:
    return card_set.code
