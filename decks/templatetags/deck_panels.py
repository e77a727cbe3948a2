"""What the catalogue's pages show about decks, drawn by the decks app: a game's formats, with
the values the site sets for them. The catalogue app imports nothing from decks; its templates
load these tags. (A card's public decks are a card page part instead:
decks/public/card_decks.py.)"""

from __future__ import annotations

from typing import Any

from django import template

from cardsite.catalogue.models import Game
from decks.reading.selectors import game_formats

register = template.Library()


@register.inclusion_tag("decks/_formats.html")
def formats_of(game: Game) -> dict[str, Any]:
    return {"formats": game_formats(game=game)}
