"""An engine as plain data, for comparing a game built from its file with the one it replaced.

Every field is kept, those left out of equality (the table, the card back) too. Callables
cannot be compared as values, so each is kept as what it decides over the game's catalogue
cards (game.json and sample.json): the cards a rule's filter refuses, the zone of each card
of no stated type.
"""

import dataclasses
import enum
import json
from pathlib import Path
from typing import Any

from engines.base import GameEngine
from engines.rules import DeckCard

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GOLDEN = Path(__file__).with_name("game_files")
# Filled in from the goldfish modules until their goldfish.toml lands: not a declaration.
GOLDFISH_FIELDS = {
    "goldfish",
    "goldfish_reference",
    "goldfish_policy",
    "goldfish_cost_written",
    "goldfish_measured",
    "goldfish_charts",
    "goldfish_summary",
    "goldfish_description",
    "odds",
}


def catalogue_cards(slug: str) -> list[DeckCard]:
    cards = []
    for name in ("game.json", "sample.json"):
        path = FIXTURES / slug / name
        if not path.exists():
            continue
        for n, card in enumerate(json.loads(path.read_text(encoding="utf-8")).get("cards", [])):
            cards.append(
                DeckCard(
                    key=f"{name}:{n}",
                    name=card["name"],
                    card_type=card.get("type") or "",
                    zone="",
                    quantity=1,
                    factions=tuple(card.get("factions", ())),
                    keywords=tuple(card.get("keywords", ())),
                    stats=card.get("stats") or {},
                )
            )
    return cards


def plain(value: Any, cards: list[DeckCard]) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, (tuple, list)):
        return [plain(v, cards) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            f.name: plain(getattr(value, f.name), cards)
            for f in dataclasses.fields(value)
            if f.init and f.name not in GOLDFISH_FIELDS and f.name != "excluded"
        }
        if (excluded := getattr(value, "excluded", None)) is not None:
            fields["excluded"] = sorted({c.name for c in cards if excluded(c)})
        return fields
    if callable(value):
        return "callable"
    return value


def snapshot(engine: GameEngine) -> dict[str, Any]:
    """The engine's declarations as plain data, callables by what they decide."""
    cards = catalogue_cards(engine.slug)
    data = plain(engine, cards)
    if engine.untyped_zone is not None:
        data["untyped_zone"] = {
            c.name: engine.untyped_zone(c.factions, c.keywords, c.name)
            for c in cards
            if not c.card_type
        }
    return data


def golden(slug: str) -> dict[str, Any]:
    """The snapshot of the game's engine as it was declared in Python (engines/<game>.py)
    before its declarations moved to fixtures/<slug>/engine.toml."""
    return json.loads((GOLDEN / f"{slug}.json").read_text(encoding="utf-8"))
