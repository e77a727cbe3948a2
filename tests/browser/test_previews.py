"""Card previews (cardsite/static/js/site.js): a link to a card's page shows the card's face on
hover, on keyboard focus and after a long press on a touch screen; Escape, leaving or a tap
elsewhere hides it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import DESKTOP, PHONE, delete_committed, sign_in

# A dozen cards: a list long enough to move through, a page short enough to look at.
LIST = "/search/?q=t%3Abattle+f%3Aelves&view=list"
CARD_LINKS = ".results-list a[href^='/cards/']"
PASSWORD = "a-Long-preview-pass-7"


@pytest.fixture
def touch() -> None:
    """Asked for by a test that needs `page` to be a phone with a touch screen."""


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    # A phone with a touch screen for the tests that ask for `touch`, a desktop otherwise.
    touch = "touch" in request.fixturenames
    context = browser.new_context(
        viewport=PHONE if touch else DESKTOP, has_touch=touch, is_mobile=touch
    )
    tab = context.new_page()
    yield tab
    context.close()


def short_id(link: Any) -> str:
    return link.get_attribute("href").split("/")[2]


def at(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def inside_viewport(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_hovering_a_card_name_in_the_search_list_shows_its_face_until_the_pointer_leaves(
    server, page, shoot
):
    page.goto(server + LIST)
    link = page.locator(CARD_LINKS).nth(2)
    link.hover()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview).to_have_attribute("aria-hidden", "true")
    expect(preview.locator("img")).to_have_attribute("src", f"/cards/{short_id(link)}/face.png")
    expect(preview).to_have_class(re.compile(r"\bis-loaded\b"))
    assert preview.locator("img").evaluate("img => img.naturalWidth") > 0
    assert inside_viewport(page, preview)
    shoot("hovered")

    # To the next card's name: its face instead.
    following = page.locator(CARD_LINKS).nth(3)
    following.hover()
    expect(preview.locator("img")).to_have_attribute(
        "src", f"/cards/{short_id(following)}/face.png"
    )
    page.locator(".results-bar .count").hover()
    expect(preview).to_be_hidden()


def test_a_preview_near_the_bottom_right_corner_stays_inside_the_window(server, page):
    page.goto(server + LIST)
    page.set_viewport_size({"width": 900, "height": 500})
    link = page.locator(CARD_LINKS).nth(6)
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    page.mouse.move(box["x"] + box["width"] - 2, 495)
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    assert inside_viewport(page, preview)


def test_focusing_a_card_name_with_the_keyboard_shows_its_face_and_escape_hides_it(
    server, page, shoot
):
    page.goto(server + LIST)
    page.locator(".results-bar .toggle a").focus()
    page.keyboard.press("Tab")
    first = page.locator(CARD_LINKS).first
    expect(first).to_be_focused()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview.locator("img")).to_have_attribute("src", f"/cards/{short_id(first)}/face.png")
    # Beside the link, not over it.
    link_box, preview_box = first.bounding_box(), preview.bounding_box()
    assert preview_box["x"] >= link_box["x"] + link_box["width"]
    expect(preview).to_have_class(re.compile(r"\bis-loaded\b"))
    shoot("focused")

    page.keyboard.press("Escape")
    expect(preview).to_be_hidden()
    expect(first).to_be_focused()  # the preview never takes focus

    page.keyboard.press("Tab")  # on to the next link: still not a card, or the next card
    page.keyboard.press("Shift+Tab")
    expect(first).to_be_focused()
    expect(preview).to_be_visible()
    page.keyboard.press("Tab")
    expect(first).not_to_be_focused()
    expect(preview.locator("img")).not_to_have_attribute(
        "src", f"/cards/{short_id(first)}/face.png"
    )


def test_a_long_press_on_a_card_name_shows_its_face_and_does_not_follow_the_link(
    server, touch, page, shoot
):
    page.goto(server + LIST)
    link = page.locator(CARD_LINKS).first
    box = link.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Whether a click reached the page, and whether it was followed.
    page.evaluate(
        """() => document.addEventListener("click", (event) => {
          window.clicked = event.defaultPrevented ? "prevented" : "followed";
        })"""
    )
    touch = page.context.new_cdp_session(page)
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    preview = page.locator(".card-preview")
    # The finger is still down: the preview comes after the press has lasted.
    expect(preview).to_be_visible()
    expect(preview.locator("img")).to_have_attribute("src", f"/cards/{short_id(link)}/face.png")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert inside_viewport(page, preview)
    expect(preview).to_have_class(re.compile(r"\bis-loaded\b"))
    shoot("long-pressed")

    assert page.evaluate("window.clicked") != "followed"

    # A tap somewhere else hides it; the long-pressed link was not followed.
    page.touchscreen.tap(5, page.viewport_size["height"] - 5)
    expect(preview).to_be_hidden()
    assert page.url == server + LIST

    # An ordinary tap still follows the link.
    href = link.get_attribute("href")
    link.tap()
    expect(page).to_have_url(re.compile(re.escape(href) + "$"))


def test_a_press_that_moves_is_a_scroll_not_a_preview(server, touch, page):
    page.goto(server + LIST)
    link = page.locator(CARD_LINKS).first
    box = link.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch = page.context.new_cdp_session(page)
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [at(x, y - 60)]})
    # Until the long press's own timer has run (timers run in order), then the finger lifts.
    page.evaluate("() => new Promise((done) => setTimeout(done, 600))")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert page.locator(".card-preview:visible").count() == 0


def test_a_card_page_previews_its_neighbours_but_not_itself(server, page):
    card = Card.objects.filter(card_set__is_official=False).order_by("name")[1]
    page.goto(server + card.get_absolute_url())
    page.locator("a.short-link").hover()
    page.locator("a[rel=next]").hover()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview.locator("img")).not_to_have_attribute("src", f"/cards/{card.short_id}/face.png")
    page.locator("a.short-link").hover()
    expect(preview).to_be_hidden()


@pytest.fixture
def builder(django_db_blocker: Any) -> Iterator[str]:
    # Committed, so the live server's thread sees it; removed afterwards with its deck.
    with django_db_blocker.unblock():
        user = User.objects.create_user("preview-builder", password=PASSWORD)
        card = Card.objects.filter(card_set__is_official=False).order_by("name")[0]
        deck = deck_create(
            owner=user,
            game=Game.objects.get(pk=card.game_id),
            format_slug=card.game.engine.formats[0].slug,
            name="Previews",
            intake=Intake((RequestedCard(1, None, card.short_id),)),
        )
    yield f"/decks/{deck.share_key}/edit/"
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def test_card_names_that_htmx_swaps_into_the_builder_preview_too(server, page, builder, shoot):
    sign_in(page, server, "preview-builder", PASSWORD)
    page.goto(server + builder)
    page.locator("#builder-q").fill("is:sample")
    expect(page.locator("#builder-results")).to_have_attribute("data-q", "is:sample")
    link = page.locator("#builder-results a[href^='/cards/']").first
    expect(link).to_be_visible()  # arrived by htmx, after the page loaded
    link.hover()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview.locator("img")).to_have_attribute("src", f"/cards/{short_id(link)}/face.png")
    expect(preview).to_have_class(re.compile(r"\bis-loaded\b"))
    shoot("builder-result-hovered")
