"""Fate Foretold's vectorised goldfish agrees with the per-game loop it replaces, and plays
the Sigil the player chooses to the alignment target of the deck's format."""

import pytest

from engines import get_engine
from engines.errors import InputError
from engines.vectorised import BATCH
from tests.engines.deck_building import card
from tests.engines.fates_decks import (
    at_path,
    fate_sample_deck,
    histograms_agree,
    means_agree,
    shares_agree,
)

ENGINE = get_engine("fate-foretold")
REFERENCE_RUNS, VECTOR_RUNS = 6_000, 40_000


def mixed_nest(n=40):
    """Cards of one suit, of two, and of none, unevenly: every branch of the policy (the
    hand's leaning with no Sigil, cards of no suit buried first) comes up."""
    suits = [["Heart"], ["Mind"], ["Body", "Soul"], [], ["Heart", "Mind"], ["Soul"], ["Heart"]]
    return [card(f"N{i}", "Nest Card", "nest", factions=suits[i % 7]) for i in range(n)]


def agree(cards, policy, seeds=(5, 6)):
    reference = ENGINE.goldfish_reference(cards, runs=REFERENCE_RUNS, seed=seeds[0], policy=policy)
    vector = ENGINE.goldfish(cards, runs=VECTOR_RUNS, seed=seeds[1], policy=policy)
    a, b = reference["summary"], vector["summary"]
    assert set(a) == set(b) and set(reference["charts"]) == set(vector["charts"])
    for key in ("alignment", "sigil", "sigil_suits"):
        assert a[key] == b[key]
    assert shares_agree(
        a["aligned_within_limit"], b["aligned_within_limit"], REFERENCE_RUNS, VECTOR_RUNS
    )
    aligned_a = round(a["aligned_within_limit"] * REFERENCE_RUNS)
    aligned_b = round(b["aligned_within_limit"] * VECTOR_RUNS)
    assert means_agree(a["turns_to_alignment"], b["turns_to_alignment"], aligned_a, aligned_b)
    assert a["opening_suits"].keys() == b["opening_suits"].keys()
    for suit, share in a["opening_suits"].items():
        assert shares_agree(share, b["opening_suits"][suit], REFERENCE_RUNS, VECTOR_RUNS)
    for by_a, by_b in zip(
        reference["charts"]["aligned_by_turn"], vector["charts"]["aligned_by_turn"], strict=True
    ):
        assert shares_agree(by_a, by_b, REFERENCE_RUNS, VECTOR_RUNS)
    assert histograms_agree(
        reference["charts"]["turns_to_alignment"], vector["charts"]["turns_to_alignment"]
    )
    return reference, vector


@pytest.mark.parametrize(
    "policy",
    [
        {},
        {"alignment": 3, "sigil": 2},
        {"alignment": 4, "sigil": 6},
        {"max_turns": 6},  # many games stop unaligned
        {"max_turns": 1},
    ],
)
def test_the_vectorised_sample_nest_agrees_with_the_per_game_loop(policy):
    agree(fate_sample_deck(), policy)


@pytest.mark.parametrize("policy", [{}, {"alignment": 3}, {"max_turns": 100}])
def test_a_nest_of_mixed_suits_without_a_sigil_agrees(policy):
    agree(mixed_nest(), policy)


def test_a_nest_so_small_that_draws_run_dry_agrees():
    agree(mixed_nest(6) + fate_sample_deck()[-6:], {"alignment": 3})


def test_the_player_chooses_the_sigil_and_the_answer_names_it():
    deck = fate_sample_deck()
    sigils = [c for c in deck if c.zone == "sigils"]
    for choice in range(1, 7):
        summary = ENGINE.goldfish(deck, runs=50, seed=1, policy={"sigil": choice})["summary"]
        assert summary["sigil"] == sigils[choice - 1].name
        assert summary["sigil_suits"] == list(sigils[choice - 1].factions)
    assert ENGINE.goldfish(deck, runs=50, seed=1, policy={})["summary"]["sigil"] == sigils[0].name


def test_a_sigil_the_deck_does_not_list_is_refused_by_name():
    deck = [*mixed_nest(), *fate_sample_deck()[-2:]]
    with pytest.raises(InputError) as refused:
        ENGINE.goldfish(deck, runs=10, seed=1, policy={"sigil": 3})
    assert refused.value.field == "sigil"
    assert "lists 2 Sigils" in refused.value.message
    with pytest.raises(InputError):
        ENGINE.goldfish_reference(deck, runs=10, seed=1, policy={"sigil": 3})


def test_speed_run_carries_its_own_alignment_target_and_the_answer_reports_it():
    speed_run = ENGINE.format("speed-run")
    assert speed_run.default_settings() == {"alignment": 4}
    assert ENGINE.format("nest").default_settings() == {}
    summary = ENGINE.goldfish(fate_sample_deck(), runs=200, seed=1, policy={"alignment": 4})
    assert summary["summary"]["alignment"] == 4


def test_the_same_seed_gives_the_same_answer_and_another_seed_another():
    deck = fate_sample_deck()
    first = ENGINE.goldfish(deck, runs=5_000, seed=9, policy={})
    assert ENGINE.goldfish(deck, runs=5_000, seed=9, policy={}) == first
    assert ENGINE.goldfish(deck, runs=5_000, seed=10, policy={}) != first


def test_every_run_is_counted_across_batches():
    runs, told = 2 * BATCH + 1003, []
    result = ENGINE.goldfish(
        fate_sample_deck(), runs=runs, seed=2, policy={"max_turns": 8}, progress=told.append
    )
    assert sum(told) == runs and len(told) >= 3
    aligned = sum(result["charts"]["turns_to_alignment"].values())
    assert aligned == round(result["summary"]["aligned_within_limit"] * runs)
    assert result["charts"]["aligned_by_turn"][-1] == result["summary"]["aligned_within_limit"]


def test_the_exact_odds_of_each_suit_in_the_starting_hand_hold_the_simulated_shares():
    deck, runs = [*mixed_nest(), *fate_sample_deck()[-1:]], 100_000
    summary = ENGINE.goldfish(deck, runs=runs, seed=7, policy={})["summary"]
    odds = ENGINE.odds(deck, {})
    assert {o.summary_key for o in odds} == {f"opening_suits.{s}" for s in summary["opening_suits"]}
    for o in odds:
        [simulated] = at_path(summary, o.summary_key)
        assert abs(simulated - o.exact) <= 4.5 * (o.exact * (1 - o.exact) / runs) ** 0.5 + 1e-9


def test_every_summary_figure_names_values_of_the_answer():
    summary = ENGINE.goldfish(fate_sample_deck(), runs=100, seed=1, policy={})["summary"]
    for figure in ENGINE.goldfish_summary:
        values = at_path(summary, figure.path)
        assert values, figure.path
        if figure.spread:
            assert len(at_path(summary, figure.spread)) == len(values)


def test_a_nest_whose_cards_have_no_suit_never_aligns_and_is_answered_at_once():
    from engines.rules import DeckCard

    nest = [DeckCard(f"N{i}", f"Plain {i}", "Nest Card", "nest", 1) for i in range(60)]
    engine = get_engine("fate-foretold")
    answer = engine.goldfish(nest, runs=100_000, seed=1, policy={})
    reference = engine.goldfish_reference(nest, runs=200, seed=1, policy={})
    assert answer["summary"] == reference["summary"]
    assert answer["summary"]["aligned_within_limit"] == 0


def test_a_negative_seed_is_a_seed_like_any_other():
    engine = get_engine("fate-foretold")
    deck = fate_sample_deck()
    first = engine.goldfish(deck, runs=500, seed=-5, policy={})
    assert first == engine.goldfish(deck, runs=500, seed=-5, policy={})
