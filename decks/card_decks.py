"""A card page's list of the public decks using the card.

Card pages are the site's most read pages, so the list costs one cache read: it is kept as
HTML under the public-decks version (decks/versioning.py), which any deck write moves, and
read together with that version in one round trip.
"""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string

from decks.selectors import decks_using_card, format_name
from decks.versioning import KEY as VERSION_KEY
from decks.versioning import public_decks_version

SHOWN = 10
# Lists go when any deck changes; this only bounds an idle one's life, and a renamed owner's.
CARD_DECKS_SECONDS = 60 * 60


def card_decks_html(*, short_id: str) -> str:
    key = f"card-decks:{short_id}"
    held = cache.get_many([VERSION_KEY, key])
    version = held.get(VERSION_KEY)
    if version is None:
        version = public_decks_version()
    entry = held.get(key)
    if entry is not None and entry[0] == version:
        return str(entry[1])
    count, decks = decks_using_card(short_id=short_id, limit=SHOWN)
    rows = [(deck, format_name(deck)) for deck in decks]
    html = render_to_string(
        "decks/_card_decks.html", {"count": count, "rows": rows, "short_id": short_id}
    )
    cache.set(key, (version, html), CARD_DECKS_SECONDS)
    return html
