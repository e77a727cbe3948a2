"""The printer's back offset in a real browser: the proxy form's offset fields and its
"Remember these offsets" button, and the printing page they are saved on."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.models import PrintProfile
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-printer-pass-7"


@pytest.fixture
def printer_deck(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its deck.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-printer", password=PASSWORD)
        cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
            "number_sort"
        )[:4]
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Duplex Fleet",
            visibility="private",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
        )
    yield deck
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_offsets_typed_on_the_proxy_form_are_remembered_for_every_sheet(
    server, page, shoot, printer_deck, django_db_blocker
):
    sign_in(page, server, "browser-printer", PASSWORD)
    page.goto(f"{server}/decks/{printer_deck.share_key}/proxies/?backs=1")
    remember = page.get_by_role("button", name="Remember these offsets for every sheet")
    expect(remember).to_be_hidden()
    page.get_by_label("Across, x").fill("1.3")
    page.get_by_label("Up, y").fill("-2.7")
    expect(remember).to_be_visible()
    expect(page).to_have_url(re.compile(r"back_offset_x=1\.3&back_offset_y=-2\.7"))
    shoot("proxy-form-offsets")

    remember.click()
    expect(page.get_by_role("status").filter(has_text="Saved")).to_contain_text(
        "x 1.3 mm, y -2.7 mm"
    )
    expect(page).to_have_url(re.compile(rf"/decks/{printer_deck.share_key}/proxies/\?"))
    expect(page.get_by_label("Across, x")).to_have_value("1.3")
    expect(remember).to_be_hidden()
    with django_db_blocker.unblock():
        profile = PrintProfile.objects.get(user=printer_deck.owner)
    assert (str(profile.back_offset_x), str(profile.back_offset_y)) == ("1.3", "-2.7")
    shoot("proxy-form-remembered")


def test_the_printing_page_saves_the_offsets_and_links_the_calibration_sheet(
    server, page, shoot, printer_deck
):
    sign_in(page, server, "browser-printer", PASSWORD)
    page.get_by_role("link", name="Settings").first.click()
    expect(page.get_by_role("heading", level=2).first).to_have_text("Your printer")
    expect(page.get_by_role("link", name="A4")).to_have_attribute(
        "href", "/proxies/calibration.pdf"
    )
    shoot("printing-page")
    page.get_by_label("Back offset across, x (mm)").fill("0.5")
    page.get_by_label("Back offset up, y (mm)").fill("1")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("x 0.5 mm, y 1 mm")
    expect(page.get_by_label("Back offset up, y (mm)")).to_have_value("1")
    shoot("printing-saved")
