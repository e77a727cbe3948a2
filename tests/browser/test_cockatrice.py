"""Taking a deck to Cockatrice and back in a real browser: the deck page's .cod download, and
that file uploaded into another deck's builder (a chosen file is posted by the browser itself,
past builder.js's queue), which then holds the same cards."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Game
from decks.models import Deck
from decks.services import Intake, deck_create
from tests.browser.conftest import delete_committed, sign_in
from tests.decks.tts_support import game_deck

PASSWORD = "a-Long-browser-pass-7"


@pytest.fixture
def decks(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with their owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-trice", password=PASSWORD)
        source = game_deck(owner, "fate-foretold", name="Nest for Cockatrice")
        target = deck_create(
            owner=owner,
            game=Game.objects.get(slug="fate-foretold"),
            format_slug=source.format,
            name="Empty Nest",
            visibility="public",
            intake=Intake(),
        )
    yield source, target
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_cod_downloaded_from_a_deck_and_uploaded_into_another_gives_it_the_same_cards(
    server, page, shoot, decks, tmp_path, django_db_blocker
):
    source, target = decks
    page.goto(server + source.get_absolute_url())
    page.get_by_text("Export", exact=True).click()
    link = page.get_by_role("link", name="Cockatrice (.cod)")
    expect(link).to_be_visible()
    link.scroll_into_view_if_needed()
    shoot("cod-export")
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename == "nest-for-cockatrice.cod"
    saved = tmp_path / "deck.cod"
    download.value.save_as(saved)

    sign_in(page, server, "browser-trice", PASSWORD)
    page.goto(server + f"/decks/{target.share_key}/edit/")
    page.locator("[data-action=import-cod-file]").set_input_files(str(saved))
    with page.expect_navigation():
        page.get_by_role("button", name="Replace cards").click()
    with django_db_blocker.unblock():
        got = dict(Deck.objects.get(pk=target.pk).entries.values_list("card_id", "quantity"))
        want = dict(source.entries.values_list("card_id", "quantity"))
    assert got == want
