"""Drawing a visitor can start is throttled, counting only what is drawn: a card face
(face.png) or a face queued for a Tabletop Simulator sheet spends the client's face budget, a
game's back and the calibration sheet the pictures budget; reading what is drawn is free."""

import pytest
from django.test import Client

from cardsite.catalogue.faces import face_data
from cardsite.catalogue.faces.cache import face_path
from cardsite.catalogue.models import Card
from decks.proxies import calibration
from tests.hostile.conftest import capital_deck
from tests.hostile.test_page_throttles import assert_refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def undrawn_sheets():
    """No calibration sheet drawn yet in this process, and none left drawn for the next test."""
    calibration._DRAWN.clear()
    yield
    calibration._DRAWN.clear()


def test_drawing_card_faces_is_throttled_and_reading_a_drawn_one_is_free(rates):
    rates(faces="1/min")
    client = Client()
    first, second = Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort")[:2]
    assert client.get(f"/cards/{first.short_id}/face.png").status_code == 200
    assert client.get(f"/cards/{first.short_id}/face.png").status_code == 200
    assert_refused(client.get(f"/cards/{second.short_id}/face.png"), "1 card face drawn a minute")
    assert not face_path(face_data(second)).exists()


def test_drawing_a_games_back_is_throttled_and_reading_a_drawn_one_is_free(rates):
    rates(images="1/min")
    client = Client()
    assert client.get("/games/conquest-of-fates/back.png").status_code == 200
    assert client.get("/games/conquest-of-fates/back.png").status_code == 200
    assert_refused(client.get("/games/conquest-of-orion/back.png"), "1 picture drawn a minute")


@pytest.mark.usefixtures("undrawn_sheets")
def test_drawing_the_calibration_sheet_is_throttled_and_reading_a_drawn_one_is_free(rates):
    rates(images="1/min")
    client = Client()
    assert client.get("/proxies/calibration.pdf").status_code == 200
    assert client.get("/proxies/calibration.pdf").status_code == 200
    refused = client.get("/proxies/calibration.pdf", {"paper": "letter"})
    assert_refused(refused, "1 picture drawn a minute")


def test_an_anonymous_tabletop_export_queues_faces_only_within_the_face_budget(owner, rates):
    rates(faces="5/min")
    client = Client()
    url = f"/decks/{capital_deck(owner).share_key}/tts.json"
    assert client.get(url).status_code == 200
    # The first export spent the budget on five of its twenty faces; more drawing is refused.
    assert_refused(client.get(url), "5 card faces drawn a minute")


def test_one_tabletop_export_queues_at_most_14_faces_whatever_the_budget(owner, rates):
    rates(faces="15/min")
    client = Client()
    deck = capital_deck(owner)
    url = f"/decks/{deck.share_key}/tts.json"
    # Twenty faces missing: 14 queued, then 1 (the budget's last), then nothing is left.
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200
    assert_refused(client.get(url), "15 card faces drawn a minute")


def test_the_api_tabletop_export_spends_the_same_face_budget(owner, rates):
    rates(faces="5/min")
    client = Client()
    deck = capital_deck(owner)
    assert client.get(f"/decks/{deck.share_key}/tts.json").status_code == 200
    refused = client.get(f"/api/v1/decks/{deck.share_key}/export/", {"as": "tts"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "5 card faces drawn a minute" in refused.json()["detail"]
