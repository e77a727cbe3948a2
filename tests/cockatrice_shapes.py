"""What Cockatrice's own schemas require of its files, held without them (their licence is not
ours): doc/carddatabase_v4/cards.xsd for a card database and doc/deck.xsd for a deck (`.cod`),
as read from Cockatrice's public repository. Each check names the element or attribute it
found wrong, so a failure says what Cockatrice would refuse."""

from __future__ import annotations

import re
from urllib.parse import urlparse
from xml.etree import ElementTree as ET

# xs:boolean's lexical forms, and xs:integer's and xs:int's.
BOOLEANS = {"true", "false", "1", "0"}
INTEGER = re.compile(r"^[+-]?\d+$")
INT_RANGE = range(-(2**31), 2**31)

# cards.xsd: the database's sequence, each optional, in this order.
DATABASE_CHILDREN = ("info", "sets", "cards")
INFO_CHILDREN = {"author", "createdAt", "sourceUrl", "sourceVersion"}
# setType is an xs:all: any order, `name` once, the others at most once.
SET_CHILDREN = {"name", "longname", "settype", "releasedate", "priority"}
# cardType's sequence as a pattern over one letter per element: name, text?, prop?, set+,
# (related | reverse-related)*, token?, tablerow?, cipt?, upsidedown?, landscapeOrientation?.
CARD_LETTERS = {
    "name": "n",
    "text": "t",
    "prop": "p",
    "set": "s",
    "related": "r",
    "reverse-related": "r",
    "token": "k",
    "tablerow": "w",
    "cipt": "c",
    "upsidedown": "u",
    "landscapeOrientation": "l",
}
CARD_SEQUENCE = re.compile(r"^nt?p?s+r*k?w?c?u?l?$")
CARD_SET_ATTRIBUTES = {
    "muid": str,
    "uuid": str,
    "picurl": "uri",
    "picURL": "uri",
    "num": str,
    "rarity": str,
    "isOnlineOnly": "boolean",
    "isRebalanced": "boolean",
    "flavorName": str,
}
CARD_BOOLEANS = {"token", "cipt", "upsidedown", "landscapeOrientation"}

# deck.xsd: deckname, comments (both required, in this order), then zones of cards.
DECK_CHILDREN = re.compile(r"^dcz*$")
DECK_CARD_ATTRIBUTES = {"number", "price", "name"}


def _no_text_children(element: ET.Element) -> None:
    """An element of simple content (a string) holds no child elements."""
    assert len(element) == 0, f"<{element.tag}> holds elements: {[c.tag for c in element]}"


def check_card_database(root: ET.Element) -> None:
    assert root.tag == "cockatrice_carddatabase"
    assert set(root.attrib) <= {"version"}
    # version is xs:integer, fixed="4".
    assert root.get("version") == "4"
    tags = [child.tag for child in root]
    assert all(tag in DATABASE_CHILDREN for tag in tags), tags
    assert tags == sorted(tags, key=DATABASE_CHILDREN.index), f"out of order: {tags}"
    assert len(tags) == len(set(tags)), f"an element twice: {tags}"
    for info in root.iterfind("info"):
        children = [c.tag for c in info]
        assert set(children) <= INFO_CHILDREN and len(children) == len(set(children)), children
        for child in info:
            _no_text_children(child)
    for sets in root.iterfind("sets"):
        for card_set in sets:
            check_set(card_set)
    for cards in root.iterfind("cards"):
        for card in cards:
            check_card(card)


def check_set(card_set: ET.Element) -> None:
    assert card_set.tag == "set"
    children = [c.tag for c in card_set]
    assert set(children) <= SET_CHILDREN, children
    assert len(children) == len(set(children)), f"an element twice in a set: {children}"
    assert children.count("name") == 1
    for child in card_set:
        _no_text_children(child)
    priority = card_set.findtext("priority")
    assert priority is None or INTEGER.match(priority), f"priority {priority!r}"


def check_card(card: ET.Element) -> None:
    assert card.tag == "card"
    assert not card.attrib, card.attrib
    tags = [c.tag for c in card]
    assert all(tag in CARD_LETTERS for tag in tags), f"unknown element in a card: {tags}"
    letters = "".join(CARD_LETTERS[tag] for tag in tags)
    assert CARD_SEQUENCE.match(letters), f"a card's elements out of cards.xsd's order: {tags}"
    for child in card:
        if child.tag == "prop":
            # Any elements, unchecked (processContents="skip"), but elements.
            assert all(isinstance(c.tag, str) for c in child)
            continue
        _no_text_children(child)
        if child.tag == "set":
            check_card_set_attributes(child)
        elif child.tag == "tablerow":
            assert INTEGER.match(child.text or ""), f"tablerow {child.text!r}"
        elif child.tag in CARD_BOOLEANS:
            assert (child.text or "").strip() in BOOLEANS, f"{child.tag} {child.text!r}"


def check_card_set_attributes(printing: ET.Element) -> None:
    for name, value in printing.attrib.items():
        assert name in CARD_SET_ATTRIBUTES, f"unknown attribute {name!r} of a card's set"
        kind = CARD_SET_ATTRIBUTES[name]
        if kind == "boolean":
            assert value in BOOLEANS, f"{name}={value!r}"
        elif kind == "uri":
            assert " " not in value and urlparse(value).scheme, f"{name}={value!r}"


def check_deck(root: ET.Element) -> None:
    assert root.tag == "cockatrice_deck"
    assert set(root.attrib) <= {"version"}
    version = root.get("version")
    assert version is None or (INTEGER.match(version) and int(version) in INT_RANGE)
    letters = "".join({"deckname": "d", "comments": "c", "zone": "z"}.get(c.tag, "?") for c in root)
    assert DECK_CHILDREN.match(letters), f"out of deck.xsd's order: {[c.tag for c in root]}"
    _no_text_children(root[0])
    _no_text_children(root[1])
    for zone in root.iterfind("zone"):
        assert set(zone.attrib) <= {"name"}, zone.attrib
        for card in zone:
            assert card.tag == "card", card.tag
            _no_text_children(card)
            assert set(card.attrib) <= DECK_CARD_ATTRIBUTES, card.attrib
            number = card.get("number")
            assert number is not None and INTEGER.match(number), f"number={number!r}"
            assert int(number) in INT_RANGE
            price = card.get("price")
            assert price is None or re.match(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$", price)


def deck_names(root: ET.Element) -> list[str]:
    return [card.get("name", "") for zone in root.iterfind("zone") for card in zone]


def database_names(root: ET.Element) -> list[str]:
    return [card.findtext("name", "") for card in root.iterfind("cards/card")]
