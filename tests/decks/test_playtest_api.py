import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from engines.playtest import MAX_ACTIONS, MAX_SEED

pytestmark = pytest.mark.django_db
URL = "/api/v1/playtest/"


@pytest.fixture
def owner():
    return User.objects.create_user("tester", password="x-Long-pass-9")


@pytest.fixture
def fates_deck(owner):
    cards = Card.objects.filter(card_set__code="COF-SMP", factions__name="Iron Tithe of Vantrix")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-fates"),
        format_slug="standard",
        name="Table",
        visibility="public",
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


def post(body, client=None):
    return (client or APIClient()).post(URL, body, format="json")


def test_a_saved_deck_is_dealt_its_opening_with_the_table_declared(fates_deck):
    response = post({"deck": fates_deck.share_key, "seed": 4})
    assert response.status_code == 200, response.content
    body = response.json()
    hand = body["state"]["zones"]["hand"]
    assert len(hand) == 7 and all(c["card"]["name"] and c["face_up"] for c in hand)
    assert hand[0]["card"]["face"].endswith("/face.png")
    assert all(c["card"] is None for c in body["state"]["zones"]["supply"])
    assert [z["slug"] for z in body["table"]["zones"]][:2] == ["supply", "hand"]
    assert body["state"]["step"] == "First supply drop" and body["state"]["counters"] == {"cq": 0}
    assert {"do": "mulligan", "pick": False} in body["legal_actions"]


def test_the_same_seed_and_actions_give_the_same_answer(fates_deck):
    body = {"deck": fates_deck.share_key, "seed": 7, "actions": [{"do": "mulligan"}]}
    assert post(body).json() == post(body).json()
    assert post({**body, "seed": 8}).json() != post(body).json()


def test_a_posted_decklist_is_playtested_too():
    cards = Card.objects.filter(card_set__game__slug="conquest-for-the-capital")[:20]
    body = {
        "game": "conquest-for-the-capital",
        "format": "faction-deck",
        "cards": [{"id": c.short_id} for c in cards],
        "actions": [{"do": "next"}],
        "seed": 3,
    }
    response = post(body)
    assert response.status_code == 200, response.content
    assert response.json()["state"]["step"] == "Deployment Phase"


def test_an_action_the_rules_refuse_is_a_400_naming_it_and_its_index(fates_deck):
    actions = [{"do": "next"}, {"do": "mulligan"}]
    response = post({"deck": fates_deck.share_key, "seed": 1, "actions": actions})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_action" and body["index"] == 1
    assert body["action"] == {"do": "mulligan"} and body["detail"].startswith("actions[1]")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": MAX_SEED + 1}, "seed"),
        ({"seed": "1"}, "seed"),
        ({"actions": [{"do": "draw"}] * (MAX_ACTIONS + 1)}, "actions"),
        ({"actions": [{"do": "fly"}]}, "actions"),
        ({"actions": [{"do": "draw", "n": 10**12}]}, "actions"),
        ({"actions": [{"do": "draw", "extra": 1}]}, "actions"),
        ({"actions": "draw"}, "actions"),
    ],
)
def test_out_of_bounds_input_is_a_400_naming_the_field(fates_deck, body, field):
    response = post({"deck": fates_deck.share_key, "seed": 1, **body})
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_a_private_deck_is_a_404_to_others_and_dealt_to_its_owner(fates_deck, owner):
    fates_deck.visibility = "private"
    fates_deck.save()
    assert post({"deck": fates_deck.share_key, "seed": 1}).status_code == 404
    mine = APIClient()
    mine.force_authenticate(owner)
    assert post({"deck": fates_deck.share_key, "seed": 1}, mine).status_code == 200
    assert post({"deck": fates_deck.share_key}, mine).status_code == 400  # no seed


def test_a_deck_and_a_decklist_together_are_refused(fates_deck):
    body = {
        "deck": fates_deck.share_key,
        "game": "conquest-of-fates",
        "format": "standard",
        "seed": 1,
    }
    assert post(body).status_code == 400
    assert post({"seed": 1}).status_code == 400


def test_a_faction_deck_is_dealt_its_default_targets_as_the_page_deals_them():
    cards = Card.objects.filter(
        game__slug="conquest-alpha-tactics", card_set__code="TAC-SMP", factions__name="Starfleet"
    ).exclude(card_type__name="Planet")
    body = {
        "game": "conquest-alpha-tactics",
        "format": "faction-deck",
        "cards": [{"id": c.short_id, "quantity": 1} for c in cards],
        "seed": 4,
        "actions": [{"do": "next"}],
    }
    response = APIClient().post(URL, body, format="json")
    assert response.status_code == 200, response.content
    zones = response.json()["state"]["zones"]
    assert len(zones["target-pile"]) == 20
    assert all(len(zones[f"row-{n}"]) == 1 for n in range(1, 5))
