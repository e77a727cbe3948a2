"""Goldfish procedures: seeded, following each rulebook's procedure, with documented policies."""

import pytest

from engines import ENGINES, get_engine
from engines.errors import InputError
from engines.goldfish import resolve_policy
from engines.odds import at_least
from engines.rules import DeckCard


def card(name, card_type="Unit", zone="main", quantity=1, factions=(), text="", **stats):
    return DeckCard(
        key=name,
        name=name,
        card_type=card_type,
        zone=zone,
        quantity=quantity,
        factions=tuple(factions),
        stats=stats,
        text=text,
    )


def fates_deck(units=26, cq=3):
    return [card(f"U{i}", cq=cq) for i in range(units)] + [card("Star", "Celestial")]


def test_every_game_has_a_goldfish_procedure_with_documented_policy_knobs():
    for engine in ENGINES.values():
        assert engine.goldfish is not None
        assert all(p.help for p in engine.goldfish_policy)


def small_deck(slug):
    return {
        "conquest-of-fates": fates_deck(),
        "conquest-of-orion": [card(f"C{i}", tier=1 + i % 3, cost_blue=1) for i in range(50)],
        "fate-foretold": [
            card(f"N{i}", "Nest Card", "nest", factions=["Heart", "Mind"][i % 2 : i % 2 + 1])
            for i in range(60)
        ],
        "conquest-for-the-capital": [
            card(f"B{i}", "Battle", "battle", attack=i % 4, defence=1) for i in range(12)
        ]
        + [card(f"P{i}", "Upgrade", "upgrade", stars=1) for i in range(8)],
        "conquest-alpha-tactics": [card(f"T{i}", "Ship", combat_power=i % 9) for i in range(33)],
    }[slug]


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_the_same_seed_gives_the_same_answer(slug):
    cards = small_deck(slug)
    run = get_engine(slug).goldfish
    assert run(cards, runs=200, seed=11, policy={}) == run(cards, runs=200, seed=11, policy={})
    assert (
        run(cards, runs=200, seed=11, policy={}) != run(cards, runs=200, seed=12, policy={})
        or slug == "conquest-of-fates"
    )


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_chart_of_a_goldfish_answer_has_titles_from_its_engine(slug):
    engine = get_engine(slug)
    charts = engine.goldfish(small_deck(slug), runs=20, seed=1, policy={})["charts"]
    spreads = {c.spread for c in engine.goldfish_charts if c.spread}
    assert set(charts) == {c.key for c in engine.goldfish_charts} | spreads


def test_fates_tallies_seven_units_a_battle_over_three_battles():
    units_only = [card(f"U{i}", cq=2) for i in range(30)]
    result = get_engine("conquest-of-fates").goldfish(units_only, runs=50, seed=1, policy={})
    assert [b["mean"] for b in result["summary"]["cq_per_battle"]] == [14.0, 14.0, 14.0]
    assert result["summary"]["total_cq"]["mean"] == 42.0


def test_fates_draws_simply_stop_when_the_deck_runs_out():
    result = get_engine("conquest-of-fates").goldfish(
        fates_deck(10, cq=1), runs=20, seed=1, policy={}
    )
    assert result["summary"]["total_cq"]["mean"] == 10.0  # all ten units, then nothing left


def test_fates_mulligans_a_hand_short_of_units_but_only_once():
    deck = [card(f"U{i}", cq=1) for i in range(3)] + [card(f"X{i}", "Celestial") for i in range(30)]
    result = get_engine("conquest-of-fates").goldfish(
        deck, runs=2000, seed=5, policy={"mulligan_below_units": 1}
    )
    p_no_unit = 1 - float(at_least(33, 3, 7, 1))
    assert result["summary"]["mulligan_rate"] == pytest.approx(p_no_unit, abs=0.03)


def test_orion_a_tier_one_card_costing_nothing_is_playable_on_turn_one():
    deck = [card("Free", tier=1)] * 50
    result = get_engine("conquest-of-orion").goldfish(deck, runs=20, seed=1, policy={})
    assert result["summary"]["cards"]["Free"]["playable_by_turn"][0] == 1.0


def test_orion_a_tier_two_card_waits_for_the_ascension_and_its_one_turn_delay():
    deck = [card(f"Hi{i}", tier=2) for i in range(50)]
    result = get_engine("conquest-of-orion").goldfish(
        deck, runs=20, seed=1, policy={"first_player": False}
    )
    # 2 gold a turn, 3 to ascend: paid on turn 2, Tier 2 from turn 3
    assert result["charts"]["playable_cards_per_turn"][:3][0:2] == [0.0, 0.0]
    assert result["charts"]["playable_cards_per_turn"][2] > 0
    assert "missing" in result["summary"]["assumed"]["note"]


def test_fate_speed_run_aligns_sooner_and_the_sigil_counts_toward_two_suits():
    suits = ["Heart", "Mind", "Body", "Soul"]
    nest = [card(f"N{i}", "Nest Card", "nest", factions=[suits[i % 4]]) for i in range(64)]
    run = get_engine("fate-foretold").goldfish
    full = run(nest, runs=500, seed=2, policy={})["summary"]["turns_to_alignment"]["mean"]
    speed = run(nest, runs=500, seed=2, policy={"alignment": 3})["summary"]["turns_to_alignment"][
        "mean"
    ]
    sigil = [card("S", "Sigil", "sigils", factions=["Heart", "Soul"])]
    with_sigil = run(nest + sigil, runs=500, seed=2, policy={})["summary"]["turns_to_alignment"][
        "mean"
    ]
    assert speed < full and with_sigil < full


def test_capital_an_upgrade_that_says_so_raises_the_hand_to_six():
    battle = [card(f"B{i}", "Battle", "battle", attack=1, defence=1) for i in range(12)]
    upgrades = [
        card(
            "Muster", "Upgrade", "upgrade", text="Draw Battle Cards up to 6 instead of 4.", stars=1
        )
    ]
    upgrades += [card(f"P{i}", "Upgrade", "upgrade", stars=3) for i in range(7)]
    result = get_engine("conquest-for-the-capital").goldfish(
        battle + upgrades, runs=300, seed=1, policy={}
    )
    assert result["summary"]["hand_of_six_by_turn"][-1] == 1.0
    assert result["summary"]["attack"]["mean"] == 1.0


@pytest.mark.parametrize("procedure", ["goldfish", "goldfish_reference"])
def test_tactics_reshuffles_discards_so_every_round_places_sixteen_cards(procedure):
    deck = [card(f"T{i}", "Ship", combat_power=1) for i in range(33)]
    run = getattr(get_engine("conquest-alpha-tactics"), procedure)
    result = run(deck, runs=10, seed=1, policy={"plays_per_round": 16})
    assert [r["mean"] for r in result["summary"]["combat_power_per_round"]] == [16.0] * 6
    assert result["summary"]["opening_hand_by_type"] == {"Ship": 4.0}


@pytest.mark.parametrize("procedure", ["goldfish", "goldfish_reference"])
def test_tactics_by_default_places_one_players_share_of_the_sixteen_in_a_two_player_game(
    procedure,
):
    deck = [card(f"T{i}", "Ship", combat_power=1) for i in range(33)]
    run = getattr(get_engine("conquest-alpha-tactics"), procedure)
    result = run(deck, runs=10, seed=1, policy={})
    assert [r["mean"] for r in result["summary"]["combat_power_per_round"]] == [8.0] * 6


@pytest.mark.parametrize("procedure", ["goldfish", "goldfish_reference"])
def test_orion_charts_playable_cards_as_a_mean_with_its_spread_and_a_share_of_games(procedure):
    deck = [card(f"C{i}", tier=1 + i % 3, cost_blue=1) for i in range(50)]
    run = getattr(get_engine("conquest-of-orion"), procedure)
    charts = run(deck, runs=200, seed=1, policy={})["charts"]
    turns = len(charts["playable_cards_per_turn"])
    assert len(charts["playable_cards_per_turn_sd"]) == len(charts["any_playable_by_turn"]) == turns
    assert all(0 <= share <= 1 for share in charts["any_playable_by_turn"])
    # By the last turn every game holds a playable card, and more than one on average.
    assert charts["any_playable_by_turn"][-1] == 1.0 < charts["playable_cards_per_turn"][-1]


def test_an_unknown_or_mistyped_policy_option_names_itself():
    params = get_engine("conquest-of-fates").goldfish_policy
    with pytest.raises(InputError, match="unknown policy option"):
        resolve_policy(params, {"bluff": 1})
    with pytest.raises(InputError) as excinfo:
        resolve_policy(params, {"battles": "three"})
    assert excinfo.value.field == "battles"


def test_a_summary_path_finds_keys_that_hold_dots_and_list_items():
    from engines.goldfish import at_path

    summary = {"cards": {"Dr. Vance": {"in_opening_hand": 0.25}}, "by_battle": [0.1, 0.2]}
    assert at_path(summary, "cards.Dr. Vance.in_opening_hand") == 0.25
    assert at_path(summary, "by_battle.1") == 0.2
    assert at_path(summary, "by_battle.2") is None
    assert at_path(summary, "by_battle.²") is None
    assert at_path(summary, "cards.Nobody.in_opening_hand") is None
