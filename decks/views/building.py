"""A deck against the viewer's collection: building and unbuilding it, the copies the
collection lacks (shown on the deck page and in the builder), and those as a file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from decks.exports.text import export_filename
from decks.models import Deck
from decks.reading.owning import NO_CONFLICTS, built_conflicts, deck_missing, missing_text
from decks.services.building import deck_build, deck_unbuild
from decks.views.common import owned_or_404, readable_or_404
from decks.views.exports import attachment
from engines.errors import InputError

ACTIONS = {"build": deck_build, "unbuild": deck_unbuild}


def collection_context(request: HttpRequest, deck: Deck) -> dict[str, Any]:
    """What decks/_collection.html shows the viewer: the copies their collection lacks for
    the deck, and the cards its built decks compete for. Nothing for an anonymous viewer,
    and no query."""
    if not request.user.is_authenticated:
        return {}
    return {
        "missing": deck_missing(deck=deck, viewer=request.user),
        "conflicts": built_conflicts(user=request.user, deck=deck),
    }


def builder_collection(
    deck: Deck, in_deck: Mapping[str, int], owned: Mapping[str, int]
) -> dict[str, Any]:
    """The builder panel's line about the owner's collection, from the copies it already
    read (`owned`, by short id): how many copies it lacks. A built deck is read in full
    (deck_missing), since its owner's other built decks hold copies too, with the cards they
    compete for."""
    if deck.built_at is None:
        lacking = sum(max(0, n - owned.get(short_id, 0)) for short_id, n in in_deck.items())
        return {"lacking": lacking, "conflicts": NO_CONFLICTS}
    missing = deck_missing(deck=deck, viewer=deck.owner)
    return {
        "lacking": missing.total,
        "conflicts": built_conflicts(user=deck.owner, deck=deck),
    }


@login_required
@require_POST
def deck_build_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Build or unbuild the deck (`action`), then back to the page the button was on."""
    deck = owned_or_404(request, deck_id)
    write = ACTIONS.get(request.POST.get("action", ""))
    back = (
        reverse("decks:edit", args=[deck.share_key])
        if request.POST.get("from") == "edit"
        else deck.get_absolute_url()
    )
    if write is None:
        return HttpResponse("action is build or unbuild.\n", status=400, content_type="text/plain")
    try:
        write(deck=deck, user=signed_in(request))
    except InputError as exc:
        return HttpResponse(as_form_error(exc) + "\n", status=400, content_type="text/plain")
    return redirect(back + "#collection")


@login_required
@require_safe
def deck_missing_file(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The copies the viewer's collection lacks for the deck, as decklist text to download."""
    deck = readable_or_404(request, deck_id)
    text = missing_text(deck=deck, missing=deck_missing(deck=deck, viewer=request.user))
    ascii_name, unicode_name = export_filename(deck, "txt")
    response = HttpResponse(text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = attachment("missing-" + ascii_name, "missing-" + unicode_name)
    # What someone owns is theirs alone: no shared cache may keep it.
    response["Cache-Control"] = "private, no-cache"
    return response
