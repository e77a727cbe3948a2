"""A deck's charts and a goldfish answer's, from real fixture cards through the same resolve
pipeline the pages use."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card
from decks.services import (
    Intake,
    RequestedCard,
    deck_charts,
    game_snapshot,
    goldfish_charts,
    resolve,
)
from decks.services.charts import MAX_BARS, Unit
from engines import get_engine

pytestmark = pytest.mark.django_db


def resolved(game, set_code, *picks):
    """The deck of (quantity, card name) picks from one set, resolved as a page resolves it."""
    cards = {c.name: c.short_id for c in Card.objects.filter(card_set__code=set_code)}
    intake = Intake(tuple(RequestedCard(n, None, cards[name]) for n, name in picks))
    return resolve(game=game, intake=intake)


def by_title(charts):
    return {c.title: c for c in charts}


def values(chart):
    return {s.name: dict(zip(chart.labels, s.values, strict=True)) for s in chart.series}


def test_an_orion_deck_has_a_cost_curve_per_resource_in_its_colours_and_a_tier_curve():
    deck = resolved(
        "conquest-of-orion",
        "ORI-SMP",
        (3, "Colonial Marine"),  # blue 1, tier 1
        (2, "Orbital Lancer"),  # blue 2, red 1, tier 1
        (1, "Siege Dreadnought"),  # blue 3, gold 3, tier 3
    )
    charts = by_title(deck_charts(deck))
    assert list(charts) == ["Cost curve", "Cards by Tier", "Cards by type", "Cards by race"]

    cost = charts["Cost curve"]
    assert [(s.name, s.colour) for s in cost.series] == [
        ("Blue cost", "#2F6FD6"),
        ("Gold cost", "#C9960C"),
        ("Red cost", "#C0392B"),
    ]
    # A cost of 0 in a colour is left off that colour: the axis starts at 1.
    assert cost.labels == ("1", "2", "3")
    assert values(cost) == {
        "Blue cost": {"1": 3, "2": 2, "3": 1},
        "Gold cost": {"1": 0, "2": 0, "3": 1},
        "Red cost": {"1": 2, "2": 0, "3": 0},
    }
    assert cost.x_title == "Cost" and cost.y_title == "Cards"
    assert "not 0" in cost.note

    # Tier 2 is held by no card, and shows as 0 between 1 and 3.
    tier = charts["Cards by Tier"]
    assert values(tier) == {"Cards": {"1": 5, "2": 0, "3": 1}}


def test_every_type_a_deck_may_hold_is_counted_in_the_engines_order_even_at_zero():
    deck = resolved("conquest-of-orion", "ORI-SMP", (2, "Colonial Marine"))
    types = by_title(deck_charts(deck))["Cards by type"]
    assert types.labels == ("Unit", "Ability", "Achievement", "Attachment", "Satellite")
    assert types.series[0].values == (2, 0, 0, 0, 0)
    assert not types.numbered


def test_a_fates_curve_fills_the_gaps_between_its_conquest_values():
    deck = resolved(
        "conquest-of-fates",
        "COF-SMP",
        (2, "Pollen Drifter"),  # CQ 1
        (1, "Thornveil Warden"),  # CQ 4
        (1, "Mother-Seed Ylvanne"),  # CQ 8
    )
    charts = by_title(deck_charts(deck))
    assert list(charts) == ["Cards by Conquest Value", "Cards by type", "Cards by faction"]
    curve = charts["Cards by Conquest Value"]
    assert curve.labels == tuple(str(n) for n in range(1, 9))
    assert curve.series[0].values == (2, 0, 0, 1, 0, 0, 0, 1)
    assert curve.x_title == "Conquest Value (CQ)"
    assert values(charts["Cards by faction"]) == {"Cards": {"Verdant Choir of Ossara": 4}}


def test_fate_foretold_has_no_curve_and_counts_a_sigil_under_both_its_suits():
    deck = resolved(
        "fate-foretold",
        "FF-SMP",
        (1, "The Ember Vow"),
        (1, "Sample Sigil: The Crowned Heron"),
    )
    charts = by_title(deck_charts(deck))
    assert list(charts) == ["Cards by type", "Cards by suit"]
    assert values(charts["Cards by type"]) == {"Cards": {"Nest Card": 1, "Sigil": 1}}
    suits = charts["Cards by suit"]
    assert values(suits) == {"Cards": {"Heart": 2, "Soul": 1}}
    assert suits.note == "A card of two suits counts for each."


def test_capital_draws_attack_and_defence_side_by_side_and_says_upgrades_are_left_out():
    deck = resolved(
        "conquest-for-the-capital",
        "CFC-SMP",
        (1, "Moonlit Ambush"),  # attack 3, defence 1
        (1, "Glade Vanishing"),  # attack 0, defence 2
        (1, "Council of the Grove"),  # an upgrade: neither
    )
    bonuses = by_title(deck_charts(deck))["Battle bonuses"]
    assert values(bonuses) == {
        "Attack bonus": {"0": 1, "1": 0, "2": 0, "3": 1},
        "Defence bonus": {"0": 0, "1": 1, "2": 1, "3": 0},
    }
    assert [s.colour for s in bonuses.series] == ["#B8433A", "#2F6FD6"]
    assert bonuses.note == "1 card without any of these numbers left out."


def test_tactics_curves_combat_power_and_counts_cards_of_no_faction():
    deck = resolved(
        "conquest-alpha-tactics",
        "TAC-SMP",
        (1, "Sample: Constitution-class Cruiser"),  # combat power 5
        (1, "Cardassia Prime"),  # a planet of no faction, no combat power
    )
    charts = by_title(deck_charts(deck))
    power = charts["Cards by Combat Power"]
    assert values(power) == {"Cards": {"5": 1}}
    assert power.note == "1 card without a Combat Power left out."
    assert values(charts["Cards by faction"]) == {"Cards": {"Starfleet": 1, "No faction": 1}}


def test_an_empty_deck_has_no_charts():
    assert deck_charts(resolved("conquest-of-orion", "ORI-SMP")) == []


def test_a_curve_over_a_huge_range_is_grouped_into_at_most_the_bar_limit():
    far = Card.objects.get(card_set__code="COF-SMP", name="Mother-Seed Ylvanne")
    far.stats = {"cq": 2_000_000_000}
    far.save()
    deck = resolved(
        "conquest-of-fates", "COF-SMP", (1, "Pollen Drifter"), (1, "Mother-Seed Ylvanne")
    )
    curve = by_title(deck_charts(deck))["Cards by Conquest Value"]
    assert len(curve.labels) <= MAX_BARS
    assert curve.labels[0].startswith("1 to ") and curve.labels[-1].endswith("2,000,000,000")
    assert sum(curve.series[0].values) == 2 and curve.series[0].values[0] == 1
    assert "grouped" in curve.note


def test_charting_a_resolved_deck_reads_nothing_from_the_database():
    deck = resolved("conquest-of-orion", "ORI-SMP", (3, "Colonial Marine"), (1, "Mech Walker"))
    with CaptureQueriesContext(connection) as queries:
        deck_charts(deck)
    assert len(queries) == 0


def test_a_chart_gives_its_numbers_as_data_for_the_script_and_rows_for_the_table():
    deck = resolved("conquest-of-orion", "ORI-SMP", (3, "Colonial Marine"))
    tier = by_title(deck_charts(deck))["Cards by Tier"]
    assert tier.data() == {
        "title": "Cards by Tier",
        "x": "Tier requirement",
        "y": "Cards",
        "unit": "count",
        "numbered": True,
        "labels": ["1"],
        "series": [{"name": "Cards", "colour": "#3D4450", "values": [3]}],
    }
    assert tier.rows() == [("1", ["3"])]


def goldfish(game, set_code, picks, runs=100, **policy):
    deck = resolved(game, set_code, *picks)
    engine = get_engine(game)
    answer = engine.goldfish(deck.deck_cards, runs=runs, seed=3, policy=policy)
    return by_title(goldfish_charts(engine=engine, charts=answer["charts"]))


def test_goldfish_charts_are_titled_by_the_engine_one_per_battle():
    units = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit")
    charts = goldfish(
        "conquest-of-fates", "COF-SMP", [(1, c.name) for c in units.order_by("number")[:30]]
    )
    assert list(charts) == [
        "CQ tallied over a game",
        "CQ tallied in battle 1",
        "CQ tallied in battle 2",
        "CQ tallied in battle 3",
    ]
    total = charts["CQ tallied over a game"]
    assert (total.x_title, total.y_title, total.unit) == ("CQ over the game", "Games", Unit.COUNT)
    # Every whole number between the lowest and highest total is a bar, none missing.
    numbers = [int(n) for n in total.labels]
    assert numbers == list(range(numbers[0], numbers[-1] + 1))
    assert sum(total.series[0].values) == 100


def test_goldfish_parts_named_by_card_type_name_their_titles_and_axes():
    ships = Card.objects.filter(card_set__code="TAC-SMP", card_type__name__in=["Ship", "Tech"])
    charts = goldfish(
        "conquest-alpha-tactics", "TAC-SMP", [(1, c.name) for c in ships[:33]], runs=20
    )
    ship = charts["Ship cards in the opening hand"]
    assert ship.x_title == "Ship cards" and ship.y_title == "Games"
    assert "Combat Power placed in round 6" in charts


def test_a_share_of_games_by_turn_is_a_share_and_is_never_cut():
    nest = Card.objects.filter(card_set__code="FF-SMP", card_type__name="Nest Card")
    charts = goldfish("fate-foretold", "FF-SMP", [(1, c.name) for c in nest], 20, max_turns=100)
    aligned = charts["Aligned by each turn (share of games)"]
    assert aligned.unit is Unit.SHARE and aligned.y_title == "Share of games aligned"
    assert len(aligned.labels) == 100 > MAX_BARS and aligned.labels[0] == "1"
    assert aligned.rows()[-1][1][0].endswith("%")


def test_a_chart_the_engine_does_not_name_is_titled_from_its_key():
    engine = game_snapshot("conquest-of-orion").engine
    [chart] = goldfish_charts(engine=engine, charts={"hands_kept": {"1": 4, "3": 1}})
    assert chart.title == "Hands kept" and chart.labels == ("1", "2", "3")


def _with_charts(*declared):
    from dataclasses import replace

    return replace(get_engine("conquest-of-orion"), goldfish_charts=declared)


def test_a_chart_of_means_carries_its_spread_and_the_table_reads_mean_plus_or_minus_sd():
    from engines.base import ResultChart

    engine = _with_charts(
        ResultChart("playable", "Playable cards", "Turn", "Cards (mean)", spread="playable_sd")
    )
    charts = goldfish_charts(
        engine=engine, charts={"playable": [1.0, 2.5], "playable_sd": [0.5, 0.84]}
    )
    [chart] = charts
    assert chart.spread == (0.5, 0.84) and chart.data()["spread"] == [0.5, 0.84]
    assert chart.rows() == [("1", ["1.00 ± 0.50"]), ("2", ["2.50 ± 0.84"])]
    assert chart.unit is Unit.NUMBER


def test_a_share_chart_is_in_percent_and_has_no_spread():
    from engines.base import ResultChart

    engine = _with_charts(ResultChart("done", "Done by turn", "Turn", "Games", share=True))
    [chart] = goldfish_charts(engine=engine, charts={"done": [0.25, 1.0]})
    assert chart.unit is Unit.SHARE and chart.spread is None
    assert chart.rows() == [("1", ["25.0%"]), ("2", ["100.0%"])]


def test_an_empty_chart_is_not_drawn_and_an_undeclared_one_is_titled_in_words():
    engine = _with_charts()
    charts = goldfish_charts(
        engine=engine, charts={"opening_hand_by_type": {}, "total_cq": {"3": 2}}
    )
    assert [c.title for c in charts] == ["Total CQ"]
    assert "{part}" not in charts[0].title
