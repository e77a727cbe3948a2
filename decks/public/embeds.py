"""oEmbed (https://oembed.com) for the site's card and deck pages: which page a consumer's
`url` names, and the answer describing its embed page (docs/api/oembed.md).

No Django oEmbed *provider* library is kept up (the ones there are consume oEmbed): the
answer is a handful of fields, written here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import Resolver404, resolve, reverse

from cardsite.catalogue.faces import LANDSCAPE, PORTRAIT
from cardsite.catalogue.models import Card
from cardsite.embeds import CARD_SIZE, DECK_SIZE, EMBED_MAX_AGE, iframe_html
from cardsite.seo import absolute
from decks.models import Deck
from decks.public.og import OG_SIZE

# The longest `url` read, in characters: far beyond any page URL of the site.
URL_MAX_CHARS = 2000
# maxwidth and maxheight: whole pixels, at most this many digits.
SIDE_MAX_DIGITS = 5
PROVIDER_NAME = "cardsite"

CARD_VIEWS = {"catalogue:card", "catalogue:card-bare", "catalogue:short-link"}
DECK_VIEWS = {"decks:deck"}


@dataclass(frozen=True)
class Target:
    """The page an oEmbed `url` names: kind "card" (by short id) or "deck" (by share key)."""

    kind: str
    key: str


def page_target(url: str) -> Target | None:
    """The card or deck page `url` is, in any of the forms the site links to (a card's page
    with or without its slug, its /c/ short link, a deck's page), absolute on this site's
    address; None for anything else."""
    site = urlsplit(settings.SITE_URL)
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != site.netloc.lower():
        return None
    prefix = site.path.rstrip("/")
    if prefix and not parts.path.startswith(prefix + "/"):
        return None
    try:
        match = resolve(parts.path[len(prefix) :] or "/")
    except Resolver404:
        return None
    if match.view_name in CARD_VIEWS:
        return Target("card", str(match.kwargs["short_id"]).lower())
    if match.view_name in DECK_VIEWS:
        return Target("deck", str(match.kwargs["deck_id"]))
    return None


def fitted(size: tuple[int, int], most: tuple[int | None, int | None]) -> tuple[int, int]:
    """The embed's size: its own, made no larger than the consumer's maxwidth and maxheight."""
    width, height = size
    most_width, most_height = most
    return (
        width if most_width is None else min(width, most_width),
        height if most_height is None else min(height, most_height),
    )


def _answer(
    *,
    title: str,
    embed_path: str,
    size: tuple[int, int],
    most: tuple[int | None, int | None],
    thumbnail: tuple[str, int, int],
) -> dict[str, Any]:
    width, height = fitted(size, most)
    answer: dict[str, Any] = {
        "type": "rich",
        "version": "1.0",
        "title": title,
        "provider_name": PROVIDER_NAME,
        "provider_url": absolute("/"),
        "cache_age": EMBED_MAX_AGE,
        "html": iframe_html(src=absolute(embed_path), width=width, height=height, title=title),
        "width": width,
        "height": height,
    }
    # The spec's thumbnail must respect maxwidth and maxheight: one too large is left out.
    url, thumb_width, thumb_height = thumbnail
    if (thumb_width, thumb_height) == fitted((thumb_width, thumb_height), most):
        answer |= {
            "thumbnail_url": url,
            "thumbnail_width": thumb_width,
            "thumbnail_height": thumb_height,
        }
    return answer


def card_oembed(card: Card, most: tuple[int | None, int | None]) -> dict[str, Any]:
    sample = " (unofficial sample)" if card.is_sample else ""
    width, height = LANDSCAPE if card.is_landscape else PORTRAIT
    face = absolute(reverse("catalogue:card-face", args=[card.short_id]))
    return _answer(
        title=f"{card.name}{sample} · {card.game.name}",
        embed_path=reverse("card-embed", args=[card.short_id]),
        size=CARD_SIZE,
        most=most,
        thumbnail=(face, width, height),
    )


def deck_oembed(deck: Deck, most: tuple[int | None, int | None]) -> dict[str, Any]:
    image = reverse("decks:og-image", args=[deck.share_key]) + f"?v={deck.version}"
    answer = _answer(
        title=f"{deck.name} · {deck.game.name}",
        embed_path=reverse("deck-embed", args=[deck.share_key]),
        size=DECK_SIZE,
        most=most,
        thumbnail=(absolute(image), *OG_SIZE),
    )
    return answer | {"author_name": deck.owner.get_username()}
