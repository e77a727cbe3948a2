"""Taking a deck to Tabletop Simulator in a real browser: the deck page's download, and a
sheet its file points at; and, while its images are still being drawn, the page that says so
and then saves the file by itself."""

import io
import json
import threading
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from PIL import Image
from playwright.sync_api import expect

from cardsite.catalogue.faces.ahead import queue_job
from tests.browser.conftest import delete_committed
from tests.decks.tts_support import PATIENCE, game_deck


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


def test_a_download_whose_images_are_still_being_drawn_shows_a_page_that_then_saves_the_file(
    server, page, shoot, table, tmp_path
):
    # The drawer kept busy, as by other visitors' decks, until the page has been seen.
    release = threading.Event()
    queue_job(tmp_path / "someone-elses-drawing", lambda: release.wait(PATIENCE))
    try:
        page.goto(server + table.get_absolute_url())
        page.get_by_text("Export", exact=True).click()
        page.get_by_role("link", name="Tabletop Simulator", exact=True).click()
        expect(page.get_by_role("heading", name="Drawing the card images")).to_be_visible()
        expect(page.get_by_role("status")).to_contain_text("still being drawn")
        expect(page.get_by_role("link", name="back to the deck")).to_be_visible()
        shoot("tts-still-drawing")
        # The page asks again by itself; the images drawn, the browser saves the file.
        with page.expect_download(timeout=PATIENCE * 1000) as download:
            release.set()
    finally:
        release.set()
    assert download.value.suggested_filename == "nest-on-the-table.json"
