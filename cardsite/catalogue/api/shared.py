"""The catalogue API's public reads, answered from the shared cache as the pages are.

A card, a page of the card list or of a search, the games and the sets read the same for
everyone who asks, so each answer is rendered once per catalogue version (any catalogue write,
a curator's edit or an import, starts a new one: cardsite/catalogue/versioning.py) and kept,
with that version, under a key naming what it answers. A warm read is one cache round trip,
the version and the answer together, as a card page's is (catalogue/views.card_detail), and
no query.

What a key holds is bounded as the pages' caches are: it is made of the request's values the
answer depends on, normalised (page numbers as numbers, the query stripped, other parameters
left out: they change nothing but the page links, which are made for each request), and
it is written only for an answer that succeeded, so only a real card, game, set, filter value
or parseable query makes one. A later version overwrites the entry rather than adding one, and
an idle entry goes after an hour. Only a search's text is free, within its limits (1,000
characters) and its rate (120 a minute a client), as on the search page; its answers are kept
for less time and only up to a size (SEARCH_KEEP_SECONDS, SEARCH_KEEP_BYTES).

Nothing that depends on the reader is kept: a search of the reader's collection (`own`) is
answered afresh, marked private; and only plain JSON is kept (the browsable API's HTML names
the signed-in user).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from cardsite.catalogue.selectors import SEARCH_CACHE_SECONDS
from cardsite.catalogue.versioning import with_catalogue_version

# As the pages' (catalogue/views.PAGE_CACHE_SECONDS): entries also go when the catalogue
# changes; this only bounds an idle one's life.
KEEP_SECONDS = 60 * 60
# A search's text is the one free part of a key, so its answers are kept as its ids are
# (selectors.SEARCH_CACHE_SECONDS, 10 minutes), and only up to a page of 50 cards or so (a
# default page is about 45 KB, one of 200 cards about 200 KB): at the search rate, 120 a
# minute, one client can then hold at most 1,200 entries, about 77 MB, before they expire.
SEARCH_KEEP_SECONDS = SEARCH_CACHE_SECONDS
SEARCH_KEEP_BYTES = 64 * 1024
# Part of every key: bump it when what an answer holds changes shape, so that an entry written
# by the code before a deployment is never served by the code after it.
SHAPE = 1
# Everyone may keep a shared answer, but must ask again before using it (an If-None-Match,
# answered 304 in one cache round trip): a curator's edit is seen at once everywhere.
SHARED = {"public": True, "no_cache": True}


@dataclass(frozen=True)
class Answer:
    """What a view answers uncached: its response, and whether it may be kept for everyone."""

    response: Response
    shared: bool = True


@dataclass(frozen=True)
class _PageAt:
    """What DRF's page links need of a page: where it is among the others."""

    number: int
    more: bool

    def has_next(self) -> bool:
        return self.more

    def next_page_number(self) -> int:
        return self.number + 1

    def has_previous(self) -> bool:
        return self.number > 1

    def previous_page_number(self) -> int:
        return self.number - 1


def plain_json(request: Request) -> bool:
    """Whether the answer is to be the compact JSON everyone gets (not the browsable API, nor
    JSON indented as an Accept header may ask)."""
    renderer = request.accepted_renderer
    return (
        type(renderer) is JSONRenderer
        and renderer.get_indent(request.accepted_media_type, {}) is None
    )


def shared_answer(
    request: Request,
    view: Any,
    *,
    name: str,
    values: Sequence[Any],
    answer: Callable[[], Answer],
    seconds: int = KEEP_SECONDS,
    most_bytes: int | None = None,
) -> HttpResponseBase:
    """The view's answer to `request`, from the shared cache when it holds one for this
    catalogue version, with an ETag (a 304 when the client holds it already).

    `name` and `values` are what the answer depends on besides the catalogue and the site's
    address: the view and its normalised parameters. `answer` makes it afresh; a failure (an
    error status) or an answer for this reader alone is returned as it is and never kept. An
    idle entry goes after `seconds`; one longer than `most_bytes` is not kept."""
    if not plain_json(request):
        return _private(answer().response)
    # The site's scheme and host: the answer's links are absolute.
    parts = [SHAPE, request.build_absolute_uri("/"), name, *values]
    key = "api:" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()
    version, held = with_catalogue_version(key)
    entry = held.get(key)
    if entry is None or entry["version"] != version:
        made = answer()
        if made.response.status_code != 200 or not made.shared:
            return made.response if made.shared else _private(made.response)
        entry = _entry(request, view, made.response, version)
        if entry is None:
            return made.response
        if most_bytes is None or len(entry["body"]) <= most_bytes:
            cache.set(key, entry, seconds)
    return _answered(request, view, entry)


def shared_read(
    request: Request, view: Any, read: Callable[[], Response], *, name: str, values: Sequence[Any]
) -> HttpResponseBase:
    """shared_answer for a plain DRF read (a viewset's inherited list or retrieve, called as
    `read`): nothing in it depends on the reader, so any answer it makes that succeeds is kept."""
    return shared_answer(request, view, name=name, values=values, answer=lambda: Answer(read()))


def page_values(request: Request, view: Any) -> list[Any]:
    """The page number and size a list request asks for, as numbers when they are valid (so
    `page=07` and `page=7` share an entry), as given when not (the answer is then a 400, never
    kept)."""
    paginator = view.paginator
    values: list[Any] = []
    for name, read in (
        (paginator.page_query_param, lambda: paginator.get_page_number(request, None)),
        (paginator.page_size_query_param, lambda: paginator.get_page_size(request)),
    ):
        try:
            values.append(read())
        except ValidationError:
            values.append(request.query_params.getlist(name))
    return values


def _entry(request: Request, view: Any, response: Response, version: int) -> dict[str, Any] | None:
    """The answer as kept: its JSON (a page's without its links) and a digest of it; None if
    it cannot be kept whole."""
    renderer = request.accepted_renderer
    data = response.data
    paged = isinstance(data, dict) and list(data)[:3] == ["count", "next", "previous"]
    entry: dict[str, Any] = {"version": version, "page": None}
    if paged:
        # The page's links are the request's own, so the body is kept without them and they
        # are put back for each request: keys then need none of its other parameters.
        head = _head(renderer, data["count"], None, None)
        body = renderer.render({**data, "next": None, "previous": None})
        if not body.startswith(head):  # a renderer that reorders keys: answered afresh
            return None
        entry["count"] = data["count"]
        entry["page"] = (view.paginator.page.number, data["next"] is not None)
        body = body[len(head) :]
    else:
        body = renderer.render(data)
    entry["body"] = body
    entry["digest"] = hashlib.blake2b(body, digest_size=16).digest()
    return entry


def _head(renderer: JSONRenderer, count: int, next: str | None, previous: str | None) -> bytes:
    """The start of a page's JSON, up to its results: `{"count":…,"next":…,"previous":…`."""
    return renderer.render({"count": count, "next": next, "previous": previous})[:-1]


def _answered(request: Request, view: Any, entry: dict[str, Any]) -> HttpResponseBase:
    body, page = entry["body"], entry["page"]
    if page is None:
        tag = entry["digest"]
    else:
        paginator = view.paginator
        paginator.request, paginator.page = request, _PageAt(*page)
        head = _head(
            request.accepted_renderer,
            entry["count"],
            paginator.get_next_link(),
            paginator.get_previous_link(),
        )
        body = head + body
        tag = hashlib.blake2b(head + entry["digest"], digest_size=16).digest()
    etag = f'"{tag.hex()}"'
    response = HttpResponse(body, content_type=request.accepted_renderer.media_type)
    response["ETag"] = etag
    patch_cache_control(response, **SHARED)
    # No Last-Modified: only a card's own row has a date, and its set, factions, keywords,
    # rulings and errata change what it answers without moving it; nor could a date in
    # whole seconds tell two edits in one second apart. The ETag, made from the answer
    # itself, changes exactly when the answer does.
    return get_conditional_response(request, etag=etag, response=response) or response


def _private(response: Response) -> Response:
    """An answer for this reader alone: no shared cache may keep it, nor give it to another."""
    if response.status_code < 400:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Authorization", "Cookie"])
    return response
