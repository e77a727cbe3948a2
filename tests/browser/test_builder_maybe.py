"""Planned ("maybe") cards in a real browser: a result is planned beside the deck without
touching its count or verdict, moves into the deck (and the verdict changes), undo takes the
move back, and the keyboard's `m` does the same from a result or a row."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-maybe-pass-7"
USERNAME = "browser-maybe"


@pytest.fixture
def legal_deck(django_db_blocker):
    """A legal Capital faction deck of dwarves, committed for the live server, and an orc to
    plan beside it (in the deck it would break the faction rule)."""
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(username=USERNAME))
        user = User.objects.create_user(USERNAME, password=PASSWORD)
        dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
        deck = deck_create(
            owner=user,
            game=Game.objects.get(slug="conquest-for-the-capital"),
            format_slug="faction-deck",
            name="Dwarf wall",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in dwarves)),
        )
        orc = Card.objects.get(card_set__code="CFC-SMP", factions__name="Orcs", number="21")
        first = deck.entries.order_by("card__name")[0].card
    yield deck, orc, first
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def total(page):
    return page.locator("#deck-panel .counts strong").first


def test_a_planned_card_stays_outside_the_deck_until_it_is_moved_in_and_undo_moves_it_back(
    server, page, legal_deck, shoot
):
    deck, orc, _ = legal_deck
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(f"{server}/decks/{deck.share_key}/edit/")
    expect(page.locator("#builder-tools")).to_be_visible()
    cards = total(page).text_content()
    expect(page.locator("#legality")).to_have_text("legal in Faction deck")
    expect(page.locator("#maybe-title")).to_contain_text("planned, not in the deck")

    page.get_by_label("Search Conquest for the Capital cards").fill(f'!"{orc.name}"')
    page.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("button", name=f"Maybe: {orc.name}").click()
    planned = page.locator(f"#maybe-{orc.short_id}")
    expect(planned).to_contain_text(orc.name)
    expect(planned.locator(".qty")).to_have_text("1")
    expect(page.locator(f"#result-{orc.short_id} [data-planned]")).to_have_text("1 maybe")
    # Beside the deck, not in it: the same count and the same verdict.
    expect(total(page)).to_have_text(cards)
    expect(page.locator("#legality")).to_have_text("legal in Faction deck")
    shoot("planned")
    page.get_by_role("link", name="Images", exact=True).click()
    expect(page.locator("#builder-results")).to_have_attribute("data-view", "images")
    expect(page.locator(f"#result-{orc.short_id} [data-planned]")).to_have_text("1 maybe")
    shoot("planned-faces")

    page.get_by_role("button", name=f"Into deck: every planned {orc.name}").click()
    expect(page.locator("#legality")).to_have_text("not legal in Faction deck")
    expect(total(page)).to_have_text(str(int(cards) + 1))
    expect(planned).to_have_count(0)
    expect(page.locator(".problems li[data-code=faction_mismatch]")).to_contain_text(orc.name)

    # The move is one change: undo puts the card back in the plan, and the deck as it was.
    page.get_by_role("button", name="Undo the last change").click()
    expect(planned).to_be_visible()
    expect(page.locator("#legality")).to_have_text("legal in Faction deck")
    expect(total(page)).to_have_text(cards)
    page.get_by_role("button", name="Redo the change undone").click()
    expect(planned).to_have_count(0)
    expect(total(page)).to_have_text(str(int(cards) + 1))
    assert page.url.split("?")[0].endswith("/edit/")  # no page loads: htmx swapped the panel


def test_the_m_key_plans_a_result_and_moves_rows_between_the_deck_and_the_plan(
    server, page, legal_deck, shoot
):
    deck, orc, dwarf = legal_deck
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(f"{server}/decks/{deck.share_key}/edit/")
    expect(page.locator("#builder-tools")).to_be_visible()
    cards = int(total(page).text_content())

    page.keyboard.press("?")
    expect(page.locator("#shortcuts")).to_contain_text("Maybe: plan one of the chosen result")
    page.keyboard.press("Escape")

    page.keyboard.press("/")
    page.keyboard.type(f'!"{orc.name}"')
    page.keyboard.press("Enter")
    # The pool shows every card before the search: wait for the search's own results.
    expect(page.locator("#builder-results")).to_have_attribute("data-q", f'!"{orc.name}"')
    expect(page.locator(f"#result-{orc.short_id}")).to_be_visible()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("m")
    page.keyboard.press("m")
    expect(page.locator(f"#maybe-{orc.short_id} .qty")).to_have_text("2")
    expect(total(page)).to_have_text(str(cards))

    # A deck row, in focus, goes to the plan with m; the focus moves on down the list.
    row = page.locator(f"#deck-panel li.deck-row[data-card='{dwarf.short_id}']:not(.maybe-row)")
    row.get_by_role("link", name=dwarf.name).focus()
    page.keyboard.press("m")
    expect(row).to_have_count(0)
    expect(page.locator(f"#maybe-{dwarf.short_id}")).to_contain_text(dwarf.name)
    expect(total(page)).to_have_text(str(cards - 1))
    expect(page.locator("#legality")).to_have_text("not legal in Faction deck")

    # From the plan, m brings it back; + and - count planned copies.
    page.locator(f"#maybe-{dwarf.short_id}-name").focus()
    page.keyboard.press("+")
    expect(page.locator(f"#maybe-{dwarf.short_id} .qty")).to_have_text("2")
    page.keyboard.press("-")
    expect(page.locator(f"#maybe-{dwarf.short_id} .qty")).to_have_text("1")
    expect(page.locator(f"#maybe-{dwarf.short_id}-name")).to_be_focused()
    shoot("planned-cards")
    page.keyboard.press("m")
    expect(page.locator(f"#maybe-{dwarf.short_id}")).to_have_count(0)
    expect(total(page)).to_have_text(str(cards))
    expect(page.locator("#legality")).to_have_text("legal in Faction deck")


def test_a_refused_plan_shows_why_in_the_panel(server, page, legal_deck):
    deck, orc, _ = legal_deck
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(f"{server}/decks/{deck.share_key}/edit/")
    expect(page.locator("#builder-tools")).to_be_visible()
    # Another tab moves the planned card in: "Into deck" here is then refused (a 400), and
    # the panel says why.
    page.get_by_label("Search Conquest for the Capital cards").fill(f'!"{orc.name}"')
    page.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("button", name=f"Maybe: {orc.name}").click()
    expect(page.locator(f"#maybe-{orc.short_id}")).to_be_visible()
    page.evaluate(
        """([url, card]) => {
          const body = new FormData();
          const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
          body.set("csrfmiddlewaretoken", token);
          body.set("card", card);
          body.set("action", "to-deck");
          return fetch(url, {method: "POST", body, headers: {"HX-Request": "true"}});
        }""",
        [f"/decks/{deck.share_key}/edit/maybe/", orc.short_id],
    )
    page.get_by_role("button", name=f"Into deck: every planned {orc.name}").click()
    expect(page.locator("#deck-panel .alert")).to_have_text("That card is not there to move.")
    # The refusal's panel is the deck as it is now: the orc came in from the other tab.
    expect(page.locator(f"#maybe-{orc.short_id}")).to_have_count(0)
    expect(page.locator("#legality")).to_have_text("not legal in Faction deck")
