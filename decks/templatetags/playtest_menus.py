"""A playtest card's menu, written in Python: a table has hundreds of moves, and the template
language's per-variable lookups and escaping cost more than the rest of a move's answer."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

from decks.services.playtest import Move

register = template.Library()


@register.simple_tag
def card_menu(moves: Sequence[Move]) -> SafeString:
    """The card's moves as the `<li>` of its menu, each a link to the session one move
    longer (so every move works without JavaScript); "No moves now" when it has none."""
    if not moves:
        return mark_safe('<li class="meta">No moves now</li>')
    items = []
    for move in moves:
        to = f' data-to="{escape(move.to)}"' if move.to else ""
        items.append(
            f'<li><a href="{escape(move.link)}" data-action="{escape(move.action)}"{to}>'
            f"{escape(move.label)}</a></li>"
        )
    return mark_safe("".join(items))  # every part of it escaped above
