"""A card page's list of the public decks using the card.

Card pages are the site's most read pages, so the list costs no round trip of its own: it is
kept as HTML under the public-decks version (decks/public/versioning.py), which any deck
write moves, and both are read in the card page's one round trip (cardsite/catalogue/card_parts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string

from cardsite.catalogue.card_parts import CardPagePart
from decks.public.versioning import KEY as VERSION_KEY
from decks.public.versioning import public_decks_version
from decks.reading.selectors import decks_using_card, format_name

SHOWN = 10
# Lists go when any deck changes; this only bounds an idle one's life, and a renamed owner's.
CARD_DECKS_SECONDS = 60 * 60


def _key(short_id: str) -> str:
    return f"card-decks:{short_id}"


def card_decks_keys(short_id: str) -> list[str]:
    return [VERSION_KEY, _key(short_id)]


def card_decks_html(short_id: str, held: Mapping[str, Any]) -> str:
    """The list, from what the card page read under card_decks_keys (or, missing or made under
    another version, from the database, and then cached)."""
    version = held.get(VERSION_KEY)
    if version is None:
        version = public_decks_version()
    entry = held.get(_key(short_id))
    if entry is not None and entry[0] == version:
        return str(entry[1])
    count, decks = decks_using_card(short_id=short_id, limit=SHOWN)
    rows = [(deck, format_name(deck)) for deck in decks]
    html = render_to_string(
        "decks/_card_decks.html", {"count": count, "rows": rows, "short_id": short_id}
    )
    cache.set(_key(short_id), (version, html), CARD_DECKS_SECONDS)
    return html


CARD_DECKS = CardPagePart(keys=card_decks_keys, html=card_decks_html)
