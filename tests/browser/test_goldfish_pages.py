"""Each game's simulation page in a real browser: a legal deck simulated from the form, its
summary as a table, and every chart drawn to scale (no bar cut off at the top), at desktop
width and 390 px, in the light and the dark theme."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Game
from cardsite.catalogue.selectors import card_search
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed

USERNAME = "goldfish-pages"

# The legal decks of tests/decks/test_validate_api.py: a search and the copies of each card.
DECKS = {
    "conquest-of-fates": ("standard", [("f:verdant t:unit -is:apex", 21, 1)]),
    "conquest-of-orion": ("limited", [("f:aliens t:unit", 10, 3)]),
    "fate-foretold": (
        "nest",
        [(f't:"nest card" f:{suit}', 15, 1) for suit in ("body", "heart", "mind", "soul")],
    ),
    "conquest-for-the-capital": ("faction-deck", [("f:dwarves", 20, 1)]),
    # A player's 33-card deck, which has a hand to draw (a target deck has none).
    "conquest-alpha-tactics": ("faction-deck", [("f:starfleet", 33, 1)]),
}

# Every chart is drawn, and each value axis reaches past the tallest bar (and its spread),
# so no bar is cut off: returns the charts that would be, by title, with their numbers.
CLIPPED = """() => [...document.querySelectorAll('figure.chart canvas')].flatMap((canvas) => {
  const chart = Chart.getChart(canvas);
  const axis = chart.options.indexAxis === 'y' ? chart.scales.x : chart.scales.y;
  const top = Math.max(...chart.data.datasets.flatMap((d) => d.data.map((v) =>
    typeof v === 'object' && v !== null ? Math.max(v.y ?? v.x ?? 0, v.yMax ?? 0) : v)));
  return axis.max >= top ? [] : [`${canvas.getAttribute('aria-label')}: ${axis.max} < ${top}`];
})"""

ALL_DRAWN = """() => {
  const canvases = [...document.querySelectorAll('figure.chart canvas')];
  return window.Chart && canvases.length > 0 && canvases.every((c) => Chart.getChart(c));
}"""


@pytest.fixture
def decks(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with their owner.
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(username=USERNAME))
        owner = User.objects.create_user(USERNAME, password="a-Long-goldfish-pass-6")
        made = {}
        for slug, (fmt, searches) in DECKS.items():
            wanted = []
            for query, cards, copies in searches:
                found = card_search(text=query, game=slug).cards.order_by("name")[:cards]
                wanted += [RequestedCard(copies, None, c.short_id) for c in found]
            made[slug] = deck_create(
                owner=owner,
                game=Game.objects.get(slug=slug),
                format_slug=fmt,
                name=f"Goldfish {slug}",
                visibility="public",
                intake=Intake(tuple(wanted)),
            )
    yield made
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


@pytest.mark.parametrize("game", list(DECKS))
def test_each_games_simulation_shows_a_summary_table_and_charts_in_scale(
    server, page, shoot, decks, game
):
    page.goto(f"{server}/decks/{decks[game].share_key}/goldfish/?seed=5")
    # What a simulated game does comes first, and says what the ± beside a mean is.
    expect(page.get_by_role("heading", name="What is simulated")).to_be_visible()
    expect(page.locator(".simulated")).to_contain_text("standard deviation")
    page.get_by_label("Games", exact=False).first.fill("1000")
    # The form is held back once, to see that it shows at once that it is working; then sent.
    page.evaluate(
        """() => document.querySelector('form.goldfish-form')
          .addEventListener('submit', (e) => e.preventDefault(), { once: true })"""
    )
    page.get_by_role("button", name="Simulate").click()
    expect(page.locator(".simulating")).to_contain_text("Simulating")
    expect(page.locator(".simulating progress")).to_be_visible()
    expect(page.get_by_role("button", name="Simulate")).to_be_disabled()
    page.evaluate("() => document.querySelector('form.goldfish-form').submit()")
    expect(page.locator("table.summary-table").first).to_be_visible()
    expect(page.locator("table.summary-table tbody tr").first).to_be_visible()
    assert "{'" not in page.locator("main").inner_text()
    page.wait_for_function(ALL_DRAWN)
    assert page.evaluate(CLIPPED) == []
    # A figure of one row per card or per turn, past ten rows, is folded and opens on a click.
    folds = page.locator("details.summary-fold")
    for i in range(folds.count()):
        expect(folds.nth(i).locator("table")).to_be_hidden()
    if folds.count():
        folds.first.locator("summary").click()
        expect(folds.first.locator("table")).to_be_visible()
    shoot("simulated")
