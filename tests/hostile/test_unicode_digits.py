"""Digits beyond ASCII in a number parameter: str.isdigit() accepts "²" and "٣", which int()
refuses, so a check by isdigit() alone let them through to a 500. Every number a page reads
from its URL is answered with a page or a 4xx instead."""

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db

ODD_DIGITS = ["²", "٣", "1²", "௫"]


@pytest.fixture
def deck():
    owner = User.objects.create_user("digits", password="x-Long-pass-9")
    game = Game.objects.get(slug="conquest-of-orion")
    cards = Card.objects.filter(game=game, card_type__name="Unit")[:3]
    return deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name="Digits",
        visibility="public",
        intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards)),
    )


@pytest.mark.parametrize("digits", ODD_DIGITS)
@pytest.mark.parametrize(
    "path",
    [
        "/decks/?page={d}",
        "/decks/{id}/variants/?page={d}",
        "/decks/{id}/history/?page={d}",
        "/decks/{id}/history/diff/?from={d}",
        "/decks/{id}/goldfish/?seed={d}",
        "/decks/{id}/goldfish/?seed=5&runs={d}",
        "/decks/{id}/goldfish/?seed=5&step=mulligan&pick={d}",
        "/api/v1/decks/{id}/diff/?from={d}",
        "/api/v1/decks/?page={d}",
        "/api/v1/decks/{id}/proxies.png?page={d}",
    ],
)
def test_a_number_written_in_other_digits_is_never_a_server_error(client, deck, path, digits):
    response = client.get(path.format(id=deck.share_key, d=digits))
    assert response.status_code < 500
