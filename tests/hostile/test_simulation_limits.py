"""Odds and goldfish requests past their limits: a 400 naming the limit, in bounded time."""

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from engines import ENGINES
from engines.goldfish import MAX_RUNS

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans")
    return deck_create(
        owner=User.objects.create_user("sim", password="x-Long-pass-9"),
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Sim",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def test_odds_for_a_deck_of_thirty_two_thousand_cards_are_refused(api):
    body = {"deck_size": 32_000, "copies": 16_000, "draws": 16_000, "at_least": 1}
    response = api.post("/api/v1/odds/", body)
    assert response.status_code == 400
    assert "1000" in " ".join(response.json()["errors"]["deck_size"])


def test_odds_at_the_limit_are_answered(api):
    body = {"deck_size": 1000, "copies": 500, "draws": 500, "at_least": 250, "mulligan": True}
    assert api.post("/api/v1/odds/", body).status_code == 200


def test_every_numeric_policy_knob_has_a_range_declared_by_its_engine():
    for engine in ENGINES.values():
        for param in engine.goldfish_policy:
            if not isinstance(param.default, bool):
                assert param.minimum is not None and param.maximum is not None, param.key


def test_a_policy_of_a_million_turns_is_refused_naming_the_range(api, deck):
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    response = api.post(url, {"runs": 1, "policy": {"turns": 1_000_000}})
    assert response.status_code == 400
    assert "between 1 and 50" in response.json()["errors"]["policy.turns"][0]


def test_runs_shrink_as_the_policy_lengthens_the_game(api, deck):
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    response = api.post(url, {"runs": MAX_RUNS, "policy": {"turns": 50}})
    assert response.status_code == 400
    assert "at most 200,000 runs" in response.json()["errors"]["runs"][0]


def test_an_unpaired_surrogate_in_a_policy_key_is_a_400(api, deck):
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    body = '{"runs": 1, "policy": {"\\ud800": 1}}'
    response = api.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert "surrogate" in response.content.decode()


def test_json_nested_a_thousand_deep_is_a_400(api):
    body = "[" * 1000 + "]" * 1000
    response = api.post("/api/v1/decks/validate/", body, content_type="application/json")
    assert response.status_code == 400 and "nested deeper than 20" in response.json()["detail"]


def test_a_form_encoded_api_body_is_refused_as_a_content_type_the_api_does_not_read(api):
    response = api.post(
        "/api/v1/odds/", "deck_size=5", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415


def test_without_a_worker_a_simulation_past_a_requests_budget_is_refused_naming_the_most(
    api, deck, settings
):
    # A vectorised Orion game costs a tenth of a default Conquest of Fates game
    # (GameEngine.goldfish_cost), and 50 turns five times the default 10: 20,000 units of work
    # is 40,000 such runs.
    settings.CELERY_BROKER_URL = ""
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    response = api.post(url, {"runs": 50_000, "policy": {"turns": 50}})
    assert response.status_code == 400
    assert "at most 40,000 runs" in response.json()["errors"]["runs"][0]
    assert api.post(url, {"runs": 40_000, "policy": {"turns": 50}}).status_code == 200


def test_with_a_worker_a_long_simulation_becomes_a_job_by_its_work_not_its_runs(
    api, deck, settings
):
    settings.CELERY_BROKER_URL = "memory://"
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    assert api.post(url, {"runs": 50_000, "policy": {"turns": 50}}).status_code == 202
