import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def fates_deck():
    owner = User.objects.create_user("fisher", password="x-Long-pass-9")
    cards = Card.objects.filter(card_set__code="COF-SMP", factions__name="Iron Tithe of Vantrix")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-fates"),
        format_slug="standard",
        name="Fish",
        visibility="public",
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


def test_a_deck_goldfishes_with_the_same_answer_for_the_same_seed(fates_deck):
    url = f"/api/v1/decks/{fates_deck.share_key}/goldfish/"
    first = APIClient().post(url, {"runs": 300, "seed": 9}, format="json")
    assert first.status_code == 200, first.content
    body = first.json()
    assert (body["game"], body["runs"], body["seed"]) == ("conquest-of-fates", 300, 9)
    assert set(body["summary"]) >= {"total_cq", "cq_per_battle", "mulligan_rate"}
    assert APIClient().post(url, {"runs": 300, "seed": 9}, format="json").json() == body


def test_policy_options_change_the_answer_and_bad_ones_are_named(fates_deck):
    url = f"/api/v1/decks/{fates_deck.share_key}/goldfish/"
    eager = (
        APIClient()
        .post(url, {"runs": 300, "seed": 1, "policy": {"mulligan_below_units": 8}}, format="json")
        .json()
    )
    assert eager["summary"]["mulligan_rate"] > 0
    bad = APIClient().post(url, {"runs": 10, "policy": {"bluff": 1}}, format="json")
    assert bad.status_code == 400 and "policy.bluff" in bad.json()["errors"]


def test_runs_above_the_cap_are_a_400_that_says_so(fates_deck):
    response = APIClient().post(
        f"/api/v1/decks/{fates_deck.share_key}/goldfish/", {"runs": 1_000_001}, format="json"
    )
    assert response.status_code == 400
    assert "1,000,000" in response.json()["errors"]["runs"][0]


def test_a_private_deck_cannot_be_goldfished_by_others(fates_deck):
    fates_deck.visibility = "private"
    fates_deck.save()
    assert (
        APIClient()
        .post(f"/api/v1/decks/{fates_deck.share_key}/goldfish/", {"runs": 5}, format="json")
        .status_code
        == 404
    )


def test_a_posted_decklist_goldfishes_too():
    body = {
        "game": "fate-foretold",
        "format": "speed-run",
        "runs": 200,
        "seed": 3,
        "policy": {"alignment": 3},
        "cards": [
            {"id": c.short_id, "quantity": 1}
            for c in Card.objects.filter(
                card_set__code="FF-SMP", card_type__name__in=["Nest Card", "Sigil"]
            )[:61]
        ],
    }
    response = APIClient().post("/api/v1/goldfish/", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["summary"]["alignment"] == 3
    assert len(response.json()["charts"]["aligned_by_turn"]) == 40


def test_the_command_prints_json_with_a_progress_bar(fates_deck):
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "goldfish",
        f"--deck={fates_deck.share_key}",
        "--runs",
        "2500",
        "--seed",
        "4",
        "--policy",
        "mulligan_below_units=2",
        stdout=out,
        stderr=err,
    )
    result = json.loads(out.getvalue())
    assert result["runs"] == 2500
    assert "2500/2500" in err.getvalue()


def test_the_command_refuses_too_many_runs(fates_deck):
    with pytest.raises(CommandError, match="1,000,000"):
        call_command(
            "goldfish",
            f"--deck={fates_deck.share_key}",
            "--runs",
            "2000000",
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )


def fate_deck(format_slug):
    owner = User.objects.create_user(f"seer-{format_slug}", password="x-Long-pass-9")
    nest = Card.objects.filter(card_set__code="FF-SMP", card_type__name="Nest Card")
    sigils = Card.objects.filter(card_set__code="FF-SMP", card_type__name="Sigil")
    requested = [RequestedCard(1, None, c.short_id) for c in nest]
    requested += [RequestedCard(1, None, c.short_id, zone="sigils") for c in sigils]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="fate-foretold"),
        format_slug=format_slug,
        name="Seen",
        visibility="public",
        intake=Intake(tuple(requested)),
    )


def test_a_speed_run_deck_aligns_to_its_formats_target_unless_the_player_sets_one():
    speed_run, nest = fate_deck("speed-run"), fate_deck("nest")
    post = {"runs": 200, "seed": 1}

    def alignment(deck, body):
        url = f"/api/v1/decks/{deck.share_key}/goldfish/"
        response = APIClient().post(url, body, format="json")
        assert response.status_code == 200, response.content
        return response.json()["summary"]["alignment"]

    assert alignment(speed_run, post) == 4
    assert alignment(nest, post) == 5
    assert alignment(speed_run, {**post, "policy": {"alignment": 3}}) == 3
