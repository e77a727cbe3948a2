"""What search and import say when something cannot be used, in a real browser: dropped terms
with their corrections, misspelt names, and another game's cards pasted into a deck."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card
from tests.browser.conftest import delete_committed

PASSWORD = "a-Long-browser-pass-8"
PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page) -> bool:
    page.set_viewport_size(PHONE)
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 1280, "height": 900})
    return fits


def test_a_dropped_term_is_named_and_its_correction_is_one_click_away(server, page, shoot):
    page.goto(server + "/search/?q=cloudglider+t%3Aachievment+r%3Aplatinum&view=list")
    banner = page.locator(".dropped-terms li")
    expect(banner).to_have_count(2)
    expect(banner.nth(0)).to_contain_text("t:achievment was left out")
    expect(banner.nth(0)).to_contain_text("Did you mean t:achievement?")
    expect(banner.nth(1)).to_contain_text("is not a rarity of any game")
    expect(page.locator(".results-bar .count")).to_have_text("1 card")
    shoot("dropped-terms")
    assert no_sideways_scroll(page)

    banner.nth(0).get_by_role("link", name="t:achievement").click()
    expect(page).to_have_url(re.compile(r"q=cloudglider\+t%3Aachievement\+r%3Aplatinum"))
    expect(page).to_have_url(re.compile(r"view=list"))
    expect(page.locator(".dropped-terms li")).to_have_count(1)


def test_a_query_of_only_dropped_terms_shows_no_cards(server, page, shoot):
    page.goto(server + "/search/?q=t%3Aachievment+r%3Aplatinum")
    expect(page.locator(".empty")).to_contain_text("could be used, so no cards are shown")
    expect(page.locator(".face-grid")).to_have_count(0)
    shoot("nothing-applies")
    assert no_sideways_scroll(page)


def test_a_misspelt_name_offers_the_card_it_misspells(server, page, shoot):
    page.goto(server + "/search/?q=insite")
    expect(page.locator(".empty")).to_contain_text("No cards match")
    shoot("did-you-mean")
    # A card's name links to its card, as every card name on the site does.
    page.get_by_role("link", name="The Insight", exact=True).click()
    expect(page).to_have_url(re.compile(r"/cards/\w+/the-insight/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("The Insight")


@pytest.fixture
def player(django_db_blocker):
    with django_db_blocker.unblock():
        user = User.objects.create_user("browser-importer", password=PASSWORD)
        orion = list(
            Card.objects.filter(game__slug="conquest-of-orion")
            .order_by("name")
            .values_list("name", flat=True)[:36]
        )
    yield user, orion
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def test_another_games_decklist_pasted_into_a_deck_is_one_problem(server, page, player, shoot):
    _, orion = player
    page.goto(server + "/accounts/login/")
    page.get_by_label("Username").fill("browser-importer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out browser-importer")).to_be_visible()

    page.goto(server + "/decks/new/")
    page.get_by_label("Name").fill("Wrong game")
    page.get_by_label("Game and format").select_option("conquest-of-fates/standard")
    page.get_by_role("button", name="Create and start building").click()
    expect(page).to_have_url(re.compile(r"/decks/[\w-]+/edit/$"))

    text = "\n".join(f"1 {name}" for name in orion) + "\n1 Zzyzx Unknowable"
    page.get_by_label(re.compile("Paste a decklist")).fill(text)
    page.get_by_role("button", name="Replace cards").click()
    refused = page.locator(".refused li")
    expect(refused).to_have_count(2)
    expect(refused.nth(0)).to_contain_text(
        "These 36 cards (lines 1-36) are Conquest of Orion cards, not Conquest of Fates"
    )
    expect(refused.nth(1)).to_contain_text("Zzyzx Unknowable")
    shoot("other-game-paste")
    assert no_sideways_scroll(page)

    # The builder's own search shows dropped terms the same way.
    page.get_by_label("Search Conquest of Fates cards").fill("t:celestal")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.locator("#builder-results .dropped-terms li")).to_contain_text(
        "Did you mean t:celestial?"
    )
    shoot("builder-dropped-term")
