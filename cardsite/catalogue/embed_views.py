"""A card's embed page: its face and text, small enough for another site's iframe
(cardsite/embeds.py, docs/pages/embedding.md)."""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from cardsite.catalogue import selectors
from cardsite.catalogue.presenters import type_line
from cardsite.catalogue.versioning import with_catalogue_version
from cardsite.embeds import EMBED_MAX_AGE, embed_response, framable
from cardsite.seo import absolute

# As long as a card page's body: the catalogue version in the key's value retires it sooner.
EMBED_CACHE_SECONDS = 60 * 60


@require_safe
@framable
def card_embed(request: HttpRequest, short_id: str) -> HttpResponse:
    # The same for every reader: rendered once per catalogue version, as the card page is.
    key = f"card-embed:v1:{short_id}"
    version, held = with_catalogue_version(key)
    page = held.get(key)
    if page is None or page["version"] != version:
        card = selectors.card_get(short_id=short_id)
        if card is None:
            raise Http404(f"No card {short_id!r}.")
        body = render_to_string(
            "embeds/card.html",
            {
                "card": card,
                "type_line": type_line(card),
                "page_url": absolute(card.get_absolute_url()),
            },
        )
        page = {"version": version, "body": body, "modified": card.updated_at.timestamp()}
        cache.set(key, page, max(EMBED_CACHE_SECONDS, EMBED_MAX_AGE))
    return embed_response(
        request, body=page["body"], etag=f"{short_id}-{version}", modified=page["modified"]
    )
