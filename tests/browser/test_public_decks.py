"""Finding public decks in a real browser: filtering by game, format and card and searching by
name update the results in place (htmx) and the URL, and the same form works without
JavaScript; at 390 px the list stacks and nothing scrolls sideways."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed

ORION = "conquest-of-orion"
CAPITAL = "conquest-for-the-capital"
FETE, RUSH, SLOW, WALL = (
    "Finder Fête des Étoiles",
    "Finder Limited Rush",
    "Finder Limited Slow",
    "Finder Capital Wall",
)


def _sample(game):
    return Card.objects.filter(game__slug=game, card_set__is_official=False).order_by("number_sort")


@pytest.fixture
def decks(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with their owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-finder", password="a-Long-browser-pass-7")
        orion, capital = Game.objects.get(slug=ORION), Game.objects.get(slug=CAPITAL)
        marked = _sample(ORION)[0]
        others = list(_sample(ORION)[1:6])

        def make(name, game, fmt, cards):
            deck_create(
                owner=owner,
                game=game,
                format_slug=fmt,
                name=name,
                visibility="public",
                intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
            )

        make(FETE, orion, "constructed", [marked, *others])
        make(RUSH, orion, "limited", [marked])
        make(SLOW, orion, "limited", others)
        make(WALL, capital, "faction-deck", list(_sample(CAPITAL)[:4]))
    yield marked
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def listed(page) -> list[str]:
    return page.locator("#deck-results .deck-name a").all_inner_texts()


def expect_listed(page, names: list[str]) -> None:
    """Waits until the results are these decks, in this order: htmx swaps them in later."""
    expect(page.locator("#deck-results .deck-name a")).to_have_text(names)


def no_sideways_scroll(page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, wide
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_visitor_filters_public_decks_by_game_format_and_card_and_searches_by_name(
    server, page, shoot, decks
):
    # Recently updated first: the decks were made in the fixture's order.
    page.goto(server + "/decks/?q=finder")
    expect_listed(page, [WALL, SLOW, RUSH, FETE])
    shoot("all-finder-decks")
    no_sideways_scroll(page)

    page.get_by_label("Game", exact=True).select_option(ORION)
    expect_listed(page, [SLOW, RUSH, FETE])
    expect(page).to_have_url(re.compile(rf"game={ORION}"))
    # Only this game's formats are offered now.
    expect(page.locator(f'select[name=format] optgroup[data-game="{CAPITAL}"]')).to_be_hidden()
    shoot("by-game")

    page.get_by_label("Format", exact=True).select_option("limited")
    expect_listed(page, [SLOW, RUSH])
    expect(page.locator("#deck-results .badge").first).to_have_text("not legal")
    shoot("by-format")

    page.get_by_label("Card", exact=True).fill(decks.name)
    expect_listed(page, [RUSH])
    expect(page.locator("#deck-results .results-bar a")).to_have_attribute(
        "href", decks.get_absolute_url()
    )
    expect(page).to_have_url(re.compile(r"card="))
    shoot("by-card")

    # A name search ignores case and accents; the other filters are cleared first.
    page.get_by_label("Card", exact=True).fill("")
    page.get_by_label("Format", exact=True).select_option("")
    page.get_by_label("Name", exact=True).fill("FETE DES ETOILES")
    expect_listed(page, [FETE])
    expect(page).to_have_url(re.compile(r"q=FETE"))
    shoot("by-name")
    no_sideways_scroll(page)

    # The URL holds the filters: loading it again gives the same list.
    page.goto(page.url)
    expect_listed(page, [FETE])


def test_changing_the_game_clears_a_format_the_new_game_has_not(server, page, decks):
    page.goto(server + f"/decks/?q=finder&game={ORION}&format=constructed")
    expect_listed(page, [FETE])
    page.get_by_label("Game", exact=True).select_option(CAPITAL)
    expect_listed(page, [WALL])
    assert page.get_by_label("Format", exact=True).input_value() == ""


def test_a_refused_filter_names_its_limit_in_place(server, page, shoot, decks):
    page.goto(server + "/decks/")
    page.get_by_label("Name", exact=True).fill(" ".join(["word"] * 11))
    expect(page.locator("#deck-results .alert.error")).to_contain_text("at most 10 words")
    shoot("refused")


def test_the_filters_work_without_javascript(server, browser, decks):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/decks/?q=finder")
    page.get_by_label("Game", exact=True).select_option(ORION)
    page.get_by_label("Format", exact=True).select_option("limited")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(rf"game={ORION}.*format=limited"))
    assert listed(page) == [SLOW, RUSH]
    context.close()
