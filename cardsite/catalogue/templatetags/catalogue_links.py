"""Template filters for catalogue pages: a faction's or keyword's search, a glossary entry."""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.urls import reverse

from cardsite.catalogue.glossary import GlossaryEntry, glossary_entry
from cardsite.catalogue.models import Faction, Keyword, Term

register = template.Library()


def _term(key: str, name: str, slug: str) -> str:
    # The search language reads a quoted value whole; a name holding a quote is searched by
    # its slug, which the search matches the same way.
    return f'{key}:"{name}"' if '"' not in name else f"{key}:{slug}"


@register.filter
def search_url(thing: Faction | Keyword, game_slug: str) -> str:
    """The search for the cards of this faction or with this keyword, in its game. The game's
    slug is passed in so that a list of them reads no game row each."""
    key = "f" if isinstance(thing, Faction) else "kw"
    query = urlencode({"q": _term(key, thing.name, thing.slug), "game": game_slug})
    return f"{reverse('catalogue:search')}?{query}"


@register.filter
def glossary(keyword: Keyword) -> GlossaryEntry:
    return glossary_entry(keyword.reminder_text, keyword.description)


@register.filter
def term_glossary(term: Term) -> GlossaryEntry:
    # A term has no reminder text: its definition alone, opening in place when long.
    return glossary_entry("", term.text)
