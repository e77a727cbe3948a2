"""A deck's history in a real browser: an edit in the builder shows up as a version, two
versions side by side, and a revert brings the old list back as a new version."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import SCREENSHOTS, delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-7"
USERNAME = "browser-historian"


@pytest.fixture
def deck(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its decks.
    with django_db_blocker.unblock():
        owner = User.objects.create_user(USERNAME, password=PASSWORD)
        picked = list(
            Card.objects.filter(
                game__slug="conquest-of-orion", card_set__is_official=False
            ).order_by("name")[:6]
        )
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Orion to rewind",
            visibility="public",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in picked)),
        )
    yield deck, picked
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_an_edit_shows_in_the_history_and_a_revert_brings_the_list_back(server, page, deck, shoot):
    deck, picked = deck
    card = picked[0].name
    sign_in(page, server, USERNAME, PASSWORD)

    page.goto(f"{server}/decks/{deck.share_key}/edit/")
    page.get_by_role("button", name=f"Add one {card}").click()
    expect(page.locator("#deck-panel")).to_have_attribute("data-version", "2")

    page.goto(f"{server}/decks/{deck.share_key}/")
    expect(page.get_by_role("link", name="version 2")).to_be_visible()
    page.get_by_role("navigation", name="This deck").get_by_role(
        "link", name=re.compile("History")
    ).click()
    expect(page).to_have_url(re.compile(r"/history/$"))
    newest = page.locator("#version-2")
    expect(newest.get_by_role("heading", name="Version 2")).to_be_visible()
    expect(newest.locator(".changes.changed li")).to_have_text(f"+1 {card} (1 → 2)")
    expect(newest.get_by_role("link", name=card)).to_be_visible()
    expect(page.locator("#version-1")).to_contain_text("Created")
    shoot("history")

    # Side by side with the version before: the changed row says how it changed.
    page.locator("#version-1").get_by_role("link", name=re.compile("Compare")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Version 1 and version 2")
    row = page.locator("table.side-by-side:not(.settings) tr.changed")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(card)
    expect(row.locator("td.change")).to_contain_text("1 → 2")
    shoot("diff")

    # Revert, accepting the question JavaScript asks first.
    page.go_back()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#version-1").get_by_role(
        "button", name=re.compile("Revert to this version")
    ).click()
    expect(page.get_by_role("status")).to_have_text("Reverted to version 1: this is version 3.")
    reverted = page.locator("#version-3")
    expect(reverted).to_contain_text("Reverted to version 1")
    expect(reverted.locator(".changes.changed li")).to_have_text(f"\u22121 {card} (2 → 1)")
    shoot("reverted")

    page.goto(f"{server}/decks/{deck.share_key}/")
    expect(
        page.locator(".deck-list:not(.missing-list) li", has_text=card).locator(".qty")
    ).to_have_text("1")
    expect(page.get_by_role("link", name="version 3")).to_be_visible()


def test_a_note_is_added_without_javascript_on_a_phone(server, browser, deck, request):
    deck, _picked = deck
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=False
    )
    page = context.new_page()
    try:
        sign_in(page, server, USERNAME, PASSWORD)
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{server}/decks/{deck.share_key}/history/")
        version = page.locator("#version-1")
        version.get_by_text("Add a note").click()
        field = version.get_by_label("Note on version 1")
        field.fill("swapped the Celestial")
        folder = SCREENSHOTS / request.node.name
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "note-open-390-light.png"), full_page=True)
        version.get_by_role("button", name="Save note").click()
        expect(page.get_by_role("status")).to_have_text("Note saved on version 1.")
        expect(page.locator("#version-1 .version-note")).to_have_text("swapped the Celestial")
    finally:
        context.close()


def test_clicks_in_a_row_fold_into_one_version_and_a_checkpoint_starts_the_next(
    server, page, deck, shoot
):
    deck, picked = deck
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(f"{server}/decks/{deck.share_key}/edit/")
    # Every write tells the page's other parts (the pool) what the deck now holds.
    page.evaluate(
        "window.changes = []; document.addEventListener('deck:changed', "
        "(e) => window.changes.push(e.detail))"
    )
    panel = page.locator("#deck-panel")
    for n, card in enumerate(picked[:3], start=2):
        page.get_by_role("button", name=f"Add one {card.name}").click()
        expect(panel).to_have_attribute("data-version", str(n))
    expect(panel.locator("[data-deck-count]")).to_have_text("9")
    last = page.evaluate("window.changes[window.changes.length - 1]")
    assert last["version"] == 4 and last["total"] == 9
    assert last["counts"][picked[0].short_id] == 2
    assert page.evaluate("typeof window.cardsiteBuilder.submit") == "function"

    page.get_by_text("Save checkpoint").click()
    page.get_by_label("Note").fill("three more")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(panel.locator(".alert")).to_contain_text("Checkpoint saved: version 4")
    page.get_by_role("button", name=f"Add one {picked[3].name}").click()
    expect(panel).to_have_attribute("data-version", "5")

    page.goto(f"{server}/decks/{deck.share_key}/history/")
    folded = page.locator("#version-4")
    expect(folded.locator(".version-summary")).to_have_text("+3 cards (3 changes)")
    expect(folded.locator(".version-note")).to_have_text("three more")
    expect(page.locator("#version-5 .version-summary")).to_have_text("+1 card")
    expect(page.locator("#version-2")).to_have_count(0)
    shoot("folded")
