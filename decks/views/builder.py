"""The deck builder: a new deck, search beside the deck, and every edit to it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cardsite.api.errors import as_form_error
from cardsite.catalogue.models import Game
from cardsite.catalogue.search.query import QuerySyntaxError
from cardsite.catalogue.selectors import card_search, cards_in_order
from decks.models import Deck
from decks.selectors import deck_card_counts
from decks.services import (
    DeckConflict,
    DeckContentError,
    deck_create,
    deck_fork,
    deck_set_quantity,
    deck_update,
    intake_pasted,
)
from decks.views.common import owned_or_404, readable_or_404, version_in
from decks.views.panel import choices_from, panel_context, results_context
from engines.errors import InputError

BUILDER_RESULTS = 30
STEPS = {"add": 1, "remove": -1}
# Where a no-JavaScript edit returns the page to: a row's or a result's id.
ANCHOR = re.compile(r"[a-z0-9-]{1,60}")


def _panel_or_back(
    request: HttpRequest,
    deck: Deck,
    message: str = "",
    refused: Sequence[str] = (),
    *,
    conflict: bool = False,
) -> HttpResponse:
    """The panel (for htmx) or the builder again, at the same search, grouping, view and row,
    showing `message` and each of the problems that refused a write (`refused`) on its own."""
    choices = choices_from(request.POST, deck.game.engine)
    if request.headers.get("HX-Request"):
        context = {
            **panel_context(deck, choices),
            "message": message,
            "refused": refused,
            "conflict": conflict,
        }
        return render(request, "decks/_panel.html", context)
    for text in (message, *refused):
        if text:
            messages.warning(request, text)
    anchor = request.POST.get("anchor", "")
    return redirect(choices.url(deck) + (f"#{anchor}" if ANCHOR.fullmatch(anchor) else ""))


def _write(request: HttpRequest, deck: Deck, write: Any, **kwargs: Any) -> HttpResponse:
    """Run one write service and show the panel, or why the write was refused."""
    try:
        deck = write(deck=deck, expected_version=version_in(request), author=request.user, **kwargs)
    except DeckConflict as exc:
        deck.refresh_from_db()
        message = (
            f"The deck changed elsewhere (now version {exc.current}); showing it as it is now."
        )
        return _panel_or_back(request, deck, message, conflict=True)
    except DeckContentError as exc:
        return _panel_or_back(request, deck, refused=[p.message for p in exc.problems])
    except InputError as exc:
        return _panel_or_back(request, deck, as_form_error(exc))
    return _panel_or_back(request, deck)


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    choices = [
        (f"{g.slug}/{f.slug}", f"{g.name}: {f.name}")
        for g in Game.objects.order_by("name")
        for f in g.engine.formats
    ]
    if request.method != "POST":
        return render(request, "decks/new.html", {"choices": choices})
    game_slug, _, fmt = request.POST.get("game_format", "").partition("/")
    game = next((g for g in Game.objects.filter(slug=game_slug[:60])), None)
    try:
        if game is None:
            raise InputError("game_format", "Choose a game and format.")
        deck = deck_create(
            owner=request.user,
            game=game,
            format_slug=fmt,
            name=request.POST.get("name", ""),
            visibility=request.POST.get("visibility", Deck.Visibility.PRIVATE),
        )
    except InputError as exc:
        context = {"choices": choices, "error": as_form_error(exc)}
        return render(request, "decks/new.html", context, status=400)
    return redirect("decks:edit", deck.share_key)


@login_required
def deck_edit(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The builder page; for htmx, the deck panel alone (a new grouping) or the results."""
    deck = owned_or_404(request, deck_id)
    choices = choices_from(request.GET, deck.game.engine)
    htmx = bool(request.headers.get("HX-Request"))
    if htmx and request.headers.get("HX-Target") == "deck-panel":
        return render(request, "decks/_panel.html", panel_context(deck, choices))
    context: dict[str, Any] = {
        "choices": choices,
        "q": choices.q,
        "search_error": "",
        "limit": BUILDER_RESULTS,
    }
    cards = None
    if choices.q:
        try:
            found = card_search(text=choices.q, game=deck.game.slug)
            cards = cards_in_order(list(found.ids[:BUILDER_RESULTS]))
            context["warnings"] = found.warnings
        except QuerySyntaxError as exc:
            context["search_error"] = str(exc)
    if htmx:
        counts = deck_card_counts(deck=deck)
        context.update(results_context(deck, choices, cards, counts), deck=deck)
        return render(request, "decks/_results.html", context)
    panel = panel_context(deck, choices, with_export=True)
    context.update(panel, **results_context(deck, choices, cards, panel["in_deck"]))
    return render(request, "decks/edit.html", context)


@login_required
@require_POST
def deck_edit_card(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Add (+1) or remove (-1) one copy of a card."""
    deck = owned_or_404(request, deck_id)
    return _write(
        request,
        deck,
        deck_set_quantity,
        card=request.POST.get("card", "")[:12],
        zone=request.POST.get("zone", "")[:20] or None,
        step=STEPS.get(request.POST.get("action", ""), 0),
    )


@login_required
@require_POST
def deck_edit_settings(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = owned_or_404(request, deck_id)
    changes = {
        k: request.POST[k].strip()
        for k in ("name", "description", "visibility", "format")
        if k in request.POST
    }
    return _write(request, deck, deck_update, changes=changes)


@login_required
@require_POST
def deck_import(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Replace the deck's cards with a pasted text decklist or deck code."""
    deck = owned_or_404(request, deck_id)
    try:
        intake = intake_pasted(request.POST.get("decklist", ""), deck.game.engine)
    except InputError as exc:
        return _panel_or_back(request, deck, as_form_error(exc))
    return _write(request, deck, deck_update, changes={}, intake=intake)


@login_required
@require_POST
def deck_fork_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    return redirect("decks:edit", deck_fork(deck=deck, owner=request.user).share_key)
