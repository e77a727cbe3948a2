"""Deck pages' forms given values their fields do not take: nothing changes."""

import pytest

from cardsite.catalogue.models import Card, Game
from decks.services import deck_create

pytestmark = pytest.mark.django_db


def orion_id():
    return Card.objects.filter(game__slug="conquest-of-orion", card_type__zone="main")[0].short_id


def test_a_builder_form_with_a_bad_version_or_visibility_changes_nothing(client, player):
    deck = deck_create(
        owner=player,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="D",
    )
    client.force_login(player)
    url = f"/decks/{deck.share_key}/edit/card/"
    client.post(url, {"card": orion_id(), "action": "add", "version": "abc"})
    assert not deck.entries.exists()
    client.post(f"/decks/{deck.share_key}/edit/settings/", {"visibility": "everyone"})
    deck.refresh_from_db()
    assert deck.visibility == "private"
    new = client.post(
        "/decks/new/",
        {"game_format": "conquest-of-orion/constructed", "name": "N", "visibility": "x"},
    )
    assert new.status_code == 400 and "Visibility is one of" in new.content.decode()


def test_a_nul_character_in_a_page_query_string_or_form_is_a_400(client, player):
    assert client.get("/search/", {"q": "a\x00b"}).status_code == 400
    client.force_login(player)
    response = client.post("/decks/new/", {"game_format": "x", "name": "a\x00"})
    assert response.status_code == 400 and "NUL" in response.content.decode()


def test_a_description_past_its_limit_is_refused_on_the_page_and_changes_nothing(client, player):
    deck = deck_create(
        owner=player,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="D",
    )
    client.force_login(player)
    client.post(f"/decks/{deck.share_key}/edit/settings/", {"description": "x" * 5001})
    deck.refresh_from_db()
    assert deck.description == "" and deck.version == 1
