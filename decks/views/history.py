"""A deck's History tab: its versions page by page, two versions side by side, and its owner's
writes on them (reverting to one, a note on one)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from decks.history.pages import (
    history_page,
    page_of,
    read_number,
    read_version,
    side_by_side,
    version_url,
)
from decks.models import Deck
from decks.services import DeckConflict, DeckContentError, deck_revert, version_annotate
from decks.services.history import NOTE_MAX, VersionNotFound
from decks.views.common import (
    owned_or_404,
    readable_or_404,
    tabs_context,
    version_in,
)
from engines.errors import InputError


def _history(
    request: HttpRequest, deck: Deck, page: int = 1, *, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {
        "deck": deck,
        "history": history_page(deck, page, request.user),
        "note_max": NOTE_MAX,
        **extra,
    }
    context.update(tabs_context(request, deck, context["history"].kept))
    return render(request, "decks/history.html", context, status=status)


@require_GET
def deck_history(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    try:
        page = read_number(request.GET.get("page") or "1", "page")
    except InputError as exc:
        return _history(request, deck, status=400, error=as_form_error(exc))
    return _history(request, deck, page)


@require_GET
def deck_diff(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Two versions side by side: `from`, and `to` (the current version if not given)."""
    deck = readable_or_404(request, deck_id)
    context: dict[str, Any] = {"deck": deck, **tabs_context(request, deck)}
    try:
        a = read_version(request.GET.get("from"), "from")
        b = read_version(request.GET.get("to") or str(deck.version), "to")
    except InputError as exc:
        context["error"] = as_form_error(exc)
        return render(request, "decks/diff.html", context, status=400)
    context.update(a=a, b=b)
    try:
        context["side"] = side_by_side(deck, a, b)
    except VersionNotFound as exc:
        which = "from" if exc.number == a else "to"
        context["error"] = f"{which}: version {exc.number} of this deck was never kept."
        return render(request, "decks/diff.html", context, status=404)
    return render(request, "decks/diff.html", context)


@login_required
@require_POST
def deck_revert_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Make a new version equal to an older one (its cards, planned cards and settings)."""
    deck = owned_or_404(request, deck_id)
    # The service refreshes `deck` in place.
    before = deck.version
    try:
        number = read_version(request.POST.get("number"), "number")
        reverted = deck_revert(
            deck=deck,
            expected_version=version_in(request),
            version=number,
            author=signed_in(request),
        )
    except InputError as exc:
        return _history(request, deck, status=400, error=as_form_error(exc))
    except VersionNotFound as exc:
        error = f"Version {exc.number} of this deck was never kept."
        return _history(request, deck, status=404, error=error)
    except DeckConflict as exc:
        messages.error(
            request,
            f"Nothing was reverted: the deck changed since this page was loaded (it is now at "
            f"version {exc.current}). Here it is as it is now.",
        )
        return redirect(version_url(deck))
    except DeckContentError as exc:
        gone = " ".join(p.message for p in exc.problems)
        messages.error(request, f"Version {number} cannot be brought back: {gone}")
        return redirect(version_url(deck))
    if reverted.version == before:
        messages.info(
            request, f"Version {number} is the same as the current version: nothing to revert."
        )
    else:
        messages.success(
            request, f"Reverted to version {number}: this is version {reverted.version}."
        )
    return redirect(version_url(reverted))


@login_required
@require_POST
def version_note_view(request: HttpRequest, deck_id: str, number: str) -> HttpResponse:
    deck = owned_or_404(request, deck_id)
    try:
        wanted = read_version(number, "number")
    except InputError as exc:
        return _history(request, deck, status=400, error=as_form_error(exc))
    note = request.POST.get("note", "")
    try:
        version_annotate(deck=deck, number=wanted, note=note)
    except InputError as exc:
        return _history(
            request,
            deck,
            page_of(deck, wanted),
            status=400,
            note_error=as_form_error(exc),
            note_for=wanted,
            note_text=note,
        )
    except VersionNotFound as exc:
        raise Http404("No such version of this deck.") from exc
    messages.success(request, f"Note saved on version {wanted}.")
    return redirect(version_url(deck, wanted))
