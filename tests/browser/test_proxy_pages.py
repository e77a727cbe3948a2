"""The proxy form's PNG pages in a real browser: a link for every page, following the options
as they change, each opening the page at 300 dpi for the signed-in owner of a private deck."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-8"


@pytest.fixture
def private_deck(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-pages", password=PASSWORD)
        cards = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort")[:12]
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Paged Fleet",
            visibility="private",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
        )
    yield deck
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_the_proxy_form_links_each_png_page_with_the_options_chosen(
    server, page, shoot, private_deck
):
    sign_in(page, server, "browser-pages", PASSWORD)
    page.goto(server + f"/decks/{private_deck.share_key}/proxies/")
    pages = page.get_by_role("navigation", name=re.compile("PNG pages"))
    expect(pages.get_by_role("link")).to_have_text(["1", "2"])
    shoot("png-pages")

    # Backs double the pages, and the links carry the options as they are now.
    page.get_by_label("Paper").select_option("letter")
    page.get_by_label(re.compile("Card backs")).check()
    expect(pages.get_by_role("link")).to_have_text(["1 front", "2 back", "3 front", "4 back"])
    back = pages.get_by_role("link", name="2 back")
    expect(back).to_have_attribute("href", re.compile(r"page=2&.*paper=letter.*backs=1"))
    shoot("png-pages-backs")

    # An option out of range hides the links until it is corrected.
    page.get_by_label("Gap between cards (mm)").fill("11")
    expect(pages).to_be_hidden()
    page.get_by_label("Gap between cards (mm)").fill("1")
    expect(pages).to_be_visible()

    with page.expect_response(re.compile(r"/proxies\.png\?page=2")) as answer:
        back.click()
    assert answer.value.status == 200
    assert answer.value.headers["content-type"] == "image/png"
    assert answer.value.headers["x-page-count"] == "4"
    size = page.locator("img").evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert size == [2550, 3300]
