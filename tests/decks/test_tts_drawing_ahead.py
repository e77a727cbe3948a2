"""A sheet whose faces are not drawn yet costs seconds: no request pays that itself. The save
starts drawing them in the background, and a sheet asked for too early is a 429 with
Retry-After, naming the limit, until they are drawn."""

import time

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.faces import face_data
from cardsite.catalogue.faces.ahead import MAX_AHEAD_PER_REQUEST, MAX_INLINE_FACES
from cardsite.catalogue.faces.cache import face_path, scaled_path
from cardsite.catalogue.models import Game
from decks.images import deck_images_folder
from decks.services import Intake, RequestedCard, deck_create
from decks.tts.plan import tts_plan
from tests.decks.test_tts_export import difference, face_cell, save_of
from tests.decks.tts_support import decoded, local, objects_of, zone_cards

pytestmark = pytest.mark.django_db

# Long enough for 20 faces on a busy two-core machine; the tests end as soon as they are drawn.
PATIENCE = 120


@pytest.fixture
def deck():
    owner = User.objects.create_user("tabletop", password="x")
    cards = zone_cards("conquest-alpha-tactics", "main", 20)
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-alpha-tactics"),
        format_slug="faction-deck",
        name="Twenty new faces",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def sheet_url(deck):
    (sheet,) = tts_plan(deck).sheets
    return f"/decks/{deck.share_key}/tts/{sheet.digest}.png"


def test_a_sheet_of_many_undrawn_faces_is_a_429_until_the_background_has_drawn_them(client, deck):
    first = client.get(sheet_url(deck))
    assert first.status_code == 429
    assert int(first["Retry-After"]) >= 1
    message = first.content.decode()
    assert "20 of this sheet's card faces" in message
    assert f"at most {MAX_INLINE_FACES:g}" in message
    folder = deck_images_folder(deck.share_key)
    assert not folder.exists() or not list(folder.glob("tts-*.png")), "nothing kept half-drawn"
    deadline = time.monotonic() + PATIENCE
    response = client.get(sheet_url(deck))
    while response.status_code == 429 and time.monotonic() < deadline:
        time.sleep(min(int(response["Retry-After"]), 2))
        response = client.get(sheet_url(deck))
    sheet = decoded(response)
    (plan,) = tts_plan(deck).sheets
    width, height = plan.cell
    first_cell = sheet.convert("RGB").crop((0, 0, width, height))
    assert difference(first_cell, face_cell(plan.cards[0], (width, height))) < 1.0


def test_exporting_a_deck_starts_drawing_the_faces_its_sheets_need_as_many_as_a_request_may(
    client, deck
):
    save = save_of(client, deck)
    assert objects_of(save)
    (plan,) = tts_plan(deck).sheets
    # One request queues at most MAX_AHEAD_PER_REQUEST faces: the first of the sheet's.
    ahead = plan.cards[:MAX_AHEAD_PER_REQUEST]
    wanted = [scaled_path(face_data(card), plan.cell) for card in ahead]
    deadline = time.monotonic() + PATIENCE
    while not all(path.exists() for path in wanted) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert all(path.exists() for path in wanted)
    assert all(face_path(face_data(card)).exists() for card in ahead)
    # The sheet's request draws the rest itself, or queues them and asks to come back.
    url = local(objects_of(save)[0]["CustomDeck"]["1"]["FaceURL"])
    response = client.get(url)
    while response.status_code == 429 and time.monotonic() < deadline:
        time.sleep(min(int(response["Retry-After"]), 2))
        response = client.get(url)
    assert response.status_code == 200
