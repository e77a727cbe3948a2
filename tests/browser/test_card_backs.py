"""A card page shows its game's proxy back without JavaScript's help, and a game page shows it
too; at 390 px neither scrolls sideways."""

import pytest
from playwright.sync_api import expect

from cardsite.catalogue.models import Card
from tests.browser.test_card_and_game_pages import assert_no_sideways_scroll


@pytest.mark.parametrize(
    "set_code,name",
    [("TAC-SMP", "Sample: Akira-class Carrier"), ("FF-SMP", "Sample Sigil: The Crowned Heron")],
    ids=["portrait", "landscape"],
)
def test_a_card_page_opens_its_back_below_the_face(server, page, shoot, set_code, name):
    card = Card.objects.get(card_set__code=set_code, name=name)
    page.goto(server + card.get_absolute_url())
    back = page.get_by_role("img", name="proxy back")
    expect(back).to_be_hidden()
    page.get_by_text("Show the back").click()
    expect(back).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=back.element_handle())
    face_box = page.locator(".card-face img").bounding_box()
    back_box = back.bounding_box()
    # The back lies under the face at the face's width, turned the same way.
    assert back_box["y"] >= face_box["y"] + face_box["height"]
    assert abs(back_box["width"] - face_box["width"]) < 1
    assert abs(back_box["height"] - face_box["height"]) < 1
    shoot("card-back")
    assert_no_sideways_scroll(page)


def test_a_game_page_shows_its_back(server, page, shoot):
    page.goto(server + "/games/conquest-for-the-capital/")
    back = page.get_by_role("img", name="proxy back")
    back.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=back.element_handle())
    page.locator("#card-back").scroll_into_view_if_needed()
    shoot("game-back")
    assert_no_sideways_scroll(page)
