"""Conquest of Fates' vectorised goldfish agrees with the per-game loop it replaces."""

import pytest

from engines import get_engine
from engines.vectorised import BATCH
from tests.engines.deck_building import card
from tests.engines.fates_decks import (
    at_path,
    fates_sample_deck,
    histograms_agree,
    means_agree,
    shares_agree,
)

ENGINE = get_engine("conquest-of-fates")
REFERENCE_RUNS, VECTOR_RUNS = 12_000, 60_000


def thin_deck():
    """Units scarce enough that the mulligan matters, Celestials and unvalued cards beside
    them, and negative and tied values that test the order cards are kept and placed in."""
    units = [card(f"U{i}", cq=i % 6 - 1) for i in range(14)]
    others = [card(f"C{i}", "Celestial") for i in range(3)] + [card("Blank")]
    return [*units, *others, card("Spare", quantity=4)]


def agree(cards, policy, seeds=(3, 4)):
    reference = ENGINE.goldfish_reference(cards, runs=REFERENCE_RUNS, seed=seeds[0], policy=policy)
    vector = ENGINE.goldfish(cards, runs=VECTOR_RUNS, seed=seeds[1], policy=policy)
    a, b = reference["summary"], vector["summary"]
    assert means_agree(a["total_cq"], b["total_cq"], REFERENCE_RUNS, VECTOR_RUNS)
    for battle_a, battle_b in zip(a["cq_per_battle"], b["cq_per_battle"], strict=True):
        assert means_agree(battle_a, battle_b, REFERENCE_RUNS, VECTOR_RUNS)
    assert shares_agree(a["mulligan_rate"], b["mulligan_rate"], REFERENCE_RUNS, VECTOR_RUNS)
    for drawn_a, drawn_b in zip(a["celestial_by_battle"], b["celestial_by_battle"], strict=True):
        assert shares_agree(drawn_a, drawn_b, REFERENCE_RUNS, VECTOR_RUNS)
    assert histograms_agree(reference["charts"]["total_cq"], vector["charts"]["total_cq"])
    for hist_a, hist_b in zip(
        reference["charts"]["cq_per_battle"], vector["charts"]["cq_per_battle"], strict=True
    ):
        assert histograms_agree(hist_a, hist_b)
    return reference, vector


def test_the_vectorised_sample_deck_agrees_with_the_per_game_loop():
    reference, vector = agree(fates_sample_deck(), {})
    assert set(vector) == set(reference) == {"summary", "charts"}
    assert set(vector["summary"]) == set(reference["summary"])
    assert set(vector["charts"]) == set(reference["charts"])


@pytest.mark.parametrize(
    "policy",
    [
        {},
        {"mulligan_below_units": 0},  # never
        {"mulligan_below_units": 8},  # always: more than a drop can hold
        {"mulligan_below_units": 5, "battles": 1},
        {"battles": 2},
    ],
)
def test_a_deck_short_of_units_agrees_under_every_mulligan_and_battle_count(policy):
    agree(thin_deck(), policy)


def test_a_deck_smaller_than_three_drops_runs_out_the_same_way():
    agree([card(f"U{i}", cq=i) for i in range(9)] + [card("Star", "Celestial")], {})


def test_the_mulligan_knob_at_its_edges_means_never_and_always():
    cards = thin_deck()
    never = ENGINE.goldfish(cards, runs=2_000, seed=1, policy={"mulligan_below_units": 0})
    always = ENGINE.goldfish(cards, runs=2_000, seed=1, policy={"mulligan_below_units": 8})
    assert never["summary"]["mulligan_rate"] == 0.0
    assert always["summary"]["mulligan_rate"] == 1.0


def test_the_same_seed_gives_the_same_answer_and_another_seed_another():
    cards = thin_deck()
    first = ENGINE.goldfish(cards, runs=5_000, seed=9, policy={})
    assert ENGINE.goldfish(cards, runs=5_000, seed=9, policy={}) == first
    assert ENGINE.goldfish(cards, runs=5_000, seed=10, policy={}) != first


def test_the_vectorised_answer_counts_every_run_across_batches():
    runs = 2 * BATCH + 1  # more than two batches, and not a multiple of one
    told: list[int] = []
    result = ENGINE.goldfish(
        fates_sample_deck(), runs=runs, seed=2, policy={}, progress=told.append
    )
    assert sum(told) == runs and len(told) >= 3
    assert sum(result["charts"]["total_cq"].values()) == runs
    assert all(sum(h.values()) == runs for h in result["charts"]["cq_per_battle"])


def test_the_exact_odds_hold_the_simulated_shares_within_sampling_error():
    cards, runs = thin_deck(), 100_000
    for policy in ({}, {"mulligan_below_units": 5}):
        summary = ENGINE.goldfish(cards, runs=runs, seed=7, policy=policy)["summary"]
        odds = ENGINE.odds(cards, policy)
        assert [o.summary_key for o in odds] == [
            "mulligan_rate",
            "celestial_by_battle.0",
            "celestial_by_battle.1",
            "celestial_by_battle.2",
        ]
        for o in odds:
            [simulated] = at_path(summary, o.summary_key)
            error = (o.exact * (1 - o.exact) / runs) ** 0.5
            assert abs(simulated - o.exact) <= 4.5 * error + 1e-9, o.label


def test_every_summary_figure_names_numbers_of_the_answer():
    summary = ENGINE.goldfish(fates_sample_deck(), runs=100, seed=1, policy={})["summary"]
    for figure in ENGINE.goldfish_summary:
        values = at_path(summary, figure.path)
        spreads = at_path(summary, figure.spread) if figure.spread else values
        assert values and len(spreads) == len(values), figure.path
        assert all(isinstance(v, int | float) for v in [*values, *spreads]), figure.path


def test_a_negative_seed_is_a_seed_like_any_other():
    # The API takes any whole number as a seed; NumPy's generators take only non-negative ones.
    engine = get_engine("conquest-of-fates")
    deck = fates_sample_deck()
    first = engine.goldfish(deck, runs=500, seed=-5, policy={})
    assert first == engine.goldfish(deck, runs=500, seed=-5, policy={})
    assert first != engine.goldfish(deck, runs=500, seed=5, policy={})
