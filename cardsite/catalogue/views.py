"""Catalogue pages. Thin: fetch through selectors, render a template."""

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render

from cardsite.catalogue import selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "catalogue/home.html", {"games": selectors.game_list()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = selectors.game_get(slug=slug)
    if game is None:
        raise Http404(f"No game {slug!r}.")
    return render(request, "catalogue/game.html", {"game": game})


def card_detail(request: HttpRequest, short_id: str, slug: str | None = None) -> HttpResponse:
    card = selectors.card_get(short_id=short_id)
    if card is None:
        raise Http404(f"No card {short_id!r}.")
    if slug != card.slug:
        return HttpResponsePermanentRedirect(card.get_absolute_url())
    stats = [
        (spec, card.stats[spec.key]) for spec in card.game.engine.stats if spec.key in card.stats
    ]
    return render(request, "catalogue/card.html", {"card": card, "stats": stats})


def short_link(request: HttpRequest, short_id: str) -> HttpResponse:
    """/c/<id>, the target of printed QR codes. Temporary, so a card's page URL may change later."""
    card = selectors.card_get(short_id=short_id.lower())
    if card is None:
        raise Http404(f"No card {short_id!r}.")
    return redirect(card.get_absolute_url())
