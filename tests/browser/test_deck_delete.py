"""Deleting and restoring a deck in a real browser: the dialog that asks first, Recently
deleted in My decks, Restore and Undo; and the confirmation page without JavaScript."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-7"


@pytest.fixture
def page(browser, request):
    """The suite's page, or with {"javascript": False} (indirect), one without JavaScript."""
    javascript = getattr(request, "param", {}).get("javascript", True)
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=javascript
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def tidy(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its decks.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-tidy", password=PASSWORD)
        card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
        decks = [
            deck_create(
                owner=owner,
                game=Game.objects.get(slug="conquest-of-orion"),
                format_slug="constructed",
                name=name,
                visibility="public",
                intake=Intake(tuple([RequestedCard(3, None, card.short_id)])),
            )
            for name in ("Old Armada", "Keeper Fleet")
        ]
    yield decks
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_player_deletes_a_deck_in_a_dialog_and_restores_it_from_my_decks(
    server, page, shoot, tidy
):
    deck, _ = tidy
    sign_in(page, server, "browser-tidy", PASSWORD)
    page.goto(server + deck.get_absolute_url())
    shoot("deck-page")

    page.get_by_role("link", name="Delete this deck").click()
    dialog = page.get_by_role("dialog", name="Delete Old Armada?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("You can restore it from My decks for 30 days.")
    assert page.url == server + deck.get_absolute_url()  # asked in place, no page load
    shoot("dialog")

    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Old Armada")

    page.get_by_role("link", name="Delete this deck").click()
    dialog.get_by_role("button", name="Delete").click()
    expect(page).to_have_url(re.compile(rf"/decks/mine/\?deleted={deck.share_key}$"))
    expect(page.get_by_role("status")).to_contain_text("Deleted “Old Armada”.")
    listed = page.locator("#deck-results")
    expect(listed).not_to_contain_text("Old Armada")
    expect(listed).to_contain_text("Keeper Fleet")
    deleted = page.locator(".recently-deleted")
    expect(deleted.get_by_role("heading", name="Recently deleted")).to_be_visible()
    row = deleted.locator("tr", has_text="Old Armada")
    expect(row.locator('[data-label="Days left"]')).to_have_text("30")
    shoot("recently-deleted")

    assert page.goto(server + deck.get_absolute_url()).status == 404

    page.goto(server + "/decks/mine/")
    page.get_by_role("button", name="Restore Old Armada").click()
    expect(page).to_have_url(re.compile(rf"/decks/mine/\?restored={deck.share_key}$"))
    expect(page.get_by_role("status")).to_contain_text("Restored Old Armada.")
    expect(page.locator(".recently-deleted")).to_have_count(0)
    expect(page.locator("#deck-results")).to_contain_text("Old Armada")
    shoot("restored")

    # Undo, straight after deleting.
    page.get_by_role("status").get_by_role("link", name="Old Armada").click()
    page.get_by_role("link", name="Delete this deck").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("status")).to_contain_text("Restored Old Armada.")
    page.get_by_role("status").get_by_role("link", name="Old Armada").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Old Armada")


@pytest.mark.parametrize("page", [{"javascript": False}], indirect=True)
def test_without_javascript_delete_asks_on_a_page_of_its_own(server, page, shoot, tidy):
    _, deck = tidy
    sign_in(page, server, "browser-tidy", PASSWORD)
    page.goto(server + f"/decks/{deck.share_key}/edit/")
    # Folded below the deck in the builder, out of the pool's way.
    page.get_by_text("Share, print, delete").click()
    page.get_by_role("link", name="Delete this deck").click()
    expect(page).to_have_url(re.compile(rf"/decks/{deck.share_key}/delete/\?from=edit$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete Keeper Fleet?")
    expect(page.get_by_text("You can restore it from My decks for 30 days.")).to_be_visible()
    shoot("confirm-page")

    page.get_by_role("link", name="Cancel").click()
    expect(page).to_have_url(re.compile(rf"/decks/{deck.share_key}/edit/$"))

    page.get_by_text("Share, print, delete").click()
    page.get_by_role("link", name="Delete this deck").click()
    page.get_by_role("button", name="Delete").click()
    expect(page).to_have_url(re.compile(r"/decks/mine/\?deleted="))
    expect(page.locator(".recently-deleted")).to_contain_text("Keeper Fleet")
    shoot("deleted-without-js")
