"""What several deck pages share: finding the deck and reading the version a form was built
from."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from decks.models import Deck
from decks.selectors import deck_for_reader


def readable_or_404(request: HttpRequest, deck_id: str) -> Deck:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    return deck


def owned_or_404(request: HttpRequest, deck_id: str) -> Deck:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None or deck.owner_id != request.user.id:
        raise Http404("No deck of yours with that id.")
    return deck


def version_in(request: HttpRequest) -> int | None:
    """The deck version a form was built from: None when absent, and -1 (a version no deck
    has, so the write is refused as stale) when it is not a version number."""
    raw = request.POST.get("version", "")
    if not raw:
        return None
    return int(raw) if raw.isdigit() and len(raw) < 10 else -1
