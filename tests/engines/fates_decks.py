"""Legal decks of Conquest of Fates and Fate Foretold built from each game's sample set
(fixtures/<game>/sample.json), as plain DeckCards: what the goldfish tests and the
benchmark play."""

import json
from pathlib import Path

from engines.rules import DeckCard

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _sample(game: str) -> list[dict]:
    return json.loads((FIXTURES / game / "sample.json").read_text())["cards"]


def _deck_card(raw: dict, zone: str) -> DeckCard:
    return DeckCard(
        key=raw["name"],
        name=raw["name"],
        card_type=raw["type"],
        zone=zone,
        quantity=1,
        factions=tuple(raw.get("factions", ())),
        keywords=tuple(raw.get("keywords", ())),
        stats=raw.get("stats", {}),
        text=raw.get("text", ""),
    )


FATES_FACTION = "Verdant Choir of Ossara"


def fates_sample_deck() -> list[DeckCard]:
    """The sample faction's units but its second Apex (25, one of them Apex) and its first
    Celestial: legal in Standard (at most one Celestial, one Apex unit)."""
    raws = [c for c in _sample("conquest-of-fates") if c["factions"] == [FATES_FACTION]]
    apex = [c["name"] for c in raws if "Apex" in c["keywords"]]
    units = [
        _deck_card(c, "main") for c in raws if c["type"] == "Unit" and c["name"] not in apex[1:]
    ]
    celestial = next(_deck_card(c, "main") for c in raws if c["type"] == "Celestial")
    return [*units, celestial]


def fate_sample_deck() -> list[DeckCard]:
    """The sample set's 64 Nest cards (16 of each suit) and its six Sigils outside the Nest:
    legal in both formats."""
    raws = _sample("fate-foretold")
    nest = [_deck_card(c, "nest") for c in raws if c["type"] == "Nest Card"]
    sigils = [_deck_card(c, "sigils") for c in raws if c["type"] == "Sigil"]
    return [*nest, *sigils]
