"""How a deck's page presents itself to search engines and link previews (base.html's <head>):
its description, canonical URL, and Open Graph title and image (decks/public/og.py draws it).

Shown only to whoever may read the deck (the view has checked), and a deck that is not public
asks not to be indexed: an unlisted deck's link is for those it was given to."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import reverse

from cardsite.embeds import oembed_link
from cardsite.seo import DESCRIPTION_CHARS, PageMeta, absolute, trimmed
from decks.models import Deck
from decks.public.og import OG_SIZE
from decks.services import ResolvedDeck
from engines.rules import DeckCard

SAMPLE_CARDS = " Includes unofficial sample cards."


def deck_meta(*, deck: Deck, resolved: ResolvedDeck, format_name: str, summary: str) -> PageMeta:
    """`summary`: the deck's own description as one line of text, or ""."""
    game = deck.game.name
    text = summary or (
        f"A {game} deck ({format_name}) by {deck.owner.get_username()}: "
        f"{resolved.counts['total']} cards."
    )
    # Kept whole however long the deck's description is.
    note = SAMPLE_CARDS if any(not e.card.official for e in resolved.entries) else ""
    og_image = reverse("decks:og-image", args=[deck.share_key]) + f"?v={deck.version}"
    canonical = absolute(deck.get_absolute_url())
    # A private deck has no embed (decks/views/embeds.py): nothing to discover.
    private = deck.visibility == Deck.Visibility.PRIVATE
    return PageMeta(
        description=trimmed(text, DESCRIPTION_CHARS - len(note)) + note,
        canonical=canonical,
        title=f"{deck.name} · {game}",
        image=absolute(og_image),
        image_width=OG_SIZE[0],
        image_height=OG_SIZE[1],
        image_alt=f"Key cards of the deck {deck.name}, a {game} deck",
        noindex=deck.visibility != Deck.Visibility.PUBLIC,
        oembed="" if private else oembed_link(canonical),
    )


def playtest_card(card: DeckCard) -> dict[str, Any]:
    """A card on a playtest table as the page and the API show it: its face and page links.
    A card the table starts with that the catalogue lacks has a name and no page or face."""
    face, url = _card_links(card.key) if card.key else (None, None)
    return {"id": card.key, "name": card.name, "type": card.card_type, "face": face, "url": url}


@lru_cache(maxsize=8192)
def _card_links(key: str) -> tuple[str, str]:
    # A playtest move describes every visible card again: reversing two URLs for each is a
    # tenth of the move's work, and a card's URLs never change while the site runs.
    return reverse("catalogue:card-face", args=[key]), reverse("catalogue:card-bare", args=[key])
