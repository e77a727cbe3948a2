"""Deck pages and accounts. Thin: selectors and services do the work."""

from collections import defaultdict
from typing import Any

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from decks.decklist import encode_code
from decks.selectors import deck_for_reader
from decks.services import RequestedCard, deck_check


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.save())
        return redirect("catalogue:home")
    return render(request, "registration/signup.html", {"form": form})


def deck_detail(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    entries = list(
        deck.entries.select_related("card__card_type", "card__card_set").order_by(
            "card__card_type__name", "card__name"
        )
    )
    result = deck_check(
        game=deck.game,
        format_slug=deck.format,
        faction=deck.faction.name if deck.faction else None,
        requested=[RequestedCard(e.quantity, None, e.card.short_id, e.zone) for e in entries],
    )
    by_type: dict[str, list[Any]] = defaultdict(list)
    for entry in entries:
        by_type[entry.card.card_type.name].append(entry)
    code = encode_code(
        deck.game.slug,
        deck.format,
        deck.faction.name if deck.faction else None,
        [(e.card.short_id, e.quantity, e.zone) for e in entries],
    )
    return render(
        request,
        "decks/deck.html",
        {
            "deck": deck,
            "groups": sorted(by_type.items()),
            "result": result,
            "code": code,
            "share_url": request.build_absolute_uri(deck.get_absolute_url()),
            "format": deck.game.engine.format(deck.format),
        },
    )
