"""Variants and comparing in a real browser: two decks of one game side by side with both
quantities and their curves overlaid (two series in two colours, a legend naming the decks),
reached from a deck page through the picker; a variant's page and a deck's variants list."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_branch, deck_create, deck_set_quantity
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-8"
USERNAME = "browser-compare"
# Long enough to find what does not wrap at 390 px.
LONG = "Midrange-control-hybrid-that-never-stops-talking-about-itself"

ALL_DRAWN = """() => {
  const canvases = [...document.querySelectorAll('figure.chart canvas')];
  return window.Chart && canvases.length > 0 && canvases.every((c) => Chart.getChart(c));
}"""


@pytest.fixture
def decks(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with their owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user(USERNAME, password=PASSWORD)
        game = Game.objects.get(slug="conquest-of-orion")
        cards = list(
            Card.objects.filter(card_set__code="ORI-SMP", card_type__zone="main").order_by(
                "number_sort"
            )[:24]
        )
        base = deck_create(
            owner=owner,
            game=game,
            format_slug=game.engine.formats[0].slug,
            name=f"Orion {LONG}",
            visibility="public",
            intake=Intake(
                tuple(RequestedCard(1 + i % 3, None, c.short_id) for i, c in enumerate(cards[:20]))
            ),
        )
        variant = deck_branch(deck=base, owner=owner, name="vs. aggro")
        variant = deck_set_quantity(
            deck=variant, expected_version=None, card=cards[0].short_id, quantity=3
        )
        variant = deck_set_quantity(
            deck=variant, expected_version=None, card=cards[1].short_id, quantity=0
        )
        for card in cards[20:]:
            variant = deck_set_quantity(
                deck=variant, expected_version=None, card=card.short_id, step=2
            )
        made = {"base": base, "variant": variant, "cards": cards}
    yield made
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_two_decks_compared_show_both_quantities_and_curves_in_two_colours(
    server, page, decks, shoot
):
    page.emulate_media(reduced_motion="reduce")
    base, variant, cards = decks["base"], decks["variant"], decks["cards"]
    page.goto(server + f"/decks/compare/?a={base.share_key}&b={variant.share_key}")
    row = page.locator("table.compare-table tr", has_text=cards[0].name)
    expect(row.locator("td.num")).to_have_text(["1", "3", "+2 (1 vs 3)"])
    expect(page.locator("#only-a + ul")).to_contain_text(cards[1].name)
    expect(page.locator("#only-b + ul li")).to_have_count(4)
    page.wait_for_function(ALL_DRAWN)
    canvas = page.locator("figure.chart canvas").first
    drawn = canvas.evaluate(
        """(c) => {
            const chart = Chart.getChart(c);
            return {
                labels: chart.data.datasets.map((d) => d.label),
                colours: chart.data.datasets.map((d) => d.backgroundColor),
                legend: chart.options.plugins.legend.display,
            };
        }"""
    )
    assert drawn["labels"] == [f"A: {base.name[:29]}\u2026", "B: vs. aggro"]
    assert drawn["colours"][0] != drawn["colours"][1] and drawn["legend"]
    shoot("compare")


def test_a_deck_page_leads_to_a_comparison_with_one_of_my_decks(server, page, decks, shoot):
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(server + decks["base"].get_absolute_url())
    page.get_by_role("link", name="Compare with…").click()
    expect(page.get_by_role("heading", name="Compare two decks")).to_be_visible()
    page.get_by_label("Or one of my decks").select_option(label="vs. aggro")
    shoot("picker")
    page.get_by_role("button", name="Compare", exact=True).click()
    expect(page.get_by_role("heading", name="Compare decks")).to_be_visible()
    expect(page.locator(".compare-side h2")).to_have_text(
        [f"A: {decks['base'].name}", "B: vs. aggro"]
    )


def test_a_variant_shows_its_differences_and_its_parent_lists_it(server, page, decks, shoot):
    base, variant, cards = decks["base"], decks["variant"], decks["cards"]
    sign_in(page, server, USERNAME, PASSWORD)
    page.goto(server + variant.get_absolute_url())
    expect(page.locator(".lineage")).to_have_text(
        f"Variant of {base.name} (branched at version {base.version})"
    )
    differences = page.locator(".variant-differences")
    expect(differences).to_contain_text(f"+2 {cards[0].name} (1 \u2192 3)")
    expect(differences).to_contain_text(f"\u22122 {cards[1].name}")
    shoot("variant")
    page.goto(server + base.get_absolute_url())
    page.get_by_role("link", name="Variants 1 variant").click()
    expect(page.get_by_role("link", name="vs. aggro", exact=True)).to_be_visible()
    shoot("variants")
    page.get_by_label("Name").fill("vs. control")
    page.get_by_role("button", name="New variant").click()
    # The new variant opens in its builder.
    expect(page).to_have_url(re.compile(r"/decks/[A-Za-z0-9_-]+/edit/$"))
    expect(page.get_by_text("vs. control").first).to_be_visible()
