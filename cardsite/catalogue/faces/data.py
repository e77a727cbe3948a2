"""What a face shows, as plain values: the single source of both the drawing and its version."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from cardsite.seo import absolute
from engines import get_engine
from engines.base import GameEngine

if TYPE_CHECKING:
    from cardsite.catalogue.models import Card

# Bump whenever the drawing changes, so that every cached face is drawn again.
FACE_FORMAT = 1


@dataclass(frozen=True)
class FactionMark:
    name: str
    abbreviation: str
    colour: str


@dataclass(frozen=True)
class KeywordMark:
    name: str
    kind: str
    abbreviation: str


@dataclass(frozen=True)
class FaceData:
    short_id: str
    url: str
    game_slug: str
    game_name: str
    name: str
    type_name: str | None  # None where the source does not state the type
    subtypes: tuple[str, ...]
    factions: tuple[FactionMark, ...]
    keywords: tuple[KeywordMark, ...]
    rarity: str
    rules_text: str
    flavour_text: str
    artist: str
    art: str
    stats: dict[str, object] = field(hash=False)
    set_code: str
    number: str
    is_sample: bool


def face_data(card: Card) -> FaceData:
    return FaceData(
        short_id=card.short_id,
        url=absolute(card.get_short_url()),
        game_slug=card.game.slug,
        game_name=card.game.name,
        name=card.name,
        type_name=card.card_type.name if card.card_type else None,
        subtypes=tuple(sorted(s.name for s in card.subtypes.all())),
        factions=tuple(
            FactionMark(f.name, f.abbreviation, f.colour)
            for f in sorted(card.factions.all(), key=lambda f: f.name)
        ),
        keywords=tuple(
            KeywordMark(k.name, k.kind, k.abbreviation)
            for k in sorted(card.keywords.all(), key=lambda k: k.name)
        ),
        rarity=card.rarity.name if card.rarity else "",
        rules_text=card.rules_text.strip(),
        flavour_text=card.flavour_text.strip(),
        artist=card.artist.strip(),
        art=card.art.name or "",
        stats=dict(card.stats) if isinstance(card.stats, dict) else {},
        set_code=card.card_set.code,
        number=card.number,
        is_sample=card.is_sample,
    )


def _version(data: FaceData, engine: GameEngine) -> str:
    payload = {"format": FACE_FORMAT, "layout": repr(engine.face), "card": asdict(data)}
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def face_version(card: Card) -> str:
    """Changes whenever anything drawn on the card's face changes."""
    return _version(face_data(card), get_engine(card.game.slug))
