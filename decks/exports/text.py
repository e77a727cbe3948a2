"""A saved deck written out: decklist text, a JSON list, or a deck code."""

from __future__ import annotations

from typing import Any

from django.utils.text import slugify

from cardsite.cardlists.decklist import ExportEntry, encode_code, to_text
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


def deck_json(deck: Deck, resolved: ResolvedDeck) -> dict[str, Any]:
    return {
        "format": "json",
        "game": deck.game.slug,
        "format_slug": deck.format,
        "name": deck.name,
        "faction": deck.faction.name if deck.faction else None,
        "cards": [
            {"id": e.card.short_id, "name": e.card.name, "quantity": e.quantity, "zone": e.zone}
            for e in _ordered(resolved)
        ],
    }


def deck_text(deck: Deck, resolved: ResolvedDeck) -> str:
    return to_text(
        [
            ExportEntry(e.quantity, e.card.name, e.zone, e.card.set_code, e.card.number)
            for e in _ordered(resolved)
        ],
        resolved.snapshot.engine,
        title=f"{deck.name} ({deck.game.name}, {deck.format})",
    )


def deck_export(deck: Deck, kind: str, resolved: ResolvedDeck | None = None) -> dict[str, Any]:
    """The deck as `kind` (text, json or code), in the API's export shape."""
    resolved = resolved or resolve(game=deck.game.slug, intake=intake_deck(deck))
    if kind == "code":
        return {"format": "code", "code": deck_code(deck, resolved)}
    if kind == "json":
        return deck_json(deck, resolved)
    return {"format": "text", "text": deck_text(deck, resolved)}


def export_filename(deck: Deck, extension: str) -> tuple[str, str]:
    """The deck's name as a download's file name: ASCII (the share key when the name has no
    ASCII letters or digits), and with every letter kept, for RFC 6266's filename*."""
    ascii_name = slugify(deck.name)[:80].strip("-") or deck.share_key
    unicode_name = slugify(deck.name, allow_unicode=True)[:80].strip("-") or ascii_name
    return f"{ascii_name}.{extension}", f"{unicode_name}.{extension}"
