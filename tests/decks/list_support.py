"""What the deck list tests share: sample cards, a legal deck's cards, and reading a list page."""

import re

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create

ORION = "conquest-of-orion"


def sample(game, **filters):
    return Card.objects.filter(game__slug=game, card_set__is_official=False, **filters).order_by(
        "number_sort"
    )


def legal_orion_cards():
    # As the load test's deck: 36 Humans and 14 cards of no race, none of them a Planet.
    humans = list(sample(ORION, factions__name="Humans")[:36])
    no_race = sample(ORION, factions__isnull=True).exclude(card_type__name="Planet")
    return humans + list(no_race[:14])


def make(owner, name, *, game=ORION, fmt="constructed", cards=None, visibility="public", **kw):
    """A deck of `cards` (three sample cards if not given): each a card (one copy) or a
    (card, copies) pair."""
    cards = cards if cards is not None else list(sample(game)[:3])
    pairs = [c if isinstance(c, tuple) else (c, 1) for c in cards]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=game),
        format_slug=fmt,
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(n, None, c.short_id) for c, n in pairs)),
        **kw,
    )


def names(response) -> list[str]:
    """The names of the decks a list page shows, in order."""
    html = response.content.decode()
    return re.findall(r'<h2 class="deck-name"><a href="[^"]+">([^<]+)</a>', html)


def item(html: str, name: str) -> str:
    """The list item of the deck named `name`: its faces, facts and links."""
    return next(
        chunk for chunk in html.split('<li class="deck-item">')[1:] if f">{name}</a>" in chunk
    )
