"""My decks (filtered and sorted as the public list is), and a deck's end: deleting it (after
asking), and restoring it within the time."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from decks.reading.selectors import decks_deleted, decks_listed, deleted_deck_of
from decks.services import deck_delete, deck_restore
from decks.services.building import MAX_BUILT_DECKS
from decks.views.common import owned_or_404
from decks.views.finding import listing_context, render_list
from engines.errors import InputError


def _mine(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    deleted = list(decks_deleted(user=request.user))
    by_key = {d.share_key: d for d in deleted}
    return {
        **listing_context(request, mine=True),
        "deleted": deleted,
        # The deck just deleted, for its Undo button (only while it can still be restored).
        "just_deleted": by_key.get(request.GET.get("deleted", "")[:32]),
        **extra,
    }


@login_required
def my_decks(request: HttpRequest) -> HttpResponse:
    restored = request.GET.get("restored", "")[:32]
    context = _mine(request)
    if restored:
        context["just_restored"] = (
            decks_listed(user=request.user, mine=True).filter(share_key=restored).first()
        )
        context["restored_unbuilt"] = request.GET.get("unbuilt") == "1"
        context["max_built"] = MAX_BUILT_DECKS
    return render_list(request, "decks/mine.html", context)


@login_required
def deck_delete_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    """GET: ask (the page a Delete button leads to without JavaScript); POST: delete."""
    deck = owned_or_404(request, deck_id)
    if request.method == "POST":
        deck_delete(deck=deck)
        return redirect(reverse("decks:mine") + f"?deleted={deck.share_key}")
    back = (
        reverse("decks:edit", args=[deck.share_key])
        if request.GET.get("from") == "edit"
        else deck.get_absolute_url()
    )
    return render(request, "decks/delete.html", {"deck": deck, "back": back})


@login_required
@require_POST
def deck_restore_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    # A deck already back (an Undo pressed twice) is simply shown back.
    deck = deleted_deck_of(deck_id=deck_id, user=request.user) or owned_or_404(request, deck_id)
    was_built = deck.built_at is not None
    try:
        deck_restore(deck=deck, owner=signed_in(request))
    except InputError as exc:
        return render(
            request, "decks/mine.html", _mine(request, error=as_form_error(exc)), status=400
        )
    # Back unbuilt: its owner had MAX_BUILT_DECKS built already, which the page then says.
    unbuilt = "&unbuilt=1" if was_built and deck.built_at is None else ""
    return redirect(reverse("decks:mine") + f"?restored={deck.share_key}{unbuilt}")
