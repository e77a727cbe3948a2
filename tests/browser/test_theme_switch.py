"""The dark theme: it follows the system, and the header's switch forces either theme and is
remembered (cookie for the server's first paint, localStorage as a back-up)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP

DARK_BG = "rgb(18, 22, 29)"  # --bg in the dark theme
LIGHT_BG = "rgb(246, 247, 249)"  # --bg in the light theme


def background(page: Any) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_site_follows_the_systems_theme_until_one_is_chosen(server, page, shoot):
    page.emulate_media(color_scheme="dark")
    page.goto(server + "/")
    assert background(page) == DARK_BG
    page.emulate_media(color_scheme="light")
    assert background(page) == LIGHT_BG
    shoot("home")


def test_the_switch_cycles_system_light_dark_and_the_choice_survives_a_reload(server, page, shoot):
    page.emulate_media(color_scheme="dark")
    page.goto(server + "/syntax/")
    switch = page.locator(".theme-switch button")
    expect(switch).to_have_accessible_name("Theme: System")

    switch.click()
    expect(switch).to_have_accessible_name("Theme: Light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert background(page) == LIGHT_BG  # forced, though the system is dark
    assert page.url == server + "/syntax/"  # no page load: site.js switched it in place

    switch.click()
    expect(switch).to_have_accessible_name("Theme: Dark")
    page.emulate_media(color_scheme="light")
    assert background(page) == DARK_BG
    # The server paints the next page dark from the first frame.
    first_paint = page.request.get(server + "/syntax/").text()
    assert '<html lang="en" data-theme="dark">' in first_paint
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate("localStorage.getItem('theme')") == "dark"
    shoot("forced-dark")

    page.locator(".theme-switch button").click()
    expect(page.locator(".theme-switch button")).to_have_accessible_name("Theme: System")
    expect(page.locator("html")).not_to_have_attribute("data-theme", "dark")
    assert page.evaluate("localStorage.getItem('theme')") is None
    assert "theme=" not in page.evaluate("document.cookie")


def test_a_choice_kept_in_local_storage_comes_back_when_the_cookie_is_gone(server, page):
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('theme', 'dark')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert "theme=dark" in page.evaluate("document.cookie")


@pytest.fixture
def no_script_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    yield context.new_page()
    context.close()


def test_without_javascript_the_switch_still_works_through_the_server(server, no_script_page):
    page = no_script_page
    page.goto(server + "/decks/")
    page.get_by_role("button", name="Theme: System").click()
    expect(page).to_have_url(server + "/decks/")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.get_by_role("button", name="Theme: Light").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")


def test_without_javascript_the_narrow_menu_still_opens(server, no_script_page):
    page = no_script_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + "/")
    log_in = page.get_by_role("link", name="Log in")
    expect(log_in).to_be_hidden()
    page.get_by_text("Menu").click()
    expect(log_in).to_be_visible()
    log_in.click()
    expect(page).to_have_url(server + "/accounts/login/")
