"""Catalogue pages. Thin: fetch through selectors, render a template."""

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import qrcode
import qrcode.image.svg
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponsePermanentRedirect,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.safestring import mark_safe
from django.views.decorators.cache import cache_control

from cardsite.catalogue import bulk, card_parts, history, presenters, selectors
from cardsite.catalogue.search import examples, meant
from cardsite.catalogue.versioning import catalogue_version, with_catalogue_version
from cardsite.embeds import CARD_SIZE, embed_box
from cardsite.limits import spend, throttle_page
from cardsite.seo import absolute
from engines.filters.syntax import QuerySyntaxError

GRID_PAGE = 24
LIST_PAGE = 100
# The search page, in either view: a screenful of faces on a desktop, and few enough cards
# that a page of text rows stays quick to scan.
SEARCH_PAGE = 60
# Cached pages also go when the catalogue changes; this only bounds an idle entry's life.
PAGE_CACHE_SECONDS = 60 * 60


def home(request: HttpRequest) -> HttpResponse:
    games = list(selectors.game_list())
    return render(
        request,
        "catalogue/home.html",
        {"games": games, "meta": presenters.home_meta(games)},
    )


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = selectors.game_get(slug=slug)
    if game is None:
        raise Http404(f"No game {slug!r}.")
    rulebook = selectors.rulebook_path(game_slug=game.slug)
    rulebook_url = reverse("catalogue:rulebook", args=[game.slug]) if rulebook else None
    return render(
        request,
        "catalogue/game.html",
        {
            "game": game,
            "rulebook_url": rulebook_url,
            "meta": presenters.game_meta(game),
        },
    )


def bulk_response(
    request: HttpRequest, path: Path, content_type: str, name: str
) -> HttpResponseBase:
    """`path` as a download, validated by its version (in its name) and its time: a reader
    holding this version gets a 304 and no body."""
    etag = f'"{path.stem}"'
    modified = path.stat().st_mtime
    unchanged = get_conditional_response(request, etag=etag, last_modified=int(modified))
    if unchanged is not None:
        return unchanged
    response = FileResponse(
        path.open("rb"), as_attachment=True, filename=name, content_type=content_type
    )
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    # Public, but revalidated: an approval makes a new file at once.
    response["Cache-Control"] = "public, max-age=0, must-revalidate"
    return response


def bulk_data(request: HttpRequest, slug: str, fmt: str) -> HttpResponseBase:
    """A game's whole catalogue, with where each value came from, as one file to download."""
    game = selectors.game_get(slug=slug)
    if game is None or fmt not in bulk.FORMATS:
        raise Http404(f"No card data {slug!r}.{fmt}.")
    path = bulk.bulk_file(game=game, fmt=fmt, before_generating=lambda: spend(request, "images"))
    return bulk_response(request, path, bulk.FORMATS[fmt], f"{game.slug}-cards.{fmt}")


@cache_control(public=True, max_age=86400)
def game_rulebook(request: HttpRequest, slug: str) -> FileResponse:
    """The game's rulebook as plain text: the passages its rules and cards cite are in it."""
    path = selectors.rulebook_path(game_slug=slug)
    if path is None:
        raise Http404(f"No rulebook for {slug!r}.")
    return FileResponse(path.open("rb"), content_type="text/plain; charset=utf-8")


def _paged(request: HttpRequest, ids: Any, view: str) -> Any:
    """A page over card ids, its cards then loaded with what a list of results shows."""
    page = Paginator(ids, _per_page(view)).get_page(request.GET.get("page"))
    page.object_list = selectors.listed_cards(page.object_list)
    return page


def _per_page(view: str) -> int:
    return LIST_PAGE if view == "list" else GRID_PAGE


def _view_mode(request: HttpRequest) -> str:
    return "list" if request.GET.get("view") == "list" else "grid"


def _has_query(request: HttpRequest) -> bool:
    return bool(request.GET.get("q", "").strip())


# The parameters a search page's results depend on. A request with any other (or one given
# twice) is answered without the cache: its links carry what it was given, and a stray
# parameter must never reach the links of a page kept for everyone.
SEARCH_PARAMS = frozenset({"q", "game", "view", "page"})


# The API's search budget: the form alone costs nothing, a query counts.
@throttle_page("search", counts=_has_query)
def search(request: HttpRequest) -> HttpResponse:
    text = request.GET.get("q", "").strip()
    game_slug = request.GET.get("game") or None
    # Read once: every cache below is keyed by it (each read is a round trip to Redis).
    version = catalogue_version()
    games = selectors.game_choices(version=version)
    game = next((g for g in games if g.slug == game_slug), None)
    context: dict[str, Any] = {
        "q": text,
        "game_slug": game_slug,
        "game": game,
        "view": _view_mode(request),
        "games": games,
        # Set explicitly: the template tells "no query yet" from "no results" by None.
        "page": None,
    }
    if game_slug and game is None:
        context["error"] = f"There is no game “{game_slug}”."
        return render(request, "catalogue/search.html", context, status=400)
    if not text:
        return render(request, "catalogue/search.html", context)
    try:
        found = selectors.card_search_ids(
            text=text, game=game_slug, version=version, viewer=request.user
        )
    except QuerySyntaxError as exc:
        context.update(
            error=exc.message,
            error_position=exc.position,
            error_before=text[: exc.position],
            error_at=text[exc.position :],
        )
        return render(request, "catalogue/search.html", context, status=400)
    page = Paginator(found.ids, SEARCH_PAGE).get_page(request.GET.get("page"))
    context["page"] = page
    # Safe: our own template's output, escaped when it was rendered.
    context["results"] = mark_safe(_search_results(request, context, found, page, version))
    return render(request, "catalogue/search.html", context)


def _search_results(
    request: HttpRequest,
    context: dict[str, Any],
    found: selectors.FoundIds,
    page: Any,
    version: int,
) -> str:
    """The results part of a search page: the same for everyone who asks the same search of
    the same catalogue, so rendered once per catalogue version (any catalogue write starts a
    new one) and kept in the shared cache, keyed by the page's own number."""
    # A search of the viewer's collection is theirs alone: never kept for everyone.
    cacheable = (
        not found.personal
        and set(request.GET) <= SEARCH_PARAMS
        and all(len(values) == 1 for _, values in request.GET.lists())
    )
    parts = [version, context["q"], context["game_slug"], context["view"], page.number]
    key = "search-results:" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()
    if cacheable and (html := cache.get(key)) is not None:
        return str(html)
    page.object_list = selectors.listed_cards(page.object_list)
    suggestions = (
        meant.did_you_mean(
            context["q"],
            game=context["game_slug"],
            finds=lambda query: _finds(request, query, context["game_slug"], version),
        )
        if not page.object_list and not found.nothing_applies
        else None
    )
    html = render_to_string(
        "catalogue/_search_results.html",
        {
            **context,
            "page": page,
            "warnings": found.warnings,
            "nothing_applies": found.nothing_applies,
            "suggestions": suggestions,
        },
        request=request,
    )
    if cacheable:
        cache.set(key, html, PAGE_CACHE_SECONDS)
    return html


def _finds(request: HttpRequest, query: str, game: str | None, version: int) -> bool:
    """Whether a suggested search finds a card (its ids kept in the cache like any search's)."""
    try:
        found = selectors.card_search_ids(
            text=query, game=game, version=version, viewer=request.user
        )
    except QuerySyntaxError:
        return False
    # A slice: a personal search's ids are a query, asked only for its first row.
    return len(found.ids[:1]) > 0


def set_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    card_set = selectors.set_get(game=game, code=code)
    if card_set is None:
        raise Http404(f"No set {code!r} in {game!r}.")
    view = _view_mode(request)
    cards = selectors.card_list(game=game, set_code=card_set.code).values_list("id", flat=True)
    page = _paged(request, cards, view)
    return render(
        request,
        "catalogue/set.html",
        {
            "set": card_set,
            "game": card_set.game,
            "page": page,
            "view": view,
            "meta": presenters.set_meta(card_set, page.paginator.count, page.number),
        },
    )


def syntax(request: HttpRequest) -> HttpResponse:
    games = list(selectors.game_list())
    by_game = [(game, examples.BY_GAME.get(game.slug, [])) for game in games]
    return render(
        request,
        "catalogue/syntax.html",
        {
            "games": games,
            "general": examples.GENERAL,
            "collection": examples.COLLECTION,
            "by_game": by_game,
        },
    )


def card_detail(request: HttpRequest, short_id: str, slug: str | None = None) -> HttpResponse:
    # The page's body is the same for everyone, so it is rendered once per catalogue version
    # (any catalogue write starts a new one) and kept in the shared cache with that version,
    # which is read beside it: a warm page costs one cache round trip.
    # "v2": entries cached before pages carried their meta are not read.
    # "v3": the page carries its Embed box and oEmbed discovery link.
    key = f"card-page:v3:{short_id}"
    part_keys = [k for part in card_parts.PARTS for k in part.keys(short_id)]
    version, held = with_catalogue_version(key, *part_keys)
    page = held.get(key)
    if page is None or page["version"] != version:
        card = selectors.card_get(short_id=short_id)
        if card is None:
            raise Http404(f"No card {short_id!r}.")
        before, after = selectors.set_neighbours(card)
        changes = history.card_history(card=card)
        body = render_to_string(
            "catalogue/_card.html",
            {
                "card": card,
                "changes": changes,
                "origins": history.provenance(card=card, changes=changes),
                "before": before,
                "after": after,
                "short_url": absolute(card.get_short_url()),
            },
        )
        page = {
            "version": version,
            "slug": card.slug,
            "url": card.get_absolute_url(),
            # Its title (the <title>'s too) and canonical URL: the same for every reader.
            "meta": presenters.card_meta(card),
            "embed": embed_box(
                embed_path=reverse("card-embed", args=[card.short_id]),
                title=card.name,
                size=CARD_SIZE,
                game=card.game.slug,
            ),
            "body": body,
        }
        cache.set(key, page, PAGE_CACHE_SECONDS)
    if slug != page["slug"]:
        return HttpResponsePermanentRedirect(page["url"])
    parts = "".join(part.html(short_id, held) for part in card_parts.PARTS)
    return render(
        request,
        "catalogue/card.html",
        # Safe: the body and parts are our own templates' output, escaped when rendered.
        {
            "meta": page["meta"],
            "embed": page["embed"],
            "body": mark_safe(page["body"]),
            "parts": mark_safe(parts),
        },
    )


@cache_control(public=True, max_age=86400)
def card_qr(request: HttpRequest, short_id: str) -> HttpResponse:
    """The card's short link as an SVG QR code, for its page."""
    card = selectors.card_get(short_id=short_id)
    if card is None:
        raise Http404(f"No card {short_id!r}.")
    image = qrcode.make(
        absolute(card.get_short_url()),
        image_factory=qrcode.image.svg.SvgPathImage,
        border=2,
    )
    buffer = io.BytesIO()
    image.save(buffer)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


def short_link(request: HttpRequest, short_id: str) -> HttpResponse:
    """/c/<id>, the target of printed QR codes. Temporary, so a card's page URL may change later."""
    card = selectors.card_get(short_id=short_id.lower())
    if card is None:
        raise Http404(f"No card {short_id!r}.")
    return redirect(card.get_absolute_url())
