"""Which image sheets a deck's Tabletop Simulator save needs, and where each card sits on
them: worked out from the deck's entries and its cards' face versions, drawing nothing.

Each zone gets its own sheets, so that a zone's deck object in TTS names only its own sheets.
A sheet holds each distinct card once, row by row, at most MAX_COLUMNS x MAX_ROWS (TTS's
largest deck sheet); copies share their card's place. Landscape cards (the engine's
`face.landscape_types`) go on landscape sheets of their own. A sheet's digest hashes what is
drawn on it, so an unchanged sheet keeps its URL and TTS, which caches images by URL, fetches
only the sheets that changed.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from cardsite.catalogue.faces import face_version
from cardsite.catalogue.models import Card
from decks.exports.images import image_digest
from decks.models import Deck, DeckEntry

# Bump whenever the sheet's drawing changes (filter, quality, layout), so every digest changes.
SHEET_FORMAT = 1
# 400 px a card's width (the issue asks for at least 400), the faces' own 5:7 exactly: a full
# 10 x 7 portrait sheet is 4000 x 3920 px, inside TTS's 4096 px texture limit and under the
# 16 megapixels the site lets Pillow decode (catalogue/art.py), which 408 x 571 cells pass.
PORTRAIT_CELL = (400, 560)
LANDSCAPE_CELL = (560, 400)
# TTS takes at most 10 cards across and 7 down; 7 landscape cells are 3920 px wide.
MAX_COLUMNS = {False: 10, True: 7}
MAX_ROWS = 7
MAX_SHEET_SIDE = 4096
DIGEST = re.compile(r"[0-9a-f]{20}")


@dataclass(frozen=True)
class Sheet:
    key: int  # its key in the save's CustomDeck, 1..n across the whole save
    landscape: bool
    cards: tuple[Card, ...]  # each distinct card once, in grid order (row by row)
    inputs: str  # everything drawn on it; hashes to `digest`
    digest: str

    @property
    def cell(self) -> tuple[int, int]:
        return LANDSCAPE_CELL if self.landscape else PORTRAIT_CELL

    @property
    def columns(self) -> int:
        return min(MAX_COLUMNS[self.landscape], len(self.cards))

    @property
    def rows(self) -> int:
        return math.ceil(len(self.cards) / self.columns)

    @property
    def size(self) -> tuple[int, int]:
        return self.cell[0] * self.columns, self.cell[1] * self.rows


@dataclass(frozen=True)
class Copy:
    """One copy of a card in a zone, as TTS sees it."""

    card: Card
    sheet: Sheet
    card_id: int  # sheet.key * 100 + the card's place on the sheet

    @property
    def sideways(self) -> bool:
        return self.sheet.landscape


@dataclass(frozen=True)
class ZonePlan:
    slug: str
    name: str
    copies: tuple[Copy, ...]  # in deck order
    sheets: tuple[Sheet, ...]


@dataclass(frozen=True)
class TtsPlan:
    zones: tuple[ZonePlan, ...]  # the engine's zone order; empty zones left out

    @property
    def sheets(self) -> tuple[Sheet, ...]:
        return tuple(sheet for zone in self.zones for sheet in zone.sheets)

    def sheet(self, digest: str) -> Sheet | None:
        return next((s for s in self.sheets if s.digest == digest), None)


def sheet_capacity(landscape: bool) -> int:
    return MAX_COLUMNS[landscape] * MAX_ROWS


def tts_plan(deck: Deck) -> TtsPlan:
    """The deck's zones and sheets: four queries, whatever the deck (planned cards are not
    part of the deck and are left out)."""
    entries = list(
        DeckEntry.objects.filter(deck=deck)
        .select_related("card__game", "card__card_type", "card__card_set", "card__rarity")
        .prefetch_related("card__subtypes", "card__factions", "card__keywords")
    )
    # The deck's order, as every export has it (decks/exports/text.py): zone, then card name.
    entries.sort(key=lambda e: (e.zone, e.card.name))
    engine = deck.game.engine
    landscape_types = set(engine.face.landscape_types)
    order = {zone.slug: index for index, zone in enumerate(engine.zones)}
    names = {zone.slug: zone.name for zone in engine.zones}
    zone_slugs = sorted({e.zone for e in entries}, key=lambda z: (order.get(z, len(order)), z))
    zones: list[ZonePlan] = []
    next_key = 1
    for slug in zone_slugs:
        mine = [e for e in entries if e.zone == slug]
        distinct = list({e.card.pk: e.card for e in mine}.values())
        places: dict[int, tuple[Sheet, int]] = {}
        sheets: list[Sheet] = []
        for landscape in (False, True):
            turned = [c for c in distinct if _landscape(c, landscape_types) == landscape]
            size = sheet_capacity(landscape)
            for start in range(0, len(turned), size):
                sheet = _sheet(next_key, landscape, turned[start : start + size])
                next_key += 1
                sheets.append(sheet)
                places.update({card.pk: (sheet, i) for i, card in enumerate(sheet.cards)})
        copies = tuple(_copy(e.card, *places[e.card.pk]) for e in mine for _ in range(e.quantity))
        zones.append(ZonePlan(slug, names.get(slug, slug), copies, tuple(sheets)))
    return TtsPlan(tuple(zones))


def _copy(card: Card, sheet: Sheet, place: int) -> Copy:
    return Copy(card, sheet, sheet.key * 100 + place)


def _landscape(card: Card, landscape_types: set[str]) -> bool:
    return card.card_type is not None and card.card_type.name in landscape_types


def _sheet(key: int, landscape: bool, cards: list[Card]) -> Sheet:
    cell = LANDSCAPE_CELL if landscape else PORTRAIT_CELL
    inputs = json.dumps(
        [SHEET_FORMAT, cell, MAX_COLUMNS[landscape], [[c.short_id, face_version(c)] for c in cards]]
    )
    return Sheet(key, landscape, tuple(cards), inputs, image_digest(inputs))
