import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def fates_deck():
    owner = User.objects.create_user("tabler", password="x-Long-pass-9")
    cards = Card.objects.filter(card_set__code="COF-SMP", factions__name="Iron Tithe of Vantrix")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-fates"),
        format_slug="standard",
        name="Table",
        visibility="public",
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


def url(deck):
    return f"/decks/{deck.share_key}/playtest/"


def test_a_new_session_goes_to_a_url_holding_its_seed(fates_deck):
    response = Client().get(url(fates_deck))
    assert response.status_code == 302 and re.search(r"\?seed=\d+$", response["Location"])


def test_the_table_is_drawn_from_the_url_and_every_card_menu_replays_a_move(fates_deck):
    page = Client().get(url(fates_deck) + "?seed=5")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Location 7" in html and "Supply Deck" in html and "Mulligan" in html
    move = re.search(r'href="(\?seed=5&amp;a=m\d+\.location-1)"', html)
    assert move, "a hand card can be moved to a location"
    moved = Client().get(url(fates_deck) + move.group(1).replace("&amp;", "&"))
    assert moved.status_code == 200 and "Moved " in moved.content.decode()
    assert "Undo" in moved.content.decode()


def test_an_action_the_rules_refuse_is_a_400_showing_the_table_before_it(fates_deck):
    response = Client().get(url(fates_deck) + "?seed=5&a=n_g")
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r"data-refusal>Only once, in the opening</div>", html)
    assert "· Supply" in html or "Turn 1" in html


def test_a_link_that_no_longer_replays_says_which_of_its_actions_broke(fates_deck):
    response = Client().get(url(fates_deck) + "?seed=5&a=n_g_d_d")
    assert response.status_code == 400
    assert "(action 2 of the link; it and the 2 after it are left out)" in response.content.decode()


def test_a_malformed_actions_parameter_is_a_400_naming_it(fates_deck):
    for bad in ("zzz", "m1", "d" + "9" * 20, "_".join(["n"] * 501)):
        response = Client().get(url(fates_deck) + f"?seed=5&a={bad}")
        assert response.status_code == 400, bad


def test_picking_cards_without_javascript_goes_to_the_canonical_url(fates_deck):
    response = Client().get(url(fates_deck) + "?seed=5&a=d&do=g&pick=3&pick=x")
    assert response.status_code == 302 and response["Location"].endswith("?seed=5&a=d_g3")


def test_a_private_deck_is_a_404_to_others(fates_deck):
    fates_deck.visibility = "private"
    fates_deck.save()
    assert Client().get(url(fates_deck) + "?seed=1").status_code == 404


def test_the_deck_page_links_to_the_playtester(fates_deck):
    assert url(fates_deck) in Client().get(fates_deck.get_absolute_url()).content.decode()


@pytest.fixture
def orion_deck():
    owner = User.objects.create_user("orioner", password="x-Long-pass-9")
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans")[:10]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Orion table",
        visibility="public",
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


def test_orions_table_shows_the_planet_row_with_the_rulebooks_common_planets(orion_deck):
    # §1.3 Game Start: "two Ice Planets, one Rock Planet, and one Lava Planet ... in the
    # planet row": the catalogue's own cards, with their faces.
    html = Client().get(url(orion_deck) + "?seed=3").content.decode()
    row = html[html.index('data-zone="planets"') : html.index('data-zone="neutral"')]
    assert "Planet row" in row and row.count("Ice Planet</span>") == 2
    assert "Rock Planet</span>" in row and "Lava Planet</span>" in row
    ice = Card.objects.get(card_set__code="ORI-RB", name="Ice Planet")
    assert f"/cards/{ice.short_id}/" in row or ice.short_id in row


def test_orions_turn_passes_through_the_post_combat_step(orion_deck):
    # §1.10: "Post-Combat step: After combat is completed, you retreat with each unit you
    # attacked with that survived combat onto a planet you control."
    page = Client().get(url(orion_deck) + "?seed=3&a=" + "_".join(["n"] * 7))
    assert page.status_code == 200
    assert "· Post-Combat step" in page.content.decode()
