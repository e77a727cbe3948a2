"""A goldfish summary read as a table in the game's words, never as a Python dict."""

from decks.services.summary import humanised, summary_table
from engines.base import SummaryFigure

SUMMARY = {
    "total_cq": {"mean": 61.55, "sd": 4.213, "p10": 56.0, "median": 61.0, "p90": 68.0},
    "cq_per_battle": [{"mean": 20.375, "sd": 5.1}, {"mean": 20.55, "sd": 4.9}],
    "mulligan_rate": 0.412,
    "turns": 10,
    "sigil": "The Sceptred Fox",
}


def test_a_share_is_a_percentage_and_a_mean_carries_its_spread():
    table = summary_table(
        figures=(
            SummaryFigure("mulligan_rate", "Games that mulligan", unit="share"),
            SummaryFigure("total_cq.mean", "Total CQ", unit="mean", spread="total_cq.sd"),
            SummaryFigure("turns", "Turns played", unit="count"),
        ),
        summary=SUMMARY,
    )
    assert [(r.label, r.value) for r in table.rows] == [
        ("Games that mulligan", "41.2%"),
        ("Total CQ", "61.55 ± 4.21"),
        ("Turns played", "10"),
    ]


def test_a_star_gives_a_row_per_item_with_its_number_in_the_label_and_its_own_spread():
    table = summary_table(
        figures=(
            SummaryFigure(
                "cq_per_battle.*.mean", "CQ in battle {part}", "mean", spread="cq_per_battle.*.sd"
            ),
        ),
        summary=SUMMARY,
    )
    assert [(r.label, r.value) for r in table.rows] == [
        ("CQ in battle 1", "20.38 ± 5.10"),
        ("CQ in battle 2", "20.55 ± 4.90"),
    ]


def test_a_star_over_a_mapping_names_each_key():
    summary = {"opening_hand_by_type": {"Ship": 1.135, "Tech": 0.755}}
    table = summary_table(
        figures=(SummaryFigure("opening_hand_by_type.*", "{part} cards in the opening hand"),),
        summary=summary,
    )
    assert [(r.label, r.value) for r in table.rows] == [
        ("Ship cards in the opening hand", "1.14"),
        ("Tech cards in the opening hand", "0.76"),
    ]


def test_a_figure_with_a_closed_form_shows_the_exact_value_beside_it():
    odds = [{"label": "a mulligan", "exact": 0.41, "key": "mulligan_rate", "simulated": 0.412}]
    table = summary_table(
        figures=(
            SummaryFigure("mulligan_rate", "Games that mulligan", "share", exact="mulligan_rate"),
        ),
        summary=SUMMARY,
        odds=odds,
    )
    assert [(r.label, r.value, r.exact) for r in table.rows] == [
        ("Games that mulligan", "41.2%", "41.0%")
    ]
    assert table.has_exact


def test_an_exact_chance_no_figure_names_gets_a_row_of_its_own():
    odds = [{"label": "a Ship in the opening", "exact": 0.8, "key": None, "simulated": None}]
    table = summary_table(figures=(), summary={}, odds=odds)
    assert [(r.label, r.value, r.exact) for r in table.rows] == [
        ("Chance of a Ship in the opening", "not simulated", "80.0%")
    ]


def test_a_figure_missing_from_the_summary_is_left_out_not_shown_as_a_dict():
    table = summary_table(
        figures=(
            SummaryFigure("nowhere.mean", "Missing"),
            SummaryFigure("total_cq", "A mapping, not a figure"),
        ),
        summary=SUMMARY,
    )
    assert table.rows == ()


def test_without_a_declaration_every_figure_is_a_readable_row():
    table = summary_table(figures=(), summary=SUMMARY)
    rows = {r.label: r.value for r in table.rows}
    assert rows == {
        "Total CQ": "61.55 ± 4.21 (10th to 90th percentile: 56 to 68)",
        "CQ per battle · 1": "20.38 ± 5.10",
        "CQ per battle · 2": "20.55 ± 4.90",
        "Mulligan rate": "41.2%",
        "Turns": "10",
        "Sigil": "The Sceptred Fox",
    }
    assert not any("{" in label or "{" in value for label, value in rows.items())


def test_a_list_of_shares_by_turn_reads_as_percentages():
    summary = {"cards": {"Hive Drone": {"playable_by_turn": [0.0, 0.395], "mean_first_turn": 3.82}}}
    rows = {r.label: r.value for r in summary_table(figures=(), summary=summary).rows}
    assert rows == {
        "Cards · Hive Drone · playable by turn": "0.0%, 39.5%",
        "Cards · Hive Drone · mean first turn": "3.82",
    }


def test_assumptions_become_a_sentence_and_a_row_per_value_not_a_table_figure():
    summary = {
        "turns": 10,
        "assumed": {
            "income": {"blue": 2, "gold": 2, "red": 1},
            "tier_cost": {"gold": 3},
            "note": "The rulebook's icons are missing.",
        },
    }
    table = summary_table(figures=(), summary=summary)
    assert [r.label for r in table.rows] == ["Turns"]
    assert table.assumed_note == "The rulebook's icons are missing."
    assert [(r.label, r.value) for r in table.assumed] == [
        ("Income", "blue 2, gold 2, red 1"),
        ("Tier cost", "gold 3"),
    ]


def test_short_words_without_vowels_are_abbreviations():
    assert humanised("total_cq") == "Total CQ"
    assert humanised("vp_by_turn") == "VP by turn"
    assert humanised("turns_to_alignment") == "Turns to alignment"


def test_an_exact_chance_named_concretely_sits_beside_the_row_its_pattern_makes():
    figures = (
        SummaryFigure(
            "cards.*.in_opening_hand",
            "{part} in the opening hand",
            unit="share",
            exact="cards.*.in_opening_hand",
        ),
        SummaryFigure(
            "by_battle.*", "A Celestial by battle {part}", unit="share", exact="by_battle.*"
        ),
    )
    summary = {"cards": {"Dr. Vance": {"in_opening_hand": 0.25}}, "by_battle": [0.5, 0.75]}
    odds = [
        {"key": "cards.Dr. Vance.in_opening_hand", "label": "x", "exact": 0.26},
        {"key": "by_battle.1", "label": "y", "exact": 0.74},
    ]
    table = summary_table(figures=figures, summary=summary, odds=odds)
    shown = {row.label: (row.value, row.exact) for row in table.rows}
    assert shown["Dr. Vance in the opening hand"] == ("25.0%", "26.0%")
    assert shown["A Celestial by battle 2"] == ("75.0%", "74.0%")
    assert shown["A Celestial by battle 1"] == ("50.0%", None)
    # Both chances found their rows, so neither is repeated as a row of its own.
    assert len(table.rows) == 3
