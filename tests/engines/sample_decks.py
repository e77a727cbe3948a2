"""Legal decks of each game built from its sample set (fixtures/<game>/sample.json), checked by
the game's own format: what the goldfish tests and the benchmark simulate (no database)."""

import json
from pathlib import Path

from engines import get_engine
from engines.rules import Deck, DeckCard, Severity

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

# Per game: the format, the faction, the deck's size, and the card types its deck leaves out.
LEGAL = {
    "conquest-of-orion": ("constructed", "Humans", 50, {"Planet"}),
    "conquest-alpha-tactics": (
        "faction-deck",
        "Starfleet",
        33,
        {"Planet", "Sector", "Quadrant", "Combat Zone"},
    ),
    "conquest-for-the-capital": ("faction-deck", "Elves", 20, set()),
}


def legal_deck(slug: str) -> list[DeckCard]:
    """The sample set's first cards of the faction (or of none) that make a legal deck."""
    fmt_slug, faction, size, left_out = LEGAL[slug]
    engine = get_engine(slug)
    fmt = engine.format(fmt_slug)
    assert fmt is not None
    deck = [
        DeckCard(
            key=item["name"],
            name=item["name"],
            card_type=item["type"],
            zone=engine.zone_for(
                item["type"], tuple(item["factions"]), tuple(item["keywords"]), item["name"]
            ),
            quantity=1,
            factions=tuple(item["factions"]),
            keywords=tuple(item["keywords"]),
            stats=item["stats"],
            text=item["text"],
        )
        for item in json.loads((FIXTURES / slug / "sample.json").read_text())["cards"]
        if item["type"] not in left_out and tuple(item["factions"]) in {(), (faction,)}
    ][:size]
    errors = [p for p in fmt.validate(Deck(tuple(deck), faction)) if p.severity == Severity.ERROR]
    assert not errors, errors
    return deck
