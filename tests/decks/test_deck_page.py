import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create, game_snapshot

pytestmark = pytest.mark.django_db


def deck_of(owner, game, size):
    cards = Card.objects.filter(game__slug=game, card_set__is_official=False)[:size]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=game),
        format_slug=Game.objects.get(slug=game).engine.formats[0].slug,
        name="Page",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def page_queries(client, deck):
    game_snapshot(deck.game.slug)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(deck.get_absolute_url()).status_code == 200
    return len(queries)


def test_the_deck_page_checks_every_format_without_a_query_per_format_or_card(
    client, django_user_model
):
    owner = django_user_model.objects.create_user("pages", password="x-Long-pass-9")
    small = deck_of(owner, "conquest-of-orion", 5)
    large = deck_of(owner, "conquest-of-orion", 40)
    assert len(small.game.engine.formats) >= 2
    # A fixed number, whatever the deck: the History tab's count of kept versions (one
    # indexed COUNT), its planned cards (one query of them) and the count of the variants its
    # reader may see (one query) among them.
    assert page_queries(client, small) == page_queries(client, large) <= 7


def test_the_deck_page_shows_its_legality_in_each_format(client, django_user_model):
    owner = django_user_model.objects.create_user("pages2", password="x-Long-pass-9")
    deck = deck_of(owner, "conquest-of-orion", 5)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert "Constructed: not legal" in page and "Limited: not legal" in page
