"""Building a deck in a real browser: the panel updates in place (htmx) as cards come and go."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card
from tests.browser.conftest import delete_committed

PASSWORD = "a-Long-browser-pass-7"


@pytest.fixture
def player(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its decks.
    with django_db_blocker.unblock():
        user = User.objects.create_user("browser-builder", password=PASSWORD)
        dwarves = list(
            Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
            .order_by("number_sort")
            .values_list("name", flat=True)
        )
        extra = Card.objects.get(card_set__code="CFC-SMP", factions__name="Orcs", number="21").name
    yield user, dwarves, extra
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def test_a_player_builds_a_legal_deck_from_nothing_and_sees_a_problem_come_and_go(
    server, page, player, shoot
):
    _, dwarves, orc_card = player
    page.goto(server + "/accounts/login/")
    page.get_by_label("Username").fill("browser-builder")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out browser-builder")).to_be_visible()

    page.goto(server + "/decks/new/")
    page.get_by_label("Name").fill("Dwarf wall")
    page.get_by_label("Game and format").select_option("conquest-for-the-capital/faction-deck")
    page.get_by_role("button", name="Create and start building").click()
    expect(page).to_have_url(re.compile(r"/decks/[\w-]+/edit/$"))
    expect(page.locator("#legality")).to_have_text("not legal in Faction deck")

    page.get_by_label(re.compile("Paste a decklist")).fill(
        "\n".join(f"1 {name}" for name in dwarves)
    )
    page.get_by_role("button", name="Replace cards").click()
    expect(page.locator("#legality")).to_have_text("legal in Faction deck")
    expect(page.locator(".validation")).to_contain_text("No problems")

    # Add a card of another faction through search: a problem appears...
    page.get_by_label("Search Conquest for the Capital cards").fill(f'!"{orc_card}"')
    page.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("button", name=f"Add {orc_card}").click()
    problem = page.locator(".problems li[data-code=faction_mismatch]")
    expect(problem).to_contain_text(orc_card)
    expect(page.locator("#legality")).to_have_text("not legal in Faction deck")
    # The problem links to the card's row, which carries a mark naming the problem.
    problem.get_by_role("link", name=orc_card).click()
    row = page.locator("li.deck-row.flagged")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(orc_card)
    expect(row.get_by_role("link", name=orc_card)).to_have_attribute(
        "aria-describedby", re.compile(r"problem-\w+")
    )
    # The problem's words are shown in the row itself, not only in a tooltip.
    expect(row.locator(".row-problems")).to_be_visible()
    expect(row.locator(".row-problems")).to_contain_text("not of the deck's faction")
    expect(page.locator("#deck-panel h3.zone-head[data-zone]").first).to_be_visible()
    assert page.url.endswith("#" + row.get_attribute("id"))
    shoot("problem-marked")

    # ...and goes away when the card is removed again. (Once htmx has settled the last swap:
    # a button clicked in the few milliseconds before htmx takes the new panel over is sent
    # as a plain form, which works too, but as a page load, which this test rules out.)
    busy = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"
    page.wait_for_function(f"() => !document.querySelector('{busy}')")
    loads = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    page.get_by_role("button", name=f"Remove one {orc_card}").click()
    expect(page.locator(".problems li[data-code=faction_mismatch]")).to_have_count(0)
    expect(page.locator("#legality")).to_have_text("legal in Faction deck")
    assert loads == []  # no full page loads: htmx swapped the panel
