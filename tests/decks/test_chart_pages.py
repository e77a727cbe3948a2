"""Deck charts on the pages: each chart's numbers go out as JSON for the script and as a
table, which is what a reader without JavaScript (or with a screen reader) gets."""

import html
import json
import re

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_charts, deck_create, intake_deck, resolve

pytestmark = pytest.mark.django_db

PASSWORD = "x-Long-pass-9"
SCRIPTS = ("vendor/chartjs/chart.umd.min.js", "js/charts.js")


@pytest.fixture
def owner():
    return User.objects.create_user("charter", password=PASSWORD)


def deck_of(owner, game, set_code, size=20):
    cards = Card.objects.filter(card_set__code=set_code, card_type__zone="main")[:size]
    if not cards:
        cards = Card.objects.filter(card_set__code=set_code)[:size]
    engine = Game.objects.get(slug=game).engine
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=game),
        format_slug=engine.formats[0].slug,
        name="Charted",
        visibility="public",
        intake=Intake(
            tuple(RequestedCard(1 + i % 2, None, c.short_id) for i, c in enumerate(cards))
        ),
    )


def charts_of(deck):
    return deck_charts(resolve(game=deck.game.slug, intake=intake_deck(deck)))


def json_of(page, chart_id):
    found = re.search(
        rf'<script id="chart-data-{re.escape(chart_id)}" type="application/json">(.*?)</script>',
        page,
        re.DOTALL,
    )
    assert found, f"no data for chart {chart_id}"
    return json.loads(found.group(1))


def table_of(page, chart_id):
    """The rows of the table in the chart's figure, as (category, [values])."""
    figure = re.search(
        rf'<figure class="chart[^"]*" data-chart="chart-data-{re.escape(chart_id)}">(.*?)</figure>',
        page,
        re.DOTALL,
    )
    assert figure, f"no figure for chart {chart_id}"
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', figure.group(1))
    return [(html.unescape(k), re.findall(r"<td>(.*?)</td>", v)) for k, v in rows]


def assert_carries_every_chart(page, charts):
    assert charts
    for chart in charts:
        assert json_of(page, chart.id) == chart.data()
        assert table_of(page, chart.id) == chart.rows()
        assert f'aria-label="{html.escape(chart.title)}: bar chart of' in page


@pytest.mark.parametrize(
    ("game", "set_code"),
    [
        ("conquest-of-orion", "ORI-SMP"),
        ("conquest-of-fates", "COF-SMP"),
        ("fate-foretold", "FF-SMP"),
        ("conquest-for-the-capital", "CFC-SMP"),
        ("conquest-alpha-tactics", "TAC-SMP"),
    ],
)
def test_the_deck_page_carries_each_charts_numbers_as_json_and_as_a_table(
    client, owner, game, set_code
):
    deck = deck_of(owner, game, set_code)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert_carries_every_chart(page, charts_of(deck))
    for script in SCRIPTS:
        assert f'src="/static/{script}" defer' in page


def test_the_orion_deck_page_has_a_cost_curve_of_three_resources(client, owner):
    deck = deck_of(owner, "conquest-of-orion", "ORI-SMP")
    page = client.get(deck.get_absolute_url()).content.decode()
    cost = json_of(page, "cost-curve")
    assert [s["name"] for s in cost["series"]] == ["Blue cost", "Gold cost", "Red cost"]
    assert (cost["x"], cost["y"]) == ("Cost", "Cards")


def test_the_builder_panel_carries_the_charts_and_its_swap_leaves_the_scripts_out(client, owner):
    deck = deck_of(owner, "conquest-of-fates", "COF-SMP")
    client.force_login(owner)
    full = client.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert_carries_every_chart(full, charts_of(deck))
    assert all(script in full for script in SCRIPTS)

    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").last()
    swapped = client.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": card.short_id, "action": "add", "version": deck.version},
        headers={"HX-Request": "true"},
    ).content.decode()
    deck.refresh_from_db()
    assert_carries_every_chart(swapped, charts_of(deck))
    # The page already ran them; htmx would run them again for every edit.
    assert not any(script in swapped for script in SCRIPTS)


def test_an_empty_deck_shows_no_charts(client, owner):
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Empty",
        visibility="public",
    )
    page = client.get(deck.get_absolute_url()).content.decode()
    assert '<figure class="chart' not in page


def test_the_goldfish_page_draws_its_simulation_with_the_same_charts(client, owner):
    deck = deck_of(owner, "conquest-of-fates", "COF-SMP", size=30)
    page = client.get(
        f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 200}
    ).content.decode()
    total = json_of(page, "total-cq")
    assert (total["title"], total["x"], total["y"]) == (
        "CQ tallied over a game",
        "CQ over the game",
        "Games",
    )
    assert sum(total["series"][0]["values"]) == 200
    assert len(table_of(page, "total-cq")) == len(total["labels"])
    assert json_of(page, "cq-per-battle-3")["title"] == "CQ tallied in battle 3"


def test_a_boosted_page_load_brings_the_chart_scripts_as_a_full_page_does(client, owner):
    deck = deck_of(owner, "conquest-of-orion", "ORI-SMP")
    page = client.get(
        deck.get_absolute_url(), headers={"HX-Request": "true", "HX-Boosted": "true"}
    ).content.decode()
    assert all(script in page for script in SCRIPTS)


def test_an_orion_card_whose_race_is_not_given_is_charted_apart_from_the_cards_of_no_race(owner):
    # 1.1: a card without a race icon "can be played in any deck"; Osiris's race is simply not
    # in the rulebook, so counting it as "No race" would say what the rulebook does not.
    game = Game.objects.get(slug="conquest-of-orion")
    osiris = Card.objects.get(game=game, name="Osiris")
    raceless = Card.objects.filter(card_set__code="ORI-SMP", factions=None).first()
    assert raceless is not None
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug=game.engine.formats[0].slug,
        name="Unknown race",
        visibility="public",
        intake=Intake(
            (RequestedCard(2, None, osiris.short_id), RequestedCard(1, None, raceless.short_id))
        ),
    )
    races = next(chart for chart in charts_of(deck) if chart.title == "Cards by race")
    assert races.rows() == [("No race", ["1"]), ("Race not given", ["2"])]
