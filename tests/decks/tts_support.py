"""Decks and readers shared by the Tabletop Simulator tests."""

from __future__ import annotations

import io
import json
import time
from urllib.parse import urlsplit

from django.conf import settings
from PIL import Image

from cardsite.catalogue.models import Game
from decks.models import DeckEntry
from decks.services import Intake, RequestedCard, deck_create, game_snapshot

COPIES = (2, 1, 3)
# How long a test goes on asking for a save whose sheets are being drawn, as the 503 page
# does by itself: long enough for a few decks' faces on a busy two-core machine. Not a timed
# assertion: a test ends as soon as its save is handed out.
PATIENCE = 600


def downloaded(client, url, **extra):
    """The answer to `url` (a save, page or API, or a sheet) once its sheets are drawn, asking
    again after Retry-After while they are being drawn, as the page that says so does."""
    deadline = time.monotonic() + PATIENCE
    response = client.get(url, **extra)
    while still_drawing(response) and time.monotonic() < deadline:
        assert int(response["Retry-After"]) >= 1
        time.sleep(min(int(response["Retry-After"]), 2))
        response = client.get(url, **extra)
    return response


def still_drawing(response):
    """The page's 503, or the API's or a sheet's 429 saying the sheets are being drawn (not a
    spent budget, which is a 429 too)."""
    if response.status_code == 503:
        return True
    return response.status_code == 429 and "still being drawn" in response.content.decode()


def save_of(client, deck):
    response = downloaded(client, f"/decks/{deck.share_key}/tts.json")
    assert response.status_code == 200, response.status_code
    return json.loads(response.content)


def zone_cards(slug, zone, count):
    """The first `count` cards (by short id) whose type goes in `zone`."""
    cards = game_snapshot(slug).cards.values()
    return sorted((c for c in cards if c.type_zone == zone), key=lambda c: c.short_id)[:count]


def game_deck(owner, slug, *, visibility="public", per_zone=3, name=None):
    """A deck of the game with up to `per_zone` cards in each of its zones, 2, 1 and 3 copies."""
    engine = game_snapshot(slug).engine
    requested = [
        RequestedCard(copies, None, card.short_id)
        for zone in engine.zones
        for card, copies in zip(zone_cards(slug, zone.slug, per_zone), COPIES, strict=False)
    ]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=slug),
        format_slug=engine.formats[0].slug,
        name=name or f"{engine.name} table",
        visibility=visibility,
        intake=Intake(tuple(requested)),
    )


def lone_card_deck(owner, slug, format_slug, zone, count, copies, lone_zone, *, name):
    """A deck of the first `count` cards of `zone` (`copies` of each) and the first card of
    `lone_zone` alone in its zone; and that lone card."""
    cards = zone_cards(slug, zone, count)
    (lone,) = zone_cards(slug, lone_zone, 1)
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=slug),
        format_slug=format_slug,
        name=name,
        visibility="public",
        intake=Intake(
            (
                *(RequestedCard(copies, None, c.short_id) for c in cards),
                RequestedCard(1, None, lone.short_id),
            )
        ),
    )
    return deck, lone


def deck_copies(deck):
    """Each copy of each card in the deck, in the deck's order (zone, then card name)."""
    entries = sorted(
        DeckEntry.objects.filter(deck=deck).select_related("card"),
        key=lambda e: (e.zone, e.card.name),
    )
    return [(e.zone, e.card) for e in entries for _ in range(e.quantity)]


def local(url):
    """An absolute URL under SITE_URL as the test client's path and query."""
    assert url.startswith(settings.SITE_URL + "/"), url
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def decoded(response):
    assert response.status_code == 200, response.status_code
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image


def objects_of(save):
    return save["ObjectStates"]


def cards_of(obj):
    """A zone's card objects: its contained cards, or the single card it is."""
    return obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
