"""A deck's page, your own decks, and a deck's proxies."""

from __future__ import annotations

from collections import defaultdict

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from cardsite.api.errors import as_form_error
from cardsite.embeds import DECK_SIZE, embed_box
from cardsite.limits import client_key, throttle_page
from decks.exports.printing import deck_order, options_for, print_order
from decks.history.variants import lineage
from decks.jobs import proxies_job
from decks.models import Deck
from decks.public.description import deck_description, description_summary
from decks.public.presenters import deck_meta
from decks.reading.selectors import planned_cards, stated_faction
from decks.services import (
    ResolvedDeck,
    ResolvedEntry,
    check,
    deck_charts,
    intake_deck,
    legality,
    resolve,
)
from decks.views.building import collection_context
from decks.views.common import export_context, readable_or_404, tabs_context
from engines.errors import InputError

TYPE_NOT_GIVEN = "Type not given"


def deck_detail(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    resolved = resolve(
        game=deck.game.slug,
        intake=intake_deck(deck),
        faction=deck.faction.name if deck.faction else None,
    )
    # One resolve answers every format: the page costs the same however many a game has.
    results = legality(resolved)
    result = next((r for r in results if r.format.slug == deck.format), None)
    description = deck_description(deck=deck)
    summary = description_summary(html_text=description)
    fmt = deck.game.engine.format(deck.format)
    return render(
        request,
        "decks/deck.html",
        {
            "deck": deck,
            "groups": type_groups(deck, resolved),
            "result": result or check(resolved, deck.format),
            "share_url": request.build_absolute_uri(deck.get_absolute_url()),
            "description": description,
            "meta": deck_meta(
                deck=deck,
                resolved=resolved,
                format_name=fmt.name if fmt else deck.format,
                summary=summary,
            ),
            "format": fmt,
            "faction": stated_faction(deck),
            "legality": [(r.format, r.legal) for r in results],
            "charts": deck_charts(resolved),
            **tabs_context(request, deck),
            # Beside the deck, not in it: nothing above (counts, checks, exports) sees them.
            "planned": planned_cards(deck=deck),
            "lineage": lineage(deck, request.user),
            **export_context(deck, resolved),
            # A private deck has no embed (decks/views/embeds.py).
            "embed": None
            if deck.visibility == Deck.Visibility.PRIVATE
            else embed_box(
                embed_path=reverse("deck-embed", args=[deck.share_key]),
                title=deck.name,
                size=DECK_SIZE,
                game=deck.game.slug,
            ),
            **collection_context(request, deck),
        },
    )


Group = tuple[str, list[tuple[ResolvedEntry, str]], int]


def type_groups(deck: Deck, resolved: ResolvedDeck) -> list[Group]:
    """The deck's cards by type, each type's rows by name: (type, [(entry, zone name or "")],
    copies). The deck page and its embed list them alike."""
    by_type: dict[str, list[ResolvedEntry]] = defaultdict(list)
    for entry in sorted(resolved.entries, key=lambda e: e.card.name):
        by_type[entry.card.card_type or TYPE_NOT_GIVEN].append(entry)
    engine = deck.game.engine
    # A zone is worth naming on a row only where the game splits a deck into several; its
    # name, not its slug, is what a reader knows it by.
    zone_names = {z.slug: z.name for z in engine.zones} if len(engine.zones) > 1 else {}
    # Each heading counts copies, as the deck's chart and card count do.
    return [
        (
            name,
            [(e, zone_names.get(e.zone, e.zone) if zone_names else "") for e in entries],
            sum(e.quantity for e in entries),
        )
        for name, entries in sorted(by_type.items())
    ]


@throttle_page("proxies")
def deck_proxies(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The deck as a printable PDF of proxies; a bad option, or a deck too large to print
    on one sheet, is a 400 naming it."""
    deck = readable_or_404(request, deck_id)
    try:
        options = options_for(request.GET, user=request.user)
        order = deck_order(deck, options)
    except InputError as exc:
        return HttpResponse(
            f"Cannot print: {exc.field}: {as_form_error(exc)}\n",
            status=400,
            content_type="text/plain",
        )
    if job := proxies_job(order=order, owner=request.user, client=client_key(request)):
        return redirect(job)
    response = HttpResponse(print_order(order), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{deck.share_key}-proxies.pdf"'
    return response
