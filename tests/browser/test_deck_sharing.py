"""Sharing a deck in a real browser: the export panel's Copy buttons (read back from the
clipboard), the .txt and .json downloads, and the proxy form's live preview."""

import json
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.exports.text import deck_export
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in


@pytest.fixture
def page(browser):
    """A page that may use the clipboard, as a person allowing it would."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def shared(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its deck.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-sharer", password="a-Long-browser-pass-7")
        cards = list(
            Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
                "number_sort"
            )[:12]
        )
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Shared Fleet",
            visibility="public",
            description=(
                f"Lead with [[{cards[1].name}]], then **swarm**.\n\n- Keep [[{cards[0].name}]] back"
            ),
            intake=Intake(
                tuple(
                    RequestedCard(3 if i < 3 else 1, None, c.short_id) for i, c in enumerate(cards)
                )
            ),
        )
        exports = {kind: deck_export(deck, kind) for kind in ("text", "json", "code")}
    yield deck, exports, cards
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_visitor_copies_and_downloads_a_decks_exports(server, page, shoot, shared, tmp_path):
    deck, exports, cards = shared
    page.goto(server + deck.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_contain_text("Shared Fleet")
    description = page.locator(".deck-description")
    expect(description.get_by_role("link", name=cards[1].name)).to_have_attribute(
        "href", re.compile(rf"^/cards/{cards[1].short_id}/")
    )
    expect(description.locator("strong")).to_have_text("swarm")
    shoot("deck-page")

    page.get_by_text("Export", exact=True).click()
    text_box = page.get_by_label("Decklist as plain text")
    expect(text_box).to_be_visible()
    expect(text_box).to_have_value(exports["text"]["text"])
    shoot("export-open")

    page.get_by_role("button", name="Copy the decklist").click()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_have_text(
        "Copied the decklist."
    )
    assert page.evaluate("navigator.clipboard.readText()") == exports["text"]["text"]
    shoot("decklist-copied")

    page.get_by_role("button", name="Copy the deck code").click()
    expect(page.locator("#export .copy-status")).to_have_text("Copied the deck code.")
    assert page.evaluate("navigator.clipboard.readText()") == exports["code"]["code"]
    shoot("code-copied")

    with page.expect_download() as download:
        page.get_by_role("link", name=".txt").click()
    assert download.value.suggested_filename == "shared-fleet.txt"
    saved = tmp_path / "deck.txt"
    download.value.save_as(saved)
    assert saved.read_text(encoding="utf-8") == exports["text"]["text"]

    with page.expect_download() as download:
        page.get_by_role("link", name=".json").click()
    assert download.value.suggested_filename == "shared-fleet.json"
    download.value.save_as(tmp_path / "deck.json")
    assert json.loads((tmp_path / "deck.json").read_text(encoding="utf-8")) == exports["json"]
    shoot("downloaded")


def test_the_proxy_form_redraws_its_preview_as_the_options_change(server, page, shoot, shared):
    deck, _, _ = shared
    page.goto(server + deck.get_absolute_url())
    page.get_by_role("link", name="Print proxies").click()
    expect(page).to_have_url(re.compile(rf"/decks/{deck.share_key}/proxies/$"))
    preview = page.get_by_role("img", name=re.compile("first page of the proxy sheet"))
    expect(preview).to_have_js_property("complete", True)
    assert preview.evaluate("img => img.naturalWidth") > 0
    shoot("proxy-form")

    page.get_by_label("Gap between cards (mm)").fill("3")
    page.get_by_label("Paper").select_option("letter")
    expect(preview).to_have_attribute("src", re.compile(r"paper=letter.*gap=3"))
    expect(page.locator("#preview-status")).to_have_text("Preview updated.")
    assert preview.evaluate("img => img.naturalWidth") == 510  # Letter at 60 dpi
    expect(page).to_have_url(re.compile(r"\?paper=letter&size=63x88&bleed=0&gap=3"))
    shoot("proxy-letter-gap")

    # A gap the paper cannot hold: the preview says why instead of drawing.
    page.get_by_label("Gap between cards (mm)").fill("9")
    expect(page.locator("#preview-status")).to_contain_text("leaves no room on letter")
    expect(preview).to_be_hidden()
    expect(page.get_by_text("No preview until the options are corrected.")).to_be_visible()
    shoot("proxy-refused")

    page.get_by_label("Gap between cards (mm)").fill("2")
    expect(page.locator("#preview-status")).to_have_text("Preview updated.")
    expect(preview).to_be_visible()
    with page.expect_response(re.compile(r"/proxies\.pdf\?")) as pdf:
        page.get_by_role("button", name="Download PDF").click()
    assert pdf.value.status == 200
    assert pdf.value.headers["content-type"] == "application/pdf"
    assert "paper=letter" in pdf.value.url and "gap=2" in pdf.value.url


def test_the_builders_export_panel_follows_the_deck_as_it_changes(server, page, shoot, shared):
    deck, exports, cards = shared
    sign_in(page, server, "browser-sharer", "a-Long-browser-pass-7")
    page.goto(server + f"/decks/{deck.share_key}/edit/")
    # The builder keeps sharing, printing and deleting folded below the deck.
    page.get_by_text("Share, print, delete", exact=True).click()
    page.get_by_text("Export", exact=True).click()
    text_box = page.get_by_label("Decklist as plain text")
    expect(text_box).to_have_value(exports["text"]["text"])
    first = sorted(cards[:3], key=lambda c: c.name)[0]
    page.get_by_role("button", name=f"Remove one {first.name}").click()
    expect(text_box).to_have_value(re.compile(rf"^2 {re.escape(first.name)} \(", re.MULTILINE))
    expect(page.get_by_label("Deck code", exact=True)).not_to_have_value(exports["code"]["code"])
    shoot("builder-export-updated")
