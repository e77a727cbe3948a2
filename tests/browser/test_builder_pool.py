"""The builder's card pool in a real browser: chips write their terms into the query box and
the pool follows, the next page is appended in place, a face's + updates its badge and the
deck's count, a face dragged onto a zone lands there, faces zoom, and on a phone the pool
comes first with the deck one tap away."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from decks.views.pool import POOL_PAGE
from tests.browser.conftest import PHONE, delete_committed, sign_in

PASSWORD = "a-Long-pool-pass-7"
USERNAME = "browser-pool"
TACTICS = "conquest-alpha-tactics"


@pytest.fixture
def fleet(django_db_blocker):
    """A Tactics faction deck holding one ship (in the faction deck) and one planet (among the
    target cards), committed for the live server, and two more ships to add."""
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(username=USERNAME))
        user = User.objects.create_user(USERNAME, password=PASSWORD)
        ships = list(
            Card.objects.filter(
                game__slug=TACTICS, card_type__name="Ship", factions__slug="starfleet"
            ).order_by("name")[:3]
        )
        planet = Card.objects.filter(game__slug=TACTICS, card_type__name="Planet").first()
        deck = deck_create(
            owner=user,
            game=Game.objects.get(slug=TACTICS),
            format_slug="faction-deck",
            name="Pool fleet",
            intake=Intake(
                (RequestedCard(1, None, ships[0].short_id), RequestedCard(1, None, planet.short_id))
            ),
        )
    yield deck, ships, planet
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def open_builder(page, server, deck, query="", size=None):
    sign_in(page, server, USERNAME, PASSWORD)
    if size:
        page.set_viewport_size(size)
    page.goto(f"{server}/decks/{deck.share_key}/edit/{query}")
    # The toolbar appears when builder.js has started, the pool's fields lose their names
    # when pool.js has.
    expect(page.locator("#builder-tools")).to_be_visible()
    expect(page.locator("#pool-order")).not_to_have_attribute("name", "order")


def drag(page, source, target):
    """Drag `source` onto `target` as a hand does, both in view first: Playwright's drag_to
    scrolls to the target after pressing, and Chromium then starts the drag from whatever
    card has come under the pointer (a row below, in the grid)."""
    source.scroll_into_view_if_needed()
    target.scroll_into_view_if_needed()
    start, end = source.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def pool_count(page):
    return page.locator("#builder-results .pool-count")


def test_a_chip_writes_its_term_into_the_query_box_and_the_pool_follows(server, page, fleet, shoot):
    deck, _, _ = fleet
    open_builder(page, server, deck)
    box = page.locator("#builder-q")
    chips = page.locator("#pool-filters")
    chips.get_by_role("link", name="Starfleet", exact=True).click()
    expect(box).to_have_value("f:starfleet")
    expect(page.locator("#builder-results")).to_have_attribute("data-q", "f:starfleet")
    expect(chips.get_by_role("link", name="Starfleet", exact=True)).to_have_attribute(
        "aria-current", "true"
    )
    chips.get_by_role("link", name="Unofficial samples").click()
    expect(box).to_have_value("f:starfleet is:sample")
    # Typed terms and chosen ones are the same query: the 33 cards, all on one page.
    box.press("End")
    box.type(" -t:planet")
    expect(pool_count(page)).to_have_text("33 cards")
    expect(page.locator("#builder-results li.result")).to_have_count(33)
    # A faction replaces the other; the address carries the query, to share.
    chips.get_by_role("link", name="Klingon", exact=True).click()
    expect(box).to_have_value("is:sample -t:planet f:klingon")
    expect(page).to_have_url(re.compile(r"q=is%3Asample\+-t%3Aplanet\+f%3Aklingon"))
    # A range writes its bounds, a sort its order.
    page.get_by_label("Combat Power at least").fill("2")
    page.get_by_label("Combat Power at least").press("Tab")
    expect(box).to_have_value("is:sample -t:planet f:klingon cp>=2")
    page.get_by_label("Sort by").select_option("cp")
    expect(box).to_have_value("is:sample -t:planet f:klingon cp>=2 order:cp")
    expect(page.locator("#builder-results")).to_have_attribute("data-q", box.input_value())
    shoot("chips")


def test_the_next_page_is_appended_in_place(server, page, fleet, shoot):
    deck, _, _ = fleet
    open_builder(page, server, deck)
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    cards = page.locator("#builder-results li.result")
    expect(cards).to_have_count(POOL_PAGE)
    first = cards.first.get_attribute("data-card")
    page.locator("#builder-results a[rel=next]").click()
    expect(cards).to_have_count(2 * POOL_PAGE)
    assert cards.first.get_attribute("data-card") == first
    assert navigations == []
    expect(page.locator("#builder-results a[rel=next]")).to_have_count(1)
    # Focus, which the link had, goes on where the new cards begin.
    appended = cards.nth(POOL_PAGE)
    expect(appended.locator("[data-action=add]")).to_be_focused()
    shoot("next-page")
    # The appended cards work like the first ones, from the keyboard too.
    page.keyboard.press("+")
    expect(appended.locator("[data-in-deck]")).to_have_text("1 in deck")
    expect(page.locator("[data-pool-deck-count]")).to_have_text("3")


def test_plus_on_a_face_updates_its_badge_and_the_deck_count(server, page, fleet):
    deck, ships, _ = fleet
    open_builder(page, server, deck, "?view=images&q=t%3Aship+f%3Astarfleet")
    face = page.locator(f"#result-{ships[1].short_id}")
    count = page.locator("[data-pool-deck-count]")
    expect(count).to_have_text("2")
    expect(face.locator("[data-in-deck]")).to_have_text("")
    expect(face.locator("[data-action=remove]")).to_be_disabled()
    face.locator("[data-action=add]").click()
    expect(face.locator("[data-in-deck]")).to_have_text("1 in deck")
    expect(count).to_have_text("3")
    expect(page.locator("#deck-panel .counts strong").first).to_have_text("3")
    face.locator("[data-action=add]").click()
    expect(face.locator("[data-in-deck]")).to_have_text("2 in deck")
    face.locator("[data-action=remove]").click()
    expect(face.locator("[data-in-deck]")).to_have_text("1 in deck")
    expect(count).to_have_text("3")
    # The owner's collection has its own control on each card, apart from the deck's.
    own = face.locator(".result-own")
    own.get_by_role("button", name="One copy more in your collection").click()
    expect(own.locator(".owned-count")).to_have_text(re.compile(r"\D1$"))  # "times 1"
    expect(count).to_have_text("3")
    # The copies already in the deck show too.
    expect(page.locator(f"#result-{ships[0].short_id} [data-in-deck]")).to_have_text("1 in deck")


def test_a_face_dragged_onto_a_zone_is_added_there_and_elsewhere_on_the_deck_to_its_own(
    server, page, fleet, shoot
):
    deck, ships, planet = fleet
    open_builder(page, server, deck, "?view=images&q=t%3Aship+f%3Astarfleet")
    targets = page.locator(f"#deck-panel [data-zone=targets][data-card='{planet.short_id}']")
    drag(page, page.locator(f"#result-{ships[1].short_id} img"), targets)
    expect(page.locator(f"#row-{ships[1].short_id}-targets")).to_be_visible()
    drag(
        page, page.locator(f"#result-{ships[2].short_id} img"), page.locator("#deck-panel .counts")
    )
    expect(page.locator(f"#row-{ships[2].short_id}-main")).to_be_visible()
    expect(page.locator("[data-pool-deck-count]")).to_have_text("4")
    shoot("dropped")


def test_a_face_zooms_on_hover(server, page, fleet):
    deck, ships, _ = fleet
    open_builder(page, server, deck, "?view=images&q=t%3Aship+f%3Astarfleet")
    page.locator(f"#result-{ships[1].short_id} img").hover()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview).to_have_attribute("data-card", ships[1].short_id)


def test_on_a_phone_the_pool_comes_first_and_the_deck_is_a_drawer_showing_its_count(
    server, page, fleet, shoot
):
    deck, ships, _ = fleet
    open_builder(page, server, deck, "?view=images", size=PHONE)
    pool = page.locator("#pool").bounding_box()
    panel = page.locator("#deck-panel").bounding_box()
    assert pool["y"] < panel["y"]
    assert page.locator("#builder-q").bounding_box()["y"] < 400
    tab = page.locator(".builder-tabs [data-tab=deck]")
    expect(tab).to_be_visible()
    expect(tab.locator("[data-pool-deck-count]")).to_have_text("2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(f"#result-{ships[1].short_id} [data-action=add]").click()
    expect(tab.locator("[data-pool-deck-count]")).to_have_text("3")
    shoot("phone-pool")
    tab.click()
    expect(tab).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#legality")).to_be_in_viewport()
    expect(page.locator(f"#row-{ships[1].short_id}-main")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot("phone-deck")
    page.locator(".builder-tabs [data-tab=pool]").click()
    expect(tab).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#builder-q")).to_be_visible()


def test_rows_and_groups_that_come_and_go_in_place_leave_the_panel_as_a_fresh_page_draws_it(
    server, page, fleet
):
    deck, ships, _ = fleet
    tech = Card.objects.filter(
        game__slug=TACTICS, card_type__name="Tech", factions__slug="starfleet"
    ).order_by("name")[0]
    open_builder(page, server, deck, f"?q=!%22{tech.name}%22+or+!%22{ships[1].name}%22")
    panel = page.locator("#deck-panel")
    order = "els => els.map(e => e.id)"
    blocks = "#deck-panel .group-block, #deck-panel li.deck-row"

    def add(card):
        page.locator(f'#pool [data-card="{card.short_id}"] [data-action="add"]').click()
        expect(panel.locator(f'li.deck-row[data-card="{card.short_id}"]')).to_have_count(1)

    add(ships[1])  # a row new to the Ships' group
    add(tech)  # a group new to the deck
    expect(panel.locator(".group-block[id$='-tech']")).to_have_count(1)
    drawn = page.locator(blocks).evaluate_all(order)
    page.reload()
    assert page.locator(blocks).evaluate_all(order) == drawn
    # Taken away again, the row and then the group go, leaving the panel as it was.
    panel.get_by_role("button", name=f"Remove one {tech.name}").click()
    expect(panel.locator(".group-block[id$='-tech']")).to_have_count(0)
    panel.get_by_role("button", name=f"Remove one {ships[1].name}").click()
    expect(panel.locator(f'li.deck-row[data-card="{ships[1].short_id}"]')).to_have_count(0)
    drawn = page.locator(blocks).evaluate_all(order)
    page.reload()
    assert page.locator(blocks).evaluate_all(order) == drawn
