import re

from playwright.sync_api import expect


def test_a_visitor_goes_from_home_to_a_game_searches_apex_and_follows_a_cards_short_link(
    server, page
):
    page.goto(server + "/")
    page.get_by_role("link", name="Conquest of Fates").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Conquest of Fates")

    page.get_by_role("searchbox", name="Search Conquest of Fates").fill("is:apex")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page).to_have_url(re.compile(r"/search/\?q=is%3Aapex&game=conquest-of-fates"))
    expect(page.locator(".results-bar .count")).to_have_text("6 cards")

    first = page.locator(".face-grid li a").first
    card_name = first.get_attribute("title")
    first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(card_name)
    expect(page.locator(".card-face img")).to_have_js_property("complete", True)
    assert page.locator(".card-face img").evaluate("img => img.naturalWidth") > 0
    card_url = page.url

    short_link = page.locator("a.short-link").get_attribute("href")
    assert re.fullmatch(r"/c/[0-9a-z]{8}", short_link)
    page.goto(server + "/")
    page.goto(server + short_link)
    expect(page).to_have_url(card_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text(card_name)


def test_a_query_that_cannot_be_read_shows_where_it_went_wrong(server, page):
    page.goto(server + "/search/?q=" + "(t:unit")
    expect(page.get_by_role("alert")).to_contain_text("never closed")
    expect(page.locator(".query-caret mark")).to_have_text("(t:unit")


def test_the_header_search_has_a_button_that_sends_it_at_either_width(server, page, shoot):
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(server + "/syntax/")
        header = page.locator(".site-header")
        header.get_by_role("searchbox", name="Search cards").fill("is:apex")
        button = header.get_by_role("button", name="Search cards")
        box = button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width  # on screen, not off it
        button.click()
        expect(page).to_have_url(re.compile(r"/search/\?q=is%3Aapex$"))
        expect(page.locator(".results-bar .count")).to_contain_text("cards")
    page.goto(server + "/")
    shoot("header")
