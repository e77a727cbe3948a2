"""A Cockatrice deck file (`.cod`: `<cockatrice_deck>` XML) read as zones of named cards.

The XML is read by the standard library's parser (lxml and defusedxml are no dependencies of
the site), after refusing any document type declaration: a .cod has none, and without one no
entity can be declared, so none is expanded ("billion laughs") and no external file or URL is
named, let alone loaded (ElementTree fetches nothing in any case). It is read only up to
MAX_COD_BYTES, and its cards up to MAX_COD_CARDS, before a card is looked up.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree import ElementTree as ET

# A .cod of a 500-entry deck (the most a deck holds) with long names is about 60 KB.
MAX_COD_BYTES = 256 * 1024
MAX_COD_CARDS = 1000
# A card's quantity in a .cod, at most: as a decklist line's (decklist.MAX_QUANTITY).
MAX_COD_QUANTITY = 99
ROOT = "cockatrice_deck"


class CodError(ValueError):
    pass


@dataclass(frozen=True)
class CodCard:
    zone: str
    quantity: int
    name: str


def looks_like_cod(text: str) -> bool:
    """Whether a paste is a Cockatrice deck file rather than decklist text."""
    head = text.lstrip("\ufeff \t\r\n")[:200]
    return head.startswith("<?xml") or head.startswith(f"<{ROOT}")


def cod_bytes(data: bytes) -> str:
    """An uploaded .cod's text, within MAX_COD_BYTES; CodError past it or if not UTF-8."""
    if len(data) > MAX_COD_BYTES:
        raise CodError(f"a Cockatrice deck file is at most {MAX_COD_BYTES // 1024} KB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CodError(f"the file is not UTF-8 text (byte {exc.start:,})") from None


def parse_cod(text: str) -> tuple[str, list[CodCard]]:
    """The deck's name and its cards, zone by zone, in the file's order."""
    data = text.lstrip("\ufeff").encode("utf-8")
    if len(data) > MAX_COD_BYTES:
        raise CodError(f"a Cockatrice deck file is at most {MAX_COD_BYTES // 1024} KB")
    if b"<!" in data.replace(b"<![CDATA[", b"").replace(b"<!--", b""):
        raise CodError("it has a document type or entity declaration, which a deck file has not")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise CodError(f"it is not well-formed XML ({exc})") from None
    if root.tag != ROOT:
        raise CodError(f"its root element is <{root.tag}>, not <{ROOT}>")
    cards: list[CodCard] = []
    for zone in root.iterfind("zone"):
        zone_name = (zone.get("name") or "").strip().lower()
        for card in zone.iterfind("card"):
            if len(cards) >= MAX_COD_CARDS:
                raise CodError(f"a Cockatrice deck file holds at most {MAX_COD_CARDS:,} cards")
            cards.append(CodCard(zone_name, _quantity(card.get("number")), _name(card)))
    return (root.findtext("deckname") or "").strip(), cards


def _quantity(value: str | None) -> int:
    raw = (value or "1").strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 3:
        raise CodError(f"a card's number is {raw[:10]!r}, not a whole number")
    quantity = int(raw)
    if not 1 <= quantity <= MAX_COD_QUANTITY:
        raise CodError(f"a card's number is {quantity}; it must be 1 to {MAX_COD_QUANTITY}")
    return quantity


def _name(card: ET.Element) -> str:
    name = " ".join((card.get("name") or "").split())
    if not name or len(name) > 200:
        raise CodError("each card has a name of 1 to 200 characters")
    return name
