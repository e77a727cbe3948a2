"""Drawing a visitor can start is throttled, counting only what is drawn: a card face
(face.png) spends the client's face budget, a face queued for a Tabletop Simulator sheet its
`tts` budget, a game's back and the calibration sheet the pictures budget; reading what is
drawn is free."""

import pytest
from django.conf import settings
from django.test import Client

from cardsite.catalogue.faces import face_data
from cardsite.catalogue.faces.ahead import settle
from cardsite.catalogue.faces.cache import face_path
from cardsite.catalogue.models import Card
from decks.proxies import calibration
from tests.decks.tts_support import downloaded
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


def faces_drawn():
    folder = settings.MEDIA_ROOT / "faces"
    return [p for p in folder.glob("*.png") if "@" not in p.name] if folder.exists() else []


def test_an_anonymous_tabletop_export_queues_faces_only_within_its_budget(owner, rates):
    rates(tts="5/min")
    client = Client()
    url = f"/decks/{capital_deck(owner).share_key}/tts.json"
    # Five of its twenty faces granted: not handed out with sheets TTS would fail to load.
    assert client.get(url).status_code == 503
    assert_refused(client.get(url), "5 card faces drawn for Tabletop Simulator a minute")
    settle()
    assert len(faces_drawn()) <= 5


def test_a_tabletop_export_spends_a_face_once_however_often_it_is_asked(owner, rates):
    rates(tts="20/min")
    client = Client()
    deck = capital_deck(owner)
    # Twenty faces missing, all granted at once; asking again while they are drawn is free.
    assert downloaded(client, f"/decks/{deck.share_key}/tts.json").status_code == 200
    assert len(faces_drawn()) == 20
    other = capital_deck(owner, copies=2)  # the same cards: nothing left to draw, nothing spent
    assert downloaded(client, f"/decks/{other.share_key}/tts.json").status_code == 200


def test_the_api_tabletop_export_spends_the_same_face_budget(owner, rates):
    rates(tts="5/min")
    client = Client()
    deck = capital_deck(owner)
    assert client.get(f"/decks/{deck.share_key}/tts.json").status_code == 503
    refused = client.get(f"/api/v1/decks/{deck.share_key}/export/", {"as": "tts"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "5 card faces drawn for Tabletop Simulator a minute" in refused.json()["detail"]
