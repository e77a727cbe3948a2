"""A saved deck written out: decklist text, a JSON list, or a deck code."""

from __future__ import annotations

from typing import Any

from decks.decklist import ExportEntry, encode_code, to_text
from decks.models import Deck
from decks.services import ResolvedDeck, ResolvedEntry, intake_deck, resolve


def _ordered(resolved: ResolvedDeck) -> list[ResolvedEntry]:
    return sorted(resolved.entries, key=lambda e: (e.zone, e.card.name))


def deck_code(deck: Deck, resolved: ResolvedDeck) -> str:
    return encode_code(
        deck.game.slug,
        deck.format,
        deck.faction.name if deck.faction else None,
        [(e.card.short_id, e.quantity, e.zone) for e in _ordered(resolved)],
    )


def deck_export(deck: Deck, kind: str) -> dict[str, Any]:
    """The deck as `kind` (text, json or code), in the API's export shape."""
    resolved = resolve(game=deck.game.slug, intake=intake_deck(deck))
    entries = _ordered(resolved)
    if kind == "code":
        return {"format": "code", "code": deck_code(deck, resolved)}
    if kind == "json":
        return {
            "format": "json",
            "game": deck.game.slug,
            "format_slug": deck.format,
            "name": deck.name,
            "faction": deck.faction.name if deck.faction else None,
            "cards": [
                {"id": e.card.short_id, "name": e.card.name, "quantity": e.quantity, "zone": e.zone}
                for e in entries
            ],
        }
    text = to_text(
        [
            ExportEntry(e.quantity, e.card.name, e.zone, e.card.set_code, e.card.number)
            for e in entries
        ],
        resolved.snapshot.engine,
        title=f"{deck.name} ({deck.game.name}, {deck.format})",
    )
    return {"format": "text", "text": text}
