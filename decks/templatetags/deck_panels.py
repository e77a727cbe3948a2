"""What the catalogue's pages show about decks, drawn by the decks app: a game's formats, with
the values the site sets for them, and the public decks using a card. The catalogue app imports
nothing from decks; its templates load these tags."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import mark_safe

from cardsite.catalogue.models import Game
from decks.card_decks import card_decks_html
from decks.selectors import game_formats

register = template.Library()


@register.inclusion_tag("decks/_formats.html")
def formats_of(game: Game) -> dict[str, Any]:
    return {"formats": game_formats(game=game)}


@register.simple_tag
def decks_using(short_id: str) -> str:
    """The public decks using the card, for its page (cached; decks/card_decks.py)."""
    # Safe: our own template's output, escaped when it was rendered.
    return mark_safe(card_decks_html(short_id=short_id))
