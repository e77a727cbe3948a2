"""A real headless Chromium (Debian's package, installed by .ci/run) against the session's live
server (`server`, tests/conftest.py).

pytest-django's own live_server makes each test transactional and flushes the database
afterwards, which would empty the catalogue the whole session shares. Instead one server
serves the loaded catalogue for the whole session, and a test commits what else it needs
(outside any test transaction, so the server's own connections see it) and deletes it after.
"""

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without these, Chromium keeps trying to reach Google's services from this sandbox.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}; .ci/run installs Debian's chromium.")
    # Playwright's sync API runs an event loop; the test itself touches the database only
    # before and after driving the page, never concurrently.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect, sync_playwright

    # Generous waits: CI machines are busy, and a wait ends as soon as its condition holds.
    expect.set_options(timeout=20_000)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


SCREENSHOTS = Path(__file__).resolve().parents[2] / ".test-screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def shoot(page, request) -> Callable[[str], list[Path]]:
    """shoot("name") saves the page as it is now at desktop width and at 390 px, in the light
    and the dark theme, under .test-screenshots/<test>/, to be looked at; the page is put back
    as it was. Returns the files written."""

    def take(name: str) -> list[Path]:
        folder = SCREENSHOTS / request.node.name
        folder.mkdir(parents=True, exist_ok=True)
        before = page.viewport_size or DESKTOP
        written = []
        for width_name, size in (("desktop", DESKTOP), ("390", PHONE)):
            page.set_viewport_size(size)
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                path = folder / f"{name}-{width_name}-{theme}.png"
                page.screenshot(path=str(path), full_page=True)
                written.append(path)
        page.set_viewport_size(before)
        page.emulate_media(color_scheme="light")
        return written

    return take


def sign_in(page, server: str, username: str, password: str) -> None:
    page.goto(server + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def delete_committed(queryset: Any) -> None:
    """Delete rows a test committed for the live server. The server thread may still be
    answering the page's last requests (an image, an htmx swap); the delete waits for their
    writes as any writer does (the busy timeout), rather than leave the rows behind to break
    the next test's fixture."""
    queryset.delete()
