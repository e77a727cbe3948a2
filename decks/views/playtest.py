"""A deck's playtest table: the game's Table played by hand, the whole session in the URL.

Every move is a link to the session one action longer, so the page works without JavaScript;
the page's script asks for the same URL with `HX-Request` and gets only the table's fragment,
which it swaps in place."""

from __future__ import annotations

import random
import re
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode

from cardsite.api.errors import as_form_error
from decks.models import Deck
from decks.public.presenters import playtest_card
from decks.reading.selectors import deck_for_reader, own_decks_of_format
from decks.services.playtest import (
    decode_actions,
    encode_actions,
    played_deck,
    playtest_page,
    second_deck_default,
    second_deck_of,
)
from decks.services.resolve import ResolvedDeck
from decks.views.common import ascii_number, readable_or_404
from engines.errors import InputError
from engines.playtest import MAX_SEED
from engines.rules import DeckCard

SEED_DIGITS = 10
_COMPRESS = GZipMiddleware(lambda request: HttpResponse())
# A second deck is named by its share key, as every deck link names it.
SHARE_KEY = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _seed(raw: str | None) -> int | None:
    value = ascii_number(raw, SEED_DIGITS)
    return value if value is not None and value <= MAX_SEED else None


def _picked(request: HttpRequest) -> list[int]:
    raw = request.GET.getlist("pick")[:99]
    return [int(p) for p in raw if p.isascii() and p.isdigit() and len(p) <= 5]


def _second_deck(
    request: HttpRequest, deck: Deck, resolved: ResolvedDeck
) -> tuple[dict[str, Any] | None, tuple[DeckCard, ...], str]:
    """The second deck the table is played with: what the page shows of it, its cards, and
    the `with` parameter every link carries. A deck the viewer may not read is a 404; one of
    another game or format, or a malformed key, an InputError naming `with`."""
    slot = second_deck_of(resolved, deck.format)
    key = request.GET.get("with", "")
    if slot is None:
        return None, (), ""
    shown = {
        "name": slot.name,
        "default_name": slot.default_name,
        "source": slot.source,
        "chosen": "",
        "options": own_decks_of_format(
            user=request.user, game_id=deck.game_id, format_slug=slot.format
        ),
    }
    if not key:
        return shown, second_deck_default(resolved, slot), ""
    if not SHARE_KEY.fullmatch(key):
        raise InputError("with", "a deck's id: 1 to 32 letters, digits, '-' or '_'")
    second = deck_for_reader(deck_id=key, user=request.user)
    if second is None:
        raise Http404("No deck with that id, or it is private.")
    if second.game_id != deck.game_id or second.format != slot.format:
        raise InputError("with", f"{second.name!r} is not a {slot.name.lower()} of this game")
    cards = played_deck(deck=second).deck_cards
    if (second.share_key, second.name) not in shown["options"]:
        shown["options"] = [*shown["options"], (second.share_key, second.name)]
    return {**shown, "chosen": second.share_key}, cards, "&" + urlencode({"with": key})


def deck_playtest(request: HttpRequest, deck_id: str) -> HttpResponseBase:
    deck = readable_or_404(request, deck_id)
    seed = _seed(request.GET.get("seed"))
    text = request.GET.get("a", "")
    second_key = request.GET.get("with", "")
    tail = "&" + urlencode({"with": second_key}) if second_key else ""
    if seed is None or request.GET.get("do") in ("g", "c"):
        # A new shuffle, or cards picked in the form: to the canonical URL, which holds the
        # whole session (seed and actions) and so can be shared.
        seed = seed if seed is not None else random.randrange(MAX_SEED + 1)
        query = f"?seed={seed}"
        if kind := request.GET.get("do"):
            try:
                before = decode_actions(text)
            except InputError:
                before = []
            picked = {"do": "mulligan" if kind == "g" else "choose", "cards": _picked(request)}
            text = encode_actions([*before, picked])
        return redirect(f"{request.path}{query}" + (f"&a={text}" if text else "") + tail)
    context: dict[str, Any] = {
        "deck": deck,
        "seed": seed,
        "new_seed": random.randrange(MAX_SEED + 1),
    }
    try:
        actions = decode_actions(text)
    except InputError as exc:
        context["error"] = as_form_error(exc)
        actions = []
    resolved = played_deck(deck=deck)
    try:
        second, second_cards, tail = _second_deck(request, deck, resolved)
    except InputError as exc:
        context["error"] = context.get("error") or as_form_error(exc)
        second, second_cards, tail = None, (), ""
    page, refusal = playtest_page(
        resolved=resolved,
        seed=seed,
        actions=actions,
        describe=playtest_card,
        second=second_cards,
        tail=tail,
    )
    context.update(page=page, refusal=refusal, second=second, tail=tail)
    context["share"] = request.build_absolute_uri(f"{request.path}{page.link}")
    status = 400 if context.get("error") or refusal else 200
    # The page's script asks for the table alone; a browser loading the URL gets the page.
    fragment = request.headers.get("HX-Request") == "true"
    template = "decks/playtest_table.html" if fragment else "decks/playtest.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    if not fragment:
        return response
    # Each of a table's few hundred move links spells out the whole session, so the fragment
    # is ~100 KB that compresses twentyfold. Only the fragment: it holds no secret (no CSRF
    # token, no deck but the one in its own URL), which compressing a response that reflects
    # its query (the session) beside one would risk (BREACH).
    return _COMPRESS.process_response(request, response)
