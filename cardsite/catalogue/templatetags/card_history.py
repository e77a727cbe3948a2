"""Template helpers for where a card's values came from: the "community" mark beside a value,
a change's source in words, a changed value in words."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from cardsite.catalogue.history import Origin
from cardsite.catalogue.models import Card
from cardsite.catalogue.services.edits import field_labels

register = template.Library()

_SOURCE_KINDS = {
    "rulebook": "rulebook passage",
    "printed_card": "photo of the printed card",
    "publisher": "publisher's page",
    "revert": "revert",
}


def source_words(source: dict[str, Any]) -> str:
    """A change's source in words, for a title or a screen reader."""
    kind = _SOURCE_KINDS.get(str(source.get("kind", "")), str(source.get("kind", "")) or "source")
    text = str(source.get("text") or source.get("url") or "")
    return f"{kind}: {text}" if text else kind


@register.simple_tag
def community_mark(origins: dict[str, Origin], field: str) -> str:
    """A small "community" tag beside a value the community wrote, naming its source."""
    origin = origins.get(field) if origins else None
    if origin is None or not origin.is_community:
        return ""
    words = f"Community-sourced, proposed by {origin.proposed_by or 'a former user'}" + (
        f", approved by {origin.approved_by}" if origin.approved_by else ""
    )
    words += f"; {source_words(origin.source)}"
    return format_html(
        ' <small class="badge community community-mark" title="{}">community'
        '<span class="visually-hidden"> ({})</span></small>',
        words,
        words,
    )


@register.filter
def source_label(source: dict[str, Any]) -> str:
    return _SOURCE_KINDS.get(str(source.get("kind", "")), "source")


@register.filter
def change_value(value: Any) -> str:
    """A recorded value in words: lists joined, entries by their text, nothing as "—"."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, list):
        return "; ".join(str(v.get("text", v)) if isinstance(v, dict) else str(v) for v in value)
    if isinstance(value, dict):
        return str(value.get("text") or value.get("name") or ", ".join(map(str, value.values())))
    return str(value)


@register.simple_tag
def change_label(field: str, card: Card) -> str:
    """A recorded change's field in the words the card page uses."""
    if field == "art":
        return "Image"
    return field_labels(card.game.engine).get(field, field)


@register.filter
def rulings_not_errata(card: Card) -> list[Any]:
    """The card's rulings less those an erratum of the same passage already states: a rulebook
    that gives a correction once as a numbered ruling is recorded as both, and the page
    showed the one sentence twice."""
    corrected = {e.source for e in card.errata.all() if e.source}
    return [r for r in card.rulings.all() if not r.source or r.source not in corrected]
