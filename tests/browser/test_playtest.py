"""The playtester in a real browser, for every game: draw, the opening, a move by drag and drop,
by a card's menu and by keyboard, undo, the share link and a restart, each in place (no
navigation), the address following; legible cards that zoom; a refused move's reason."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Game
from decks.services import Intake, RequestedCard, deck_create
from engines import ENGINES
from tests.browser.conftest import delete_committed
from tests.browser.test_every_page import _deck_cards

FREE_ZONE = """() => {
  const zones = [...document.querySelectorAll('.pt-zone.pt-area, .pt-zone.pt-slot')];
  const free = zones.find((z) => !z.dataset.capacity
    || z.querySelectorAll('.pt-card').length < Number(z.dataset.capacity));
  return free && free.dataset.zone;
}"""


@pytest.fixture
def decks(django_db_blocker):
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-playtest", password="a-Long-pass-77")
        made = {
            game.slug: deck_create(
                owner=owner,
                game=game,
                format_slug=game.engine.formats[0].slug,
                name=f"Played {game.name}",
                visibility="public",
                intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in _deck_cards(game))),
            )
            for game in Game.objects.filter(slug__in=ENGINES)
        }
    yield made
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def cards_in(page, zone):
    return page.locator(f'[data-zone="{zone}"] .pt-card')


def hand_card(page, n=0):
    return cards_in(page, "hand").nth(n).locator("summary")


def settle(page):
    page.wait_for_load_state("load")
    expect(page.locator(".pt-table")).to_be_visible()


def count_navigations(page):
    """The new documents the page loads from now on (a full navigation). Playwright's
    `framenavigated` also fires for history.pushState, which each move in place makes for
    the address to follow: so a move counts as a navigation only if a new document loads,
    which fires `domcontentloaded` and loses what the old document held."""
    loaded = []
    page.on("domcontentloaded", lambda _: loaded.append(page.url))
    page.evaluate("window.ptSameDocument = true")
    return loaded


def same_document(page, loaded):
    return loaded == [] and page.evaluate("window.ptSameDocument === true")


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_deck_is_playtested_by_hand(page, server, decks, shoot, game):
    deck = decks[game]
    page.goto(f"{server}/decks/{deck.share_key}/playtest/?seed=5")
    settle(page)
    navigations = count_navigations(page)
    shoot("opening")
    opening = cards_in(page, "hand").count()
    page.get_by_role("link", name="Draw", exact=True).click()
    expect(cards_in(page, "hand")).to_have_count(opening + 1)
    expect(page).to_have_url(re.compile(r"\?seed=5&a=d$"))

    # The opening: a mulligan (a link, or cards picked in a form) and a choice to make.
    pick = page.locator("form.pt-pick")
    if pick.count():
        pick.locator("input[type=checkbox]").first.check()
        pick.get_by_role("button").click()
        expect(page).to_have_url(re.compile(r"&a=d_[gc]\d+$"))
    mulligan = page.get_by_role("link", name="Mulligan", exact=True)
    if mulligan.count():
        mulligan.click()
        expect(page.locator(".pt-log")).to_contain_text("Mulligan")

    # Drag and drop.
    zone = page.evaluate(FREE_ZONE)
    before = cards_in(page, zone).count()
    # A real drag and drop (Playwright's mouse gesture, which Chromium turns into HTML5 drag
    # events), on a window tall enough to hold both ends: a drag cannot scroll the page.
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 3000})
    target = page.locator(f'[data-zone="{zone}"]')
    cards_in(page, "hand").first.drag_to(target)
    expect(cards_in(page, zone)).to_have_count(before + 1)
    if size:
        page.set_viewport_size(size)
    after_drag = page.url

    # By the card's menu.
    zone = page.evaluate(FREE_ZONE)
    before = cards_in(page, zone).count()
    hand_card(page).click()
    heading = page.locator(f'[data-zone="{zone}"] .pt-zone-name').first.inner_text()
    name = heading.split("\n")[0].split(" (")[0].strip()
    cards_in(page, "hand").first.get_by_role("link", name=f"To {name}", exact=True).click()
    expect(cards_in(page, zone)).to_have_count(before + 1)

    # By keyboard: focus a card, press the zone's number.
    zone = page.evaluate(FREE_ZONE)
    before = cards_in(page, zone).count()
    number = page.locator(f'[data-zone="{zone}"] .pt-zone-name kbd').inner_text()
    hand_card(page).focus()
    page.keyboard.press(number)
    expect(cards_in(page, zone)).to_have_count(before + 1)
    shoot("played")

    # Undo drops the last action.
    page.get_by_role("link", name="Undo").click()
    expect(cards_in(page, zone)).to_have_count(before)
    assert same_document(page, navigations), "every move so far was made in place"

    # Back takes the undo back, in place too.
    page.go_back()
    expect(cards_in(page, zone)).to_have_count(before + 1)
    page.go_forward()
    expect(cards_in(page, zone)).to_have_count(before)
    assert same_document(page, navigations)

    # The share link reproduces the table.
    table = page.locator(".pt-table").inner_text()
    shared = page.locator("#pt-share").input_value()
    page.goto(after_drag)
    page.goto(shared)
    settle(page)
    assert page.locator(".pt-table").inner_text() == table

    # Restart with the same seed: the opening again.
    page.get_by_role("link", name="Restart with the same seed").click()
    expect(page).to_have_url(re.compile(r"\?seed=5$"))
    expect(cards_in(page, "hand")).to_have_count(opening)


@pytest.fixture
def fates(decks):
    return decks["conquest-of-fates"]


def test_cards_are_legible_and_zoom_on_hover(page, server, fates):
    page.goto(f"{server}/decks/{fates.share_key}/playtest/?seed=5")
    settle(page)
    widths = page.eval_on_selector_all(
        "#pt-play .pt-card", "cards => cards.map((c) => c.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 140
    card = hand_card(page)
    card.hover()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview).to_have_attribute("data-card", card.get_attribute("data-preview"))
    assert preview.bounding_box()["width"] > card.bounding_box()["width"]
    page.mouse.move(0, 0)
    expect(preview).to_be_hidden()
    # On a phone nothing scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_move_hides_the_preview_of_the_card_it_moved(page, server, fates):
    page.set_viewport_size({"width": 1280, "height": 3000})
    page.goto(f"{server}/decks/{fates.share_key}/playtest/?seed=5")
    settle(page)
    cards_in(page, "hand").first.drag_to(page.locator('[data-zone="location-1"]'))
    expect(cards_in(page, "location-1")).to_have_count(1)
    # The pointer rests where the card was dropped: the old card's preview went with the old
    # table, and any preview now is of the card under the pointer, in its new place.
    preview = page.locator(".card-preview")
    if preview.is_visible():
        moved = cards_in(page, "location-1").first.locator("summary")
        expect(preview).to_have_attribute("data-card", moved.get_attribute("data-preview"))
        box, card = preview.bounding_box(), moved.bounding_box()
        assert box["x"] >= card["x"], "beside the card in its new place"


def test_dropping_on_a_full_location_says_why_beside_it(page, server, fates, shoot):
    page.set_viewport_size({"width": 1280, "height": 3000})
    page.goto(f"{server}/decks/{fates.share_key}/playtest/?seed=5")
    settle(page)
    navigations = count_navigations(page)
    location = page.locator('[data-zone="location-1"]')
    cards_in(page, "hand").first.drag_to(location)
    expect(cards_in(page, "location-1")).to_have_count(1)
    url = page.url
    hand = cards_in(page, "hand").count()
    # The menu offers no move to a full location; a drop there is asked all the same.
    cards_in(page, "hand").first.drag_to(location)
    refusal = location.locator("[data-refusal]")
    expect(refusal).to_have_text("Location 1 is full: it holds at most 1 card")
    expect(cards_in(page, "hand")).to_have_count(hand)
    assert page.url == url, "the address stays the session's own"
    assert same_document(page, navigations)
    page.set_viewport_size({"width": 1280, "height": 900})
    location.scroll_into_view_if_needed()
    shoot("refused")


def test_the_table_says_what_it_waits_for(page, server, fates):
    page.goto(f"{server}/decks/{fates.share_key}/playtest/?seed=5&a=d3")
    settle(page)
    page.get_by_role("link", name="Draw", exact=True).click()
    expect(page.locator("[data-waiting]")).to_have_text("Waiting: Discard 1 to the hand limit")


def test_a_faction_deck_lays_out_its_targets_in_place(page, server, decks, shoot):
    deck = decks["conquest-alpha-tactics"]
    page.goto(f"{server}/decks/{deck.share_key}/playtest/?seed=5")
    settle(page)
    expect(page.locator("#pt-with")).to_have_value("")
    expect(page.locator("#pt-with option").first).to_have_text("The 24 target cards")
    navigations = count_navigations(page)
    page.get_by_role("link", name="Next: Deployment Phase").click()
    for row in range(1, 5):
        expect(cards_in(page, f"row-{row}")).to_have_count(1)
    assert same_document(page, navigations)
    shoot("targets")


def test_a_long_press_zooms_a_card_on_a_touch_screen(browser, server, fates):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/decks/{fates.share_key}/playtest/?seed=5")
        settle(page)
        card = hand_card(page)
        box = card.bounding_box()
        point = {"clientX": box["x"] + 20, "clientY": box["y"] + 20, "identifier": 1}
        card.dispatch_event("touchstart", {"touches": [point], "changedTouches": [point]})
        preview = page.locator(".card-preview")
        expect(preview).to_be_visible()
        expect(preview).to_have_attribute("data-card", card.get_attribute("data-preview"))
        card.dispatch_event("touchend", {"touches": [], "changedTouches": [point]})
        card.dispatch_event("click")  # what the lifted finger sends
        # The press was a zoom, not a tap: the card's menu stays closed.
        assert not page.locator("#pt-play details[open]").count()
    finally:
        context.close()
