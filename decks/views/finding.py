"""/decks/: the public decks, filtered by what its URL asks for."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from decks.reading import finding
from decks.reading.selectors import public_deck_listing
from engines.errors import InputError

LIMITS = {"q": finding.Q_MAX, "card": finding.CARD_MAX}


def _results_only(request: HttpRequest) -> bool:
    # htmx asks for the results alone, except when restoring a page from history, which
    # wants the whole page.
    return "HX-Request" in request.headers and "HX-History-Restore-Request" not in request.headers


def public_decks(request: HttpRequest) -> HttpResponse:
    try:
        filters, refused = finding.read_filters(request.GET), None
    except InputError as exc:
        filters, refused = finding.DeckFilters(), exc
    listing = public_deck_listing(filters=filters, refused=refused, viewer=request.user)
    template = "decks/_public_results.html" if _results_only(request) else "decks/public.html"
    response = render(
        request,
        template,
        {"listing": listing, "filters": listing.filters, "limits": LIMITS},
        status=400 if listing.error else 200,
    )
    patch_vary_headers(response, ["HX-Request"])
    return response
