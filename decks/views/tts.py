"""A deck for Tabletop Simulator: its saved object as a download, and the image sheets the
save points at. A private deck's are its owner's, or anyone's holding a signed link that has
not expired (TTS fetches the sheets without the owner's session); to everyone else a 404.

The save is handed out only once its sheets are drawn (decks/tts/sheets.py): a person who
clicked the download waits, at most MAX_WAIT seconds, or gets a page saying the images are
being drawn, which asks again by itself; TTS, which never retries an image, never waits."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypedDict

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags
from django.views.decorators.http import require_safe

from cardsite.catalogue.faces.ahead import Allowance
from cardsite.limits import grant, spend
from decks.exports.text import export_filename
from decks.models import Deck
from decks.reading.selectors import deck_for_link
from decks.tts import DIGEST, SheetsNotReady, link_is_valid, tts_export, tts_sheet
from decks.views.exports import attachment

# A sheet's URL names its content, so it never changes while it exists; but a public deck may
# turn private, and a shared cache should not go on showing its cards for long after.
PUBLIC_SHEET_CACHE = {"public": True, "max_age": 60 * 60, "immutable": True}
PRIVATE_SHEET_CACHE = {"private": True, "max_age": 60 * 60}


def _deck(request: HttpRequest, deck_id: str) -> Deck:
    signed = link_is_valid(deck_id, request.GET, timezone.now())
    deck = deck_for_link(deck_id=deck_id, user=request.user, signed=signed)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    return deck


class DrawingBudgets(TypedDict):
    before_drawing: Callable[[], None]
    allow_faces: Allowance


def drawing_budgets(request: HttpRequest) -> DrawingBudgets:
    """What drawing a deck's sheets spends: each sheet drawn one use of the `proxies` rate,
    each face it queues one of the `tts` rate (cardsite/limits.py)."""
    return {
        "before_drawing": lambda: spend(request, "proxies"),
        "allow_faces": lambda n: grant(request, "tts", n),
    }


def still_drawing(request: HttpRequest, deck: Deck, exc: SheetsNotReady) -> HttpResponse:
    """The person who clicked the download, told the images are being drawn: a 503 whose page
    asks again by itself after Retry-After (and the browser then saves the file)."""
    response = render(
        request,
        "decks/tts_drawing.html",
        {"deck": deck, "message": str(exc), "retry_after": exc.retry_after},
        status=503,
    )
    response["Retry-After"] = str(exc.retry_after)
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
def deck_tts_file(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = _deck(request, deck_id)
    try:
        save = tts_export(deck=deck, now=timezone.now(), **drawing_budgets(request))
    except SheetsNotReady as exc:
        return still_drawing(request, deck, exc)
    body = json.dumps(save, indent=1, ensure_ascii=False) + "\n"
    response = HttpResponse(body.encode("utf-8"), content_type="application/json")
    response["Content-Disposition"] = attachment(*export_filename(deck, "json"))
    # A private deck's save holds signed links: no shared cache may keep it.
    response["Cache-Control"] = "private, no-cache"
    return response


@require_safe
def deck_tts_sheet(request: HttpRequest, deck_id: str, digest: str) -> HttpResponse:
    if not DIGEST.fullmatch(digest):
        raise Http404("A sheet's name is 20 hex digits.")
    deck = _deck(request, deck_id)
    sheet = tts_sheet(deck=deck, digest=digest)
    if sheet is None:
        raise Http404("This deck has no such sheet.")
    etag = f'"{sheet.digest}"'
    wanted = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in wanted or "*" in wanted:
        response: HttpResponse = HttpResponseNotModified()
    else:
        # Drawing a sheet spends the client's budgets; reading a drawn one is free.
        budgets = drawing_budgets(request)
        try:
            png = sheet.png(budgets["before_drawing"], budgets["allow_faces"])
        except SheetsNotReady as exc:
            # Only for a sheet not drawn with its save (removed since, or asked for without
            # it): a 429 naming the limit (the request's wait), as from any other limit.
            refusal = HttpResponse(f"{exc}\n", status=429, content_type="text/plain; charset=utf-8")
            refusal["Retry-After"] = str(exc.retry_after)
            return refusal
        response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    private = deck.visibility == Deck.Visibility.PRIVATE
    patch_cache_control(response, **(PRIVATE_SHEET_CACHE if private else PUBLIC_SHEET_CACHE))
    return response
