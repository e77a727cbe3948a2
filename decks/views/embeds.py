"""The oEmbed endpoint and a deck's embed page (docs/api/oembed.md, docs/pages/embedding.md).

Embeds are public by nature: they are read as nobody, whoever asks. A public or unlisted deck
embeds as its link can be shared; a private or deleted one is a 404 to everyone, its owner
too, so that nothing private is ever framed elsewhere or kept in a shared cache.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from cardsite.catalogue import selectors
from cardsite.catalogue.versioning import with_catalogue_version
from cardsite.embeds import EMBED_MAX_AGE, embed_response, framable
from cardsite.seo import absolute
from decks.models import Deck
from decks.public.embeds import (
    SIDE_MAX_DIGITS,
    URL_MAX_CHARS,
    card_oembed,
    deck_oembed,
    page_target,
)
from decks.reading.selectors import deck_for_reader
from decks.services import intake_deck, resolve
from decks.views.common import ascii_number
from decks.views.pages import type_groups

# How long a rendered deck embed is kept: its key's stamp retires it at the deck's next change.
EMBED_CACHE_SECONDS = 60 * 60


def _embeddable(deck_id: str) -> Deck | None:
    """The deck if anyone may see it: read as an anonymous reader, so private means absent."""
    return deck_for_reader(deck_id=deck_id, user=None)


def _plain(status: int, message: str) -> HttpResponse:
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")


@require_safe
def oembed(request: HttpRequest) -> HttpResponse:
    url = request.GET.get("url", "")
    if not url:
        return _plain(400, "url: required, the address of a card or deck page of this site.")
    if len(url) > URL_MAX_CHARS:
        return _plain(400, f"url: at most {URL_MAX_CHARS} characters.")
    # The spec's answer to a format the provider does not give: 501 Not Implemented.
    if request.GET.get("format", "json") != "json":
        return _plain(501, "format: only json is answered.")
    most: list[int | None] = []
    for name in ("maxwidth", "maxheight"):
        raw = request.GET.get(name)
        number = None if raw is None else ascii_number(raw, SIDE_MAX_DIGITS)
        if raw is not None and not number:
            return _plain(400, f"{name}: a whole number of pixels, 1 to {10**SIDE_MAX_DIGITS - 1}.")
        most.append(number)
    bounds = (most[0], most[1])
    target = page_target(url)
    answer = None
    if target is not None and target.kind == "card":
        card = selectors.card_get(short_id=target.key)
        answer = card_oembed(card, bounds) if card else None
    elif target is not None:
        deck = _embeddable(target.key)
        answer = deck_oembed(deck, bounds) if deck else None
    if answer is None:
        return _plain(404, "No public card or deck page of this site at that url.")
    response = JsonResponse(answer)
    response["Cache-Control"] = f"public, max-age={EMBED_MAX_AGE}"
    # Consumers may read it from a browser: it says only what a public page does.
    response["Access-Control-Allow-Origin"] = "*"
    return response


@require_safe
@framable
def deck_embed(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = _embeddable(deck_id)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    version, held = with_catalogue_version(key := f"deck-embed:v1:{deck.share_key}")
    # Whatever the embed shows changes one of these: the deck's list (its version), its name
    # or visibility (its update time) and the cards' names (the catalogue's version).
    stamp = f"{deck.share_key}-{deck.version}-{deck.updated_at.timestamp():.6f}-{version}"
    page = held.get(key)
    if page is None or page["stamp"] != stamp:
        resolved = resolve(
            game=deck.game.slug,
            intake=intake_deck(deck),
            faction=deck.faction.name if deck.faction else None,
        )
        fmt = deck.game.engine.format(deck.format)
        body = render_to_string(
            "embeds/deck.html",
            {
                "deck": deck,
                "groups": type_groups(deck, resolved),
                "total": resolved.counts["total"],
                "format_name": fmt.name if fmt else deck.format,
                "page_url": absolute(deck.get_absolute_url()),
                "noindex": deck.visibility != Deck.Visibility.PUBLIC,
            },
        )
        page = {"stamp": stamp, "body": body}
        cache.set(key, page, EMBED_CACHE_SECONDS)
    return embed_response(
        request, body=page["body"], etag=stamp, modified=deck.updated_at.timestamp()
    )
