import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import RequestedCard, deck_create

pytestmark = pytest.mark.django_db


def deck_of(game, code, faction=None, visibility="public"):
    owner = User.objects.create_user(f"gf-{game}", password="x-Long-pass-9")
    cards = Card.objects.filter(card_set__code=code)
    if faction:
        cards = cards.filter(factions__name=faction)
    fmt = Game.objects.get(slug=game).engine.formats[0].slug
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=game),
        format_slug=fmt,
        name="GF",
        visibility=visibility,
        requested=[RequestedCard(1, None, c.short_id) for c in cards],
    )


def test_the_sample_hand_shows_the_opening_hand_as_card_faces(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    page = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 5}).content.decode()
    assert page.count("/face.png") == 7
    assert "Next battle (+7)" in page and "Mulligan" in page


def test_drawing_and_the_next_battle_grow_the_hand_and_the_same_seed_keeps_it(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    url = f"/decks/{deck.share_key}/goldfish/"
    hand = client.get(url, {"seed": 5}).context["hand"]
    assert client.get(url, {"seed": 5}).context["hand"] == hand
    more = client.get(url, {"seed": 5, "extra": 8}).context["hand"]
    assert len(more) == 15 and more[:7] == hand
    assert client.get(url, {"seed": 5, "mulligan": 1}).context["mulliganed"] is True


def test_simulating_shows_charts_and_the_exact_odds_beside_the_simulated_ones(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    response = client.get(
        f"/decks/{deck.share_key}/goldfish/",
        {"seed": 1, "runs": 2000, "policy_mulligan_below_units": 6},
    )
    odds = response.context["odds"]
    assert abs(odds["exact"] - odds["simulated"]) < 0.05
    page = response.content.decode()
    assert "Total cq" in page and "exact" in page


def test_the_orion_page_says_its_income_figures_are_assumed(client):
    deck = deck_of("conquest-of-orion", "ORI-SMP", "Humans")
    page = client.get(
        f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 50}
    ).content.decode()
    assert "resource icons are missing" in page


def test_a_private_deck_has_no_goldfish_page_for_others(client):
    deck = deck_of("fate-foretold", "FF-SMP", visibility="private")
    assert client.get(f"/decks/{deck.share_key}/goldfish/").status_code == 404
