"""My decks and the public decks in a real browser: each deck a row of its key cards' faces and
its facts, filtered in place, and at 390 px nothing scrolls sideways."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from decks.services.building import deck_build
from tests.browser.conftest import delete_committed, sign_in

ORION = "conquest-of-orion"
TACTICS = "conquest-alpha-tactics"
FATE = "fate-foretold"
USERNAME, PASSWORD = "browser-lister", "a-Long-browser-pass-7"
LEGAL, SMALL, TARGETS, NEST = (
    "Lister Humans Constructed",
    "Lister a deck whose rather long name has to wrap on a phone",
    "Lister Tactics with targets",
    "Lister Nest",
)


def _sample(game, **filters):
    return Card.objects.filter(game__slug=game, card_set__is_official=False, **filters).order_by(
        "number_sort"
    )


@pytest.fixture
def decks(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with their owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user(USERNAME, password=PASSWORD)

        def make(name, game, fmt, pairs, **kw):
            return deck_create(
                owner=owner,
                game=Game.objects.get(slug=game),
                format_slug=fmt,
                name=name,
                visibility=kw.pop("visibility", "public"),
                intake=Intake(tuple(RequestedCard(n, None, c.short_id) for c, n in pairs)),
                **kw,
            )

        humans = list(_sample(ORION, factions__name="Humans")[:36])
        no_race = list(_sample(ORION, factions__isnull=True).exclude(card_type__name="Planet")[:14])
        legal = make(
            LEGAL, ORION, "constructed", [(c, 1) for c in humans + no_race], faction="Humans"
        )
        deck_build(deck=legal, user=owner)
        make(
            SMALL,
            ORION,
            "limited",
            [(c, n) for c, n in zip(_sample(ORION)[:4], (3, 2, 1, 1), strict=True)],
        )
        make(TARGETS, TACTICS, "faction-deck", [(c, 1) for c in _sample(TACTICS)[:6]])
        make(NEST, FATE, "nest", [(c, 1) for c in _sample(FATE)[:8]], visibility="private")
    yield
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def names(page) -> list[str]:
    return page.locator("#deck-results .deck-name a").all_inner_texts()


def no_sideways_scroll(page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, wide
    page.set_viewport_size({"width": 1280, "height": 900})


def faces_loaded(page) -> None:
    """Every face of the list has loaded (they are lazy: scrolled into view first)."""
    for img in page.locator(".key-cards img").all():
        img.scroll_into_view_if_needed()
        expect(img).to_have_js_property("complete", True)
        assert img.evaluate("i => i.naturalWidth") > 0, img.get_attribute("src")
    page.evaluate("window.scrollTo(0, 0)")


def test_my_decks_shows_faces_and_facts_and_filters_in_place_at_any_width(
    server, page, shoot, decks
):
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(server + "/decks/mine/")
    expect(page.locator("#deck-results .deck-name a")).to_have_count(4)
    legal = page.locator(".deck-item", has_text=LEGAL)
    expect(legal.locator(".deck-facts")).to_contain_text("Constructed")
    expect(legal.locator(".deck-facts")).to_contain_text("50 cards")
    expect(legal.locator(".badge.legal")).to_have_text("legal")
    expect(legal.locator(".badge.built")).to_have_text("Built")
    expect(legal.locator(".deck-when time")).to_have_attribute("title", re.compile(r"\d{4}"))
    expect(page.locator(".deck-item", has_text=SMALL).locator(".copies").first).to_have_text(
        "\u00d73"
    )
    faces_loaded(page)
    shoot("my-decks")
    no_sideways_scroll(page)

    page.get_by_label("Legality", exact=True).select_option("legal")
    expect(page.locator("#deck-results .deck-name a")).to_have_text([LEGAL])
    expect(page).to_have_url(re.compile(r"legality=legal"))
    page.get_by_label("Legality", exact=True).select_option("")
    page.get_by_label("Sort", exact=True).select_option("name")
    expect(page.locator("#deck-results .deck-name a")).to_have_text(
        sorted([LEGAL, SMALL, TARGETS, NEST], key=str.lower)
    )
    shoot("my-decks-by-name")
    no_sideways_scroll(page)


def test_the_public_list_shows_faces_and_facts_and_no_private_deck_at_any_width(
    server, page, shoot, decks
):
    page.goto(server + "/decks/?q=lister")
    expect(page.locator("#deck-results .deck-name a")).to_have_count(3)
    assert NEST not in names(page)
    expect(page.locator(".deck-item", has_text=TARGETS).locator(".deck-facts")).to_contain_text(
        "by " + USERNAME
    )
    # Built or not is its owner's to know.
    expect(page.locator("#deck-results .badge.built")).to_have_count(0)
    faces_loaded(page)
    shoot("public-decks")
    no_sideways_scroll(page)
