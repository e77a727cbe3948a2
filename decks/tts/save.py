"""A deck as a Tabletop Simulator saved object: the JSON file that goes in TTS's
"Saved Objects" folder.

Each zone of the deck is one deck object (`DeckCustom`) named after the zone, or a single
`Card` named after its card when the zone holds one card (the zone then opens its
description); they lie face down side by side. Every card names its sheet in `CustomDeck`
(FaceURL: the sheet of faces; BackURL: the game's proxy back, the site's own design) and its
place there in `CardID` (the sheet's key x 100 + its place, row by row). Every URL is
absolute under SITE_URL; a private deck's sheets are signed links (decks/tts/links.py).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.urls import reverse

from cardsite.catalogue.faces.back import back_version
from cardsite.catalogue.models import Card
from cardsite.seo import absolute
from decks.models import Deck
from decks.tts.links import signed
from decks.tts.plan import Copy, Sheet, TtsPlan, ZonePlan

# Apart on the table, in TTS units (a card is about 2.2 wide, a landscape one 3.1).
STEP_X = 3.5
# Face down: TTS shows a deck lying on its back when rolled 180 degrees about z.
FACE_DOWN = {"rotX": 0.0, "rotY": 180.0, "rotZ": 180.0}
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


def tts_file_path(deck: Deck, now: datetime) -> str:
    """The save's download on the site (relative), signed for a private deck."""
    path = reverse("decks:tts-file", args=[deck.share_key])
    return signed(path, deck.share_key, now) if _private(deck) else path


def sheet_url(deck: Deck, sheet: Sheet, now: datetime) -> str:
    path = absolute(reverse("decks:tts-sheet", args=[deck.share_key, sheet.digest]))
    return signed(path, deck.share_key, now) if _private(deck) else path


def back_url(deck: Deck, landscape: bool) -> str:
    """The game's back; its version in the URL, so TTS fetches a changed back again."""
    engine = deck.game.engine
    path = reverse("catalogue:game-back", args=[engine.slug])
    query = f"?v={back_version(engine, landscape=landscape)}"
    return absolute(path + query + ("&landscape=1" if landscape else ""))


def _private(deck: Deck) -> bool:
    return deck.visibility == Deck.Visibility.PRIVATE


def tts_save(*, deck: Deck, plan: TtsPlan, now: datetime) -> dict[str, Any]:
    engine = deck.game.engine
    fmt = engine.format(deck.format)
    about = f"{deck.name}\n{engine.name} · {fmt.name if fmt else deck.format}"
    guids = _Guids(deck.share_key)
    custom = {
        sheet.key: _custom_deck(deck, sheet, now) for zone in plan.zones for sheet in zone.sheets
    }
    objects = [
        _zone_object(zone, index, about, custom, guids) for index, zone in enumerate(plan.zones)
    ]
    return {
        "SaveName": deck.name,
        "Date": deck.updated_at.strftime("%m/%d/%Y %I:%M:%S %p"),
        "VersionNumber": "",
        "GameMode": engine.name,
        "Table": "",
        "Sky": "",
        "Note": (
            f"{about}\nFrom {absolute(deck.get_absolute_url())}\n"
            "Card backs are cardsite's proxy back, not the publisher's."
        ),
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
    }


def _custom_deck(deck: Deck, sheet: Sheet, now: datetime) -> dict[str, Any]:
    return {
        "FaceURL": sheet_url(deck, sheet, now),
        "BackURL": back_url(deck, sheet.landscape),
        "NumWidth": sheet.columns,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": False,
        "Type": 0,
    }


def _zone_object(
    zone: ZonePlan,
    index: int,
    about: str,
    custom: dict[int, dict[str, Any]],
    guids: _Guids,
) -> dict[str, Any]:
    transform = _transform(index * STEP_X)
    if len(zone.copies) == 1:
        card = _card(zone.copies[0], custom, guids, transform)
        # Named after the card, as deck converters name a lone card (TTS shows the name on
        # the table and in its tooltip); the zone it stands for opens its description.
        described = f"Zone: {zone.name}\n{card['Description']}\n\n{about}"
        return {**card, "Description": described}
    keys = sorted({copy.sheet.key for copy in zone.copies})
    return {
        **_common(guids, transform),
        "Name": "DeckCustom",
        "Nickname": zone.name,
        "Description": about,
        "Hands": False,
        "SidewaysCard": all(copy.sideways for copy in zone.copies),
        "DeckIDs": [copy.card_id for copy in zone.copies],
        "CustomDeck": {str(key): custom[key] for key in keys},
        "ContainedObjects": [_card(copy, custom, guids, _transform(0.0)) for copy in zone.copies],
    }


def _card(
    copy: Copy, custom: dict[int, dict[str, Any]], guids: _Guids, transform: dict[str, float]
) -> dict[str, Any]:
    return {
        **_common(guids, transform),
        "Name": "Card",
        "Nickname": copy.card.name,
        "Description": card_description(copy.card),
        "Hands": True,
        "CardID": copy.card_id,
        "SidewaysCard": copy.sideways,
        "CustomDeck": {str(copy.sheet.key): custom[copy.sheet.key]},
    }


def card_description(card: Card) -> str:
    """The card's type line and rules text, as its tooltip in TTS."""
    line = card.card_type.name if card.card_type else "type not given"
    subtypes = ", ".join(sorted(s.name for s in card.subtypes.all()))
    if subtypes:
        line += f" — {subtypes}"
    factions = " / ".join(sorted(f.name for f in card.factions.all()))
    if factions:
        line += f" · {factions}"
    text = card.rules_text.strip()
    return f"{line}\n{text}" if text else line


def _common(guids: _Guids, transform: dict[str, float]) -> dict[str, Any]:
    return {
        "GUID": guids.next(),
        "Transform": transform,
        "GMNotes": "",
        "ColorDiffuse": GREY,
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "IgnoreFoW": False,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": True,
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
    }


def _transform(x: float) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        **FACE_DOWN,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


class _Guids:
    """Six hex digits for each object, the same for the same deck every time, never repeated
    within one save (TTS tells objects apart by them)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.count = 0
        self.used: set[str] = set()

    def next(self) -> str:
        while True:
            self.count += 1
            guid = hashlib.sha256(f"{self.seed}:{self.count}".encode()).hexdigest()[:6]
            if guid not in self.used:
                self.used.add(guid)
                return guid
