"""A deck's variants: the list a reader may see, and a new one (of one's own deck, or a copy
of someone else's) made from it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from cardsite.api.errors import as_form_error
from decks.history.variants import variant_page
from decks.models import Deck
from decks.services import deck_branch
from decks.services.write import NAME_MAX
from decks.views.common import readable_or_404, tabs_context
from engines.errors import InputError

# Past the last page is the last page (Paginator.get_page); this only bounds the number read.
PAGE_DIGITS = 5


def _listing(request: HttpRequest, deck: Deck, *, status: int = 200, **extra: Any) -> HttpResponse:
    raw = request.GET.get("page", "1")
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= PAGE_DIGITS else 1
    context = {
        "deck": deck,
        "page": variant_page(deck, request.user, number),
        "own": deck.owner_id == request.user.id,
        "name_max": NAME_MAX,
        **tabs_context(request, deck),
        **extra,
    }
    return render(request, "decks/variants.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def deck_variants(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    if request.method != "POST":
        return _listing(request, deck)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    name = request.POST.get("name", "")
    try:
        variant = deck_branch(deck=deck, owner=request.user, name=name)
    except InputError as exc:
        return _listing(request, deck, status=400, error=as_form_error(exc), name=name)
    return redirect("decks:edit", variant.share_key)
