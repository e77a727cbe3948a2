"""/decks/: the public decks, filtered by what its URL asks for; and the same list's reading of
its URL for My decks (decks.views.lifecycle)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from decks.reading import finding
from decks.reading.selectors import DeckListing, deck_listing
from engines.errors import InputError

LIMITS = {"q": finding.Q_MAX, "card": finding.CARD_MAX}
RESULTS = "decks/_deck_results.html"


def results_only(request: HttpRequest) -> bool:
    # htmx asks for the results alone, except when restoring a page from history, which
    # wants the whole page.
    return "HX-Request" in request.headers and "HX-History-Restore-Request" not in request.headers


def listing_context(request: HttpRequest, *, mine: bool) -> dict[str, Any]:
    """What a deck list's template needs: its listing as the URL's filters ask (or the error
    naming the one refused), the filters and their limits."""
    try:
        filters, refused = finding.read_filters(request.GET), None
    except InputError as exc:
        filters, refused = finding.DeckFilters(), exc
    listing = deck_listing(filters=filters, refused=refused, viewer=request.user, mine=mine)
    return {"listing": listing, "filters": listing.filters, "limits": LIMITS}


def render_list(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The whole page, or its results alone for htmx; a 400 when a filter was refused."""
    listing: DeckListing = context["listing"]
    response = render(
        request,
        RESULTS if results_only(request) else template,
        context,
        status=400 if listing.error else 200,
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


def public_decks(request: HttpRequest) -> HttpResponse:
    return render_list(request, "decks/public.html", listing_context(request, mine=False))
