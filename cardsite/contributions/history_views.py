"""A card's history page, with a curator's Revert and Confirm buttons. Not cached: what it
shows depends on who reads it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from cardsite.accounts import signed_in
from cardsite.catalogue import history
from cardsite.catalogue.history import card_change_get
from cardsite.catalogue.models import Card
from cardsite.catalogue.selectors import card_get
from cardsite.contributions.selectors import is_curator
from cardsite.contributions.services.history import card_confirm_as, change_revert
from engines.errors import InputError


def _card(short_id: str) -> Card:
    card = card_get(short_id=short_id)
    if card is None:
        raise Http404(f"No card {short_id!r}.")
    return card


def _page(request: HttpRequest, card: Card, error: str = "", status: int = 200) -> HttpResponse:
    changes = history.card_history(card=card)
    can_curate = is_curator(request.user, card.game_id)
    return render(
        request,
        "contributions/card_history.html",
        {
            "card": card,
            "changes": changes,
            "can_curate": can_curate,
            "can_confirm": can_curate and card.community == "sourced",
            "error": error,
        },
        status=status,
    )


@require_GET
def card_history(request: HttpRequest, short_id: str) -> HttpResponse:
    return _page(request, _card(short_id))


def _back(card: Card) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("contributions:card-history", args=[card.short_id]))


@login_required
@require_POST
def revert(request: HttpRequest, short_id: str, change: int) -> HttpResponse:
    card = _card(short_id)
    found = card_change_get(card=card, pk=change)
    if found is None:
        raise Http404(f"No change {change} of this card.")
    try:
        change_revert(user=signed_in(request), change=found)
    except InputError as exc:
        return _page(request, card, f"Not reverted: {exc.message}.", status=400)
    if found.field == "card":
        # Reverting a card's addition removes the card: its game's page is what is left.
        return HttpResponseRedirect(card.game.get_absolute_url())
    return _back(card)


@login_required
@require_POST
def confirm(request: HttpRequest, short_id: str) -> HttpResponse:
    card = _card(short_id)
    try:
        card_confirm_as(user=signed_in(request), card=card)
    except InputError as exc:
        return _page(request, card, f"Not confirmed: {exc.message}.", status=400)
    return _back(card)
