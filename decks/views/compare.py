"""Two decks side by side (/decks/compare/?a=&b=), and the form that picks them: each field
takes a deck's id or any link to one of its pages."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from decks.history.reads import DifferentGames
from decks.history.variants import picker_decks, side_by_side
from decks.models import Deck
from decks.views.common import readable_or_404
from engines.errors import InputError

# A deck's id is 16 characters (Deck.share_key); 40 leaves room and bounds the lookup.
ID_MAX = 40
# A pasted link: room for a scheme, a host and a deck's deepest page.
LINK_MAX = 300
DECK_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{ID_MAX}}}")
# The id after /decks/ in a link's path (a page of the deck, or its API record).
LINKED_ID = re.compile(rf"/decks/([A-Za-z0-9_-]{{1,{ID_MAX}}})(?:/|$)")
# Paths under /decks/ that are not decks.
NOT_IDS = {"mine", "new", "compare"}
SLOTS = ("a", "b")


def deck_id_in(text: str, field: str) -> str:
    """The deck id in what was typed or pasted: an id, or a link to a page of the deck.
    InputError naming `field` for anything else, and for text past LINK_MAX characters."""
    text = text.strip()
    if len(text) > LINK_MAX:
        raise InputError(field, f"A deck id or link is at most {LINK_MAX} characters.")
    if DECK_ID.fullmatch(text):
        return text
    found = LINKED_ID.search(urlsplit(text).path) if "/" in text else None
    if found is None or found.group(1) in NOT_IDS:
        raise InputError(
            field,
            f"“{text[:ID_MAX]}{'…' if len(text) > ID_MAX else ''}” is neither a deck id "
            f"(up to {ID_MAX} letters, digits, - and _) nor a link to a deck.",
        )
    return found.group(1)


def _asked(request: HttpRequest) -> tuple[dict[str, str], dict[str, str]]:
    """Each slot's deck id (its field, or else the user's deck picked from the list beside it)
    and the refusal for each slot that holds neither."""
    ids, errors = {}, {}
    for slot in SLOTS:
        text = request.GET.get(slot, "").strip() or request.GET.get(f"{slot}_mine", "").strip()
        if not text:
            continue
        try:
            ids[slot] = deck_id_in(text, slot)
        except InputError as exc:
            errors[slot] = exc.message
    return ids, errors


def _picker(
    request: HttpRequest,
    errors: dict[str, str] | None = None,
    *,
    a: Deck | None = None,
    status: int = 200,
    different: str = "",
) -> HttpResponse:
    """The form: with A chosen (and readable), only B is asked for, offering the user's other
    decks of A's game; otherwise both, each offering all of the user's decks (bounded)."""
    errors = errors or {}
    mine = picker_decks(request.user, a.game.slug if a else None)
    slots = [
        {
            "slot": slot,
            "letter": slot.upper(),
            # What was typed, shown again beside its error (cut to what the field takes).
            "typed": request.GET.get(slot, "")[:LINK_MAX],
            "error": errors.get(slot, ""),
            "mine": [d for d in mine if a is None or d.pk != a.pk],
        }
        for slot in SLOTS
        if not (slot == "a" and a)
    ]
    context = {"a": a, "slots": slots, "link_max": LINK_MAX, "different": different}
    return render(request, "decks/compare.html", context, status=status)


@require_http_methods(["GET", "HEAD"])
def deck_compare(request: HttpRequest) -> HttpResponse:
    ids, errors = _asked(request)
    if errors:
        return _picker(request, errors, status=400)
    decks = {slot: readable_or_404(request, deck_id) for slot, deck_id in ids.items()}
    if len(decks) < len(SLOTS):
        return _picker(request, a=decks.get("a"))
    try:
        compared = side_by_side(decks["a"], decks["b"])
    except DifferentGames as exc:
        return _picker(request, a=decks["a"], status=400, different=str(exc))
    return render(
        request,
        "decks/compare.html",
        {"compared": compared, "charts": compared.charts},
    )
