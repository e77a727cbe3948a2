import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_create


@pytest.fixture
def rates(settings):
    """Set some of the per-scope rates the API and the pages share, for this test."""

    def set_rates(**rates):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **rates,
            },
        }

    return set_rates


@pytest.fixture
def owner(db):
    return User.objects.create_user("hostile-owner", password="x-Long-pass-9")


def capital_deck(owner, visibility="public", copies=1):
    """Conquest for the Capital's Dwarves: 20 cards, or `copies` times as many."""
    dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-for-the-capital"),
        format_slug="faction-deck",
        name="Dwarf hold",
        visibility=visibility,
        intake=Intake(tuple([RequestedCard(copies, None, c.short_id) for c in dwarves])),
    )


@pytest.fixture
def player(db):
    return User.objects.create_user("hostile", password="x-Long-pass-9")


@pytest.fixture
def signed_in(api, player):
    api.force_authenticate(player)
    return api


@pytest.fixture
def nothing_stored():
    """Asserts, after the test, that no deck was written."""
    before = Deck.objects.count()
    yield
    assert Deck.objects.count() == before
