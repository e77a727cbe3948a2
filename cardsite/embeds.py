"""Embedding cards and decks in other sites: the embed pages' sizes, headers and snippets, and
the oEmbed discovery link (docs/pages/embedding.md, docs/api/oembed.md).

The embed pages are the only ones another site may frame: their policy's frame-ancestors is
`*` (the site's policy otherwise), and they are exempt from the X-Frame-Options every other
page sends.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.html import escape, format_html
from django.utils.http import http_date
from django.views.decorators.clickjacking import xframe_options_exempt

from cardsite.seo import absolute

# The iframe's size when the consumer sets no maxwidth/maxheight: a card's face with its text
# below, and a deck's list (scrolled inside the frame when longer).
CARD_SIZE = (320, 640)
DECK_SIZE = (400, 600)
# How long a browser or a shared cache may keep an embed page or an oEmbed answer, in seconds.
EMBED_MAX_AGE = 300
# Where the site's policy is django-csp's (production), the embed pages send it with this
# one directive replaced; elsewhere, this directive alone.
FRAME_ANYWHERE = {"frame-ancestors": ["*"]}
CSP_MIDDLEWARE = "csp.middleware.CSPMiddleware"

View = Callable[..., HttpResponse]


def framable(view: View) -> View:
    """The view's answers may be framed by any site (and only its answers: a 404 too, so that
    a frame shows why it is empty instead of the browser's refusal)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except Http404 as exc:
            response = HttpResponseNotFound(f"{exc}\n", content_type="text/plain; charset=utf-8")
        if CSP_MIDDLEWARE in settings.MIDDLEWARE:
            # Read by django-csp's middleware (csp.decorators.csp_replace sets the same).
            response._csp_replace = FRAME_ANYWHERE  # type: ignore[attr-defined]
        else:
            response["Content-Security-Policy"] = "frame-ancestors *"
        return response

    return xframe_options_exempt(wrapped)


def oembed_link(page_url: str) -> str:
    """The oEmbed address of one of the site's card or deck pages (absolute), for its
    discovery <link>."""
    query = urlencode({"url": page_url, "format": "json"})
    return absolute(reverse("oembed")) + "?" + query


def iframe_html(*, src: str, width: int, height: int, title: str) -> str:
    """The <iframe> an oEmbed answer and a page's Embed box give, sized as asked."""
    return format_html(
        '<iframe src="{}" width="{}" height="{}" title="{}" loading="lazy" '
        'style="border:0;max-width:100%" referrerpolicy="no-referrer-when-downgrade"></iframe>',
        src,
        width,
        height,
        title,
    )


def embed_box(*, embed_path: str, title: str, size: tuple[int, int], game: str) -> dict[str, str]:
    """The snippets a card or deck page's Embed box offers to copy: its iframe, and the
    autocard script for the page's game."""
    width, height = size
    script = absolute(static("js/autocard.js"))
    return {
        "iframe": iframe_html(src=absolute(embed_path), width=width, height=height, title=title),
        "autocard": f'<script src="{escape(script)}" data-game="{escape(game)}" defer></script>',
    }


def embed_response(request: HttpRequest, *, body: str, etag: str, modified: float) -> HttpResponse:
    """An embed page's answer: shared-cacheable for EMBED_MAX_AGE, and a 304 to a reader
    whose copy has the same `etag` (which must change with whatever the page shows)."""
    tag = f'"{etag}"'
    response = get_conditional_response(request, etag=tag, last_modified=int(modified))
    if response is None:
        response = HttpResponse(body)
    response["ETag"] = tag
    response["Last-Modified"] = http_date(modified)
    response["Cache-Control"] = f"public, max-age={EMBED_MAX_AGE}"
    return response
