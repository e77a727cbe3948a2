"""A deck's Open Graph image, for the preview a shared link shows."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from cardsite.limits import spend
from decks.models import Deck
from decks.public.og import og_png
from decks.services import intake_deck, resolve
from decks.views.common import readable_or_404

# Link previews are fetched by other sites' crawlers; an hour is fresh enough for them, and
# the page's og:image URL carries the deck's version, so a changed deck is a new URL anyway.
MAX_AGE = 60 * 60


@require_safe
def deck_og_image(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    resolved = resolve(
        game=deck.game.slug,
        intake=intake_deck(deck),
        faction=deck.faction.name if deck.faction else None,
    )
    # Only drawing costs (a third of a second); the file is read for free afterwards.
    png = og_png(deck=deck, resolved=resolved, before_drawing=lambda: spend(request, "images"))
    response = HttpResponse(png, content_type="image/png")
    # One directive set to True: Django writes a False one out as "private=False", which no
    # cache reads as anything, and nginx then stores nothing.
    scope = "private" if deck.visibility == Deck.Visibility.PRIVATE else "public"
    patch_cache_control(response, **{scope: True}, max_age=MAX_AGE)
    return response
