"""A card page's public decks and a game page's formats and glossary, in a real browser: a long
glossary entry opens in place, and at 390 px nothing scrolls sideways."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed


def assert_no_sideways_scroll(page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1280, "height": 900})


@pytest.fixture
def used_card(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-card-decks", password="a-Long-browser-pass-7")
        card = Card.objects.filter(game__slug="conquest-of-orion", factions__isnull=False)[0]
        for name in ("Card page deck one", "Card page deck two"):
            deck_create(
                owner=owner,
                game=Game.objects.get(slug="conquest-of-orion"),
                format_slug="constructed",
                name=name,
                visibility="public",
                intake=Intake((RequestedCard(1, None, card.short_id),)),
            )
    yield card
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_card_page_lists_its_public_decks_and_links_its_faction_to_a_search(
    server, page, shoot, used_card
):
    page.goto(server + used_card.get_absolute_url())
    decks = page.locator(".card-decks")
    expect(decks.get_by_role("heading")).to_have_text("Used in 2 public decks")
    expect(decks.get_by_role("link", name="Card page deck one")).to_be_visible()
    shoot("card-page")
    assert_no_sideways_scroll(page)
    faction = used_card.factions.first()
    page.locator("a.chip", has_text=faction.name).click()
    expect(page).to_have_url(f"{server}/search/?q=f%3A%22{faction.name}%22&game=conquest-of-orion")
    expect(page.locator(".face-grid li").first).to_be_visible()


def test_a_game_page_shows_its_formats_and_opens_a_long_glossary_entry(server, page, shoot):
    page.goto(server + "/games/conquest-of-orion/")
    expect(page.locator("#format-constructed")).to_contain_text("The deck holds exactly 50 cards.")
    expect(page.locator("#format-constructed")).to_contain_text("Source: §1.6 Deck and Hand")
    sweep = page.locator("dd", has=page.locator("details")).filter(has_text="multiple units")
    sweep.locator("summary").click()
    expect(sweep.locator("details")).to_have_attribute("open", "")
    shoot("game-page")
    assert_no_sideways_scroll(page)


def test_a_game_page_lists_the_rulebook_s_terms_with_their_sources(server, page, shoot):
    page.goto(server + "/games/conquest-of-fates/")
    terms = page.locator("#terms")
    expect(terms.get_by_role("heading", name="Rulebook terms")).to_be_visible()
    expect(terms.locator("dt")).to_have_count(57)
    expect(terms.locator("#term-adjacent + dd")).to_contain_text("Rulebook: Terms & Clarifications")
    long = terms.locator("dd", has=page.locator("details")).first
    long.locator("summary").click()
    expect(long.locator("details")).to_have_attribute("open", "")
    terms.scroll_into_view_if_needed()
    shoot("game-terms")
    assert_no_sideways_scroll(page)
