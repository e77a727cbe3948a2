"""Taking a deck to Tabletop Simulator in a real browser: the deck page's download, and a
sheet its file points at."""

import io
import json
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from PIL import Image
from playwright.sync_api import expect

from tests.browser.conftest import delete_committed
from tests.decks.tts_support import game_deck


@pytest.fixture
def table(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its deck.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-tabletop", password="a-Long-browser-pass-7")
        deck = game_deck(owner, "fate-foretold", name="Nest on the Table")
    yield deck
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_visitor_downloads_the_tabletop_simulator_file_and_its_sheets_load(
    server, page, shoot, table, tmp_path
):
    page.goto(server + table.get_absolute_url())
    page.get_by_text("Export", exact=True).click()
    button = page.get_by_role("link", name="Tabletop Simulator", exact=True)
    expect(button).to_be_visible()
    expect(page.get_by_text("Saves/Saved Objects")).to_be_visible()
    button.scroll_into_view_if_needed()
    shoot("tts-export")

    with page.expect_download() as download:
        button.click()
    assert download.value.suggested_filename == "nest-on-the-table.json"
    download.value.save_as(tmp_path / "tts.json")
    save = json.loads((tmp_path / "tts.json").read_text(encoding="utf-8"))
    assert [o["Nickname"] for o in save["ObjectStates"]] == ["Nest", "Sigils"]
    for obj in save["ObjectStates"]:
        for custom in obj["CustomDeck"].values():
            sheet = page.request.get(server + urlsplit(custom["FaceURL"]).path)
            assert sheet.status == 200 and sheet.headers["content-type"] == "image/png"
            image = Image.open(io.BytesIO(sheet.body()))
            assert image.width // custom["NumWidth"] >= 400
