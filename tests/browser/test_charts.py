"""Deck charts in a real browser: Chart.js draws them, with tooltips, in the theme's colours,
again after the builder's panel is swapped, and a table stands in for them without JavaScript."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-8"

ALL_DRAWN = """() => {
  const canvases = [...document.querySelectorAll('figure.chart canvas')];
  return window.Chart && canvases.length > 0 && canvases.every((c) => Chart.getChart(c));
}"""

# A dark theme as the theme switch will set it: tokens under data-theme="dark" on <html>.
DARK = (
    ":root[data-theme=dark] { --ink: #e6e9ef; --muted: #a3abba; --line: #343b48; "
    "--bg: #12151b; --surface: #1b1f27; --accent: #7aa7ff; } "
    ":root[data-theme=dark] body { background: var(--bg); color: var(--ink); }"
)


@pytest.fixture
def decks(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with their owner.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-charts", password=PASSWORD)

        def deck(game, set_code, size):
            cards = Card.objects.filter(card_set__code=set_code, card_type__zone="main")
            return deck_create(
                owner=owner,
                game=Game.objects.get(slug=game),
                format_slug=Game.objects.get(slug=game).engine.formats[0].slug,
                name=f"Charted {set_code}",
                visibility="public",
                intake=Intake(
                    tuple(
                        RequestedCard(1 + i % 3, None, c.short_id)
                        for i, c in enumerate(cards.order_by("number_sort")[:size])
                    )
                ),
            )

        made = {
            "orion": deck("conquest-of-orion", "ORI-SMP", 24),
            "fates": deck("conquest-of-fates", "COF-SMP", 20),
        }
    yield made
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def canvas_of(page, title):
    return page.locator("figure.chart", has=page.locator("figcaption", has_text=title)).locator(
        "canvas"
    )


def hover_bar(page, title, dataset=0, index=0):
    """Moves the mouse onto a bar of the chart and returns its tooltip's title and lines."""
    canvas = canvas_of(page, title)
    box = canvas.bounding_box()
    bar = canvas.evaluate(
        """(c, [d, i]) => {
            const el = Chart.getChart(c).getDatasetMeta(d).data[i];
            return { x: el.x, y: (el.y + el.base) / 2 };
        }""",
        [dataset, index],
    )
    page.mouse.move(box["x"] + bar["x"], box["y"] + bar["y"])
    canvas.evaluate("(c) => new Promise((done) => requestAnimationFrame(done))")
    return canvas.evaluate(
        """(c) => {
            const tip = Chart.getChart(c).tooltip;
            return {
                active: tip.getActiveElements().length,
                title: tip.title,
                lines: tip.body.flatMap((b) => b.lines),
            };
        }"""
    )


def charts_fit(page):
    """Waits until every chart lies within the window's width (nothing of theirs scrolls
    sideways): Chart.js fits a canvas to its box on the frame after the box changes."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('figure.chart, figure.chart *')].every(
            (e) => e.getBoundingClientRect().right <= window.innerWidth
        )"""
    )
    return True


def test_an_orion_deck_page_draws_a_cost_curve_per_resource_with_tooltips(
    server, page, decks, shoot
):
    page.emulate_media(reduced_motion="reduce")
    page.goto(server + decks["orion"].get_absolute_url())
    page.wait_for_function(ALL_DRAWN)
    titles = page.locator("figure.chart figcaption").evaluate_all(
        "(els) => els.map((e) => e.firstChild.textContent.trim())"
    )
    assert titles == ["Cost curve", "Cards by Tier", "Cards by type", "Cards by race"]

    cost = canvas_of(page, "Cost curve")
    expect(cost).to_be_visible()
    expect(cost).to_have_attribute("role", "img")
    drawn = cost.evaluate(
        """(c) => {
            const chart = Chart.getChart(c);
            return {
                series: chart.data.datasets.map((d) => d.label),
                x: chart.options.scales.x.title.text,
                y: chart.options.scales.y.title.text,
                legend: chart.options.plugins.legend.display,
            };
        }"""
    )
    assert drawn == {
        "series": ["Blue cost", "Gold cost", "Red cost"],
        "x": "Cost",
        "y": "Cards",
        "legend": True,
    }

    tip = hover_bar(page, "Cost curve")
    assert tip["active"] and tip["title"] == ["Cost: 1"]
    assert [line.split(":")[0].strip() for line in tip["lines"]] == [
        "Blue cost",
        "Gold cost",
        "Red cost",
    ]
    shoot("orion-cost-tooltip")

    # The table holds the same numbers for screen readers, out of sight once drawn.
    table = page.locator("figure.chart", has_text="Cost curve").locator("table")
    assert table.evaluate("(t) => getComputedStyle(t).position") == "absolute"
    page.set_viewport_size({"width": 390, "height": 844})
    assert charts_fit(page)


def test_a_fates_deck_page_draws_its_conquest_value_curve_and_counts(server, page, decks, shoot):
    page.emulate_media(reduced_motion="reduce")
    page.goto(server + decks["fates"].get_absolute_url())
    page.wait_for_function(ALL_DRAWN)
    expect(page.locator("figure.chart.drawn")).to_have_count(3)

    tip = hover_bar(page, "Cards by Conquest Value", index=1)
    assert tip["active"] and re.fullmatch(r"Conquest Value \(CQ\): \d+", tip["title"][0])
    assert re.fullmatch(r"Cards: \d+", tip["lines"][0].strip())
    # Named categories lie along the side, so long faction names stay whole.
    factions = canvas_of(page, "Cards by faction")
    assert factions.evaluate("(c) => Chart.getChart(c).options.indexAxis") == "y"
    shoot("fates-cq-tooltip")


def test_the_charts_take_the_themes_colours_and_follow_a_theme_switch(server, page, decks, shoot):
    page.emulate_media(reduced_motion="reduce")
    page.goto(server + decks["orion"].get_absolute_url())
    page.wait_for_function(ALL_DRAWN)
    tier = canvas_of(page, "Cards by Tier")
    ink = "(c) => Chart.getChart(c).options.scales.x.ticks.color"
    assert tier.evaluate(ink) == page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--ink').trim()"
    )
    page.add_style_tag(content=DARK)
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_function(
        "(c) => Chart.getChart(c).options.scales.x.ticks.color === '#e6e9ef'",
        arg=tier.element_handle(),
    )
    # The Tier curve's dark grey is lightened until it stands out from the dark surface.
    bar = tier.evaluate("(c) => Chart.getChart(c).data.datasets[0].backgroundColor")
    r, g, b = (int(n) for n in re.findall(r"\d+", bar))
    assert min(r, g, b) > 0x50
    shoot("switched-to-dark")


def test_the_builder_redraws_its_charts_after_each_edit_without_keeping_old_ones(
    server, page, decks, shoot
):
    page.emulate_media(reduced_motion="reduce")
    sign_in(page, server, "browser-charts", PASSWORD)
    deck = decks["orion"]
    page.goto(server + f"/decks/{deck.share_key}/edit/")
    page.wait_for_function(ALL_DRAWN)
    before = page.evaluate("Object.keys(Chart.instances).length")
    assert before == page.locator("figure.chart canvas").count() == 4

    for version in (deck.version + 1, deck.version + 2):
        page.locator("#deck-panel button[value=remove]").first.click()
        expect(page.locator("#deck-panel")).to_have_attribute("data-version", str(version))
        page.wait_for_function(ALL_DRAWN)
    expect(page.locator("figure.chart.drawn")).to_have_count(4)
    assert page.evaluate("Object.keys(Chart.instances).length") == 4
    assert page.url.endswith("/edit/")
    shoot("builder-after-edits")
    page.set_viewport_size({"width": 390, "height": 844})
    assert charts_fit(page)


def test_without_javascript_each_chart_is_a_table(server, browser, decks):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server + decks["orion"].get_absolute_url())
    cost = page.locator("figure.chart", has_text="Cost curve")
    expect(cost.locator("table")).to_be_visible()
    expect(cost.locator("canvas")).to_be_hidden()
    expect(cost.locator("thead th")).to_have_text(["Cost", "Blue cost", "Gold cost", "Red cost"])
    assert charts_fit(page)
    context.close()
