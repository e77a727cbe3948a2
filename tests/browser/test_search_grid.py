"""The search page in a real browser: its grid of faces, sixty a page with a next page, and
"did you mean" linking to the corrected search, at desktop width and on a 390 px phone."""

import re

from playwright.sync_api import expect

from tests.browser.test_search_messages import PHONE
from tests.browser.test_search_messages import no_sideways_scroll as fits_a_phone


def test_the_grid_shows_sixty_faces_a_page_and_the_next_page_is_one_click(server, page, shoot):
    page.goto(server + "/search/?q=order%3Aname")
    faces = page.locator(".face-grid img")
    expect(faces).to_have_count(60)
    expect(faces.first).to_have_attribute("loading", "lazy")
    # The faces in view are drawn (and so on the screenshots), not left as placeholders.
    page.wait_for_function(
        "[...document.querySelectorAll('.face-grid img')].slice(0, 5)"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    shoot("grid")
    assert fits_a_phone(page)
    # A face zooms on hover, as a card name's preview does, and inside the window.
    faces.nth(4).hover()
    preview = page.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(preview).to_have_class(re.compile(r"\bis-loaded\b"))
    zoomed = preview.bounding_box()
    face = faces.nth(4).bounding_box()
    assert zoomed["width"] > 1.4 * face["width"]
    assert zoomed["x"] >= 0 and zoomed["y"] >= 0
    assert zoomed["x"] + zoomed["width"] <= 1280 and zoomed["y"] + zoomed["height"] <= 900
    shoot("grid-zoom")
    page.locator(".results-bar .count").hover()
    expect(preview).to_be_hidden()
    page.locator('a[rel="next"]').click()
    expect(page).to_have_url(re.compile(r"page=2"))
    expect(page.locator(".face-grid img").first).to_be_visible()
    page.get_by_role("link", name="Text list").click()
    expect(page).to_have_url(re.compile(r"view=list"))
    expect(page.locator(".results-list tbody tr")).to_have_count(60)
    shoot("list")
    assert fits_a_phone(page)


def test_did_you_mean_links_to_the_corrected_search_and_fits_a_phone(server, page, shoot):
    page.goto(server + "/search/?q=%21%22The+Insite%22")
    expect(page.locator(".empty")).to_contain_text("No cards match")
    suggestion = page.locator(".did-you-mean a.meant-search")
    expect(suggestion.locator("code")).to_have_text('!"The Insight"')
    shoot("did-you-mean")
    assert fits_a_phone(page)
    page.set_viewport_size(PHONE)
    suggestion.click()
    expect(page.locator(".face-grid img")).to_have_count(1)
    expect(page.locator("input[name=q]")).to_have_value('!"The Insight"')
    page.goto(server + "/search/?q=atavaa")
    expect(page.locator(".did-you-mean")).to_contain_text("The nearest names are")
    shoot("nearest-names")
    assert fits_a_phone(page)
