"""A deck's playtest table: the game's Table played by hand, the whole session in the URL."""

from __future__ import annotations

import random

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from cardsite.api.errors import as_form_error
from decks.public.presenters import playtest_card
from decks.services import intake_deck, resolve
from decks.services.playtest import decode_actions, encode_actions, playtest_page
from decks.views.common import readable_or_404
from engines.errors import InputError
from engines.playtest import MAX_SEED

SEED_DIGITS = 10


def _seed(raw: str | None) -> int | None:
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= SEED_DIGITS:
        value = int(raw)
        return value if value <= MAX_SEED else None
    return None


def _picked(request: HttpRequest) -> list[int]:
    raw = request.GET.getlist("pick")[:99]
    return [int(p) for p in raw if p.isascii() and p.isdigit() and len(p) <= 5]


def deck_playtest(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    seed = _seed(request.GET.get("seed"))
    text = request.GET.get("a", "")
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
        return redirect(f"{request.path}{query}" + (f"&a={text}" if text else ""))
    context = {"deck": deck, "seed": seed, "new_seed": random.randrange(MAX_SEED + 1)}
    try:
        actions = decode_actions(text)
    except InputError as exc:
        context["error"] = as_form_error(exc)
        actions = []
    resolved = resolve(game=deck.game.slug, intake=intake_deck(deck))
    page, refused = playtest_page(
        resolved=resolved, seed=seed, actions=actions, describe=playtest_card
    )
    context["page"] = page
    context["error"] = context.get("error") or refused
    context["share"] = request.build_absolute_uri(
        f"{request.path}?seed={seed}" + (f"&a={page.actions}" if page.actions else "")
    )
    status = 400 if context["error"] else 200
    return render(request, "decks/playtest.html", context, status=status)
