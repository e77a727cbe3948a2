"""Each game's hand, dealt by the rules its engine declares (engines/hands.py)."""

import pytest

from engines import get_engine
from engines.errors import InputError
from engines.hands import MAX_STEPS, StepKind, deal, parse_steps
from engines.rules import DeckCard


def deck(zone="main", n=30, card_type="Unit", **stats):
    return [DeckCard(f"C{i}", f"Card {i}", card_type, zone, 1, stats=stats) for i in range(n)]


def play(game, cards, steps="", seed=7):
    rules = get_engine(game).hand
    return rules, deal(rules, cards, seed=seed, steps=parse_steps(steps))


def test_an_orion_mulligan_exchanges_only_the_picked_cards():
    rules, opening = play("conquest-of-orion", deck())
    _, after = play("conquest-of-orion", deck(), "mulligan:1.3")
    assert len(opening.hand) == 4
    assert after.hand[:2] == (opening.hand[0], opening.hand[2])
    assert after.library[-2:] == (opening.hand[1], opening.hand[3])
    assert StepKind.MULLIGAN not in after.legal(rules)


def test_an_orion_turn_draws_one_card():
    _, state = play("conquest-of-orion", deck(), "next,next")
    assert len(state.hand) == 6 and state.turn == 3


def test_a_conquest_of_fates_supply_drop_past_ten_must_be_discarded_at_once():
    rules, state = play("conquest-of-fates", deck(cq=1), "next")
    assert len(state.hand) == 14 and state.legal(rules) == (StepKind.DISCARD,)
    _, down = play("conquest-of-fates", deck(cq=1), "next,discard:0.1.2.3")
    assert len(down.hand) == 10 and len(down.discards) == 4
    with pytest.raises(InputError, match="exactly 4"):
        play("conquest-of-fates", deck(cq=1), "next,discard:0")
    with pytest.raises(InputError, match="not allowed now"):
        play("conquest-of-fates", deck(cq=1), "next,next")


def test_a_conquest_of_fates_mulligan_is_once_and_only_on_the_first_supply_drop():
    _, once = play("conquest-of-fates", deck(cq=1), "mulligan")
    assert len(once.hand) == 7 and len(once.library) == 23
    with pytest.raises(InputError):
        play("conquest-of-fates", deck(cq=1), "mulligan,mulligan")
    with pytest.raises(InputError):
        play("conquest-of-fates", deck(cq=1), "discard:0,next,mulligan")


def test_a_conquest_of_fates_deck_that_runs_out_simply_stops_drawing():
    _, state = play("conquest-of-fates", deck(n=9, cq=1), "next")
    assert len(state.hand) == 9 and state.library == ()


def test_fate_foretold_deals_three_from_the_nest_and_keeps_five_at_the_end_of_a_turn():
    nest = deck("nest", 60, "Body") + deck("sigils", 6, "Sigil")
    rules, state = play("fate-foretold", nest, "next,next,next")
    assert len(state.hand) == 6 and all(c.zone == "nest" for c in state.hand)
    assert StepKind.NEXT not in state.legal(rules)
    _, kept = play("fate-foretold", nest, "next,next,next,discard:0,next")
    assert len(kept.hand) == 6 and kept.library[-1].zone == "nest"
    assert kept.discards == ()


def test_capital_draws_battle_cards_back_up_to_four_and_reshuffles_its_discards():
    cards = deck("battle", 12, "Battle") + deck("upgrade", 8, "Upgrade")
    _, state = play("conquest-for-the-capital", cards)
    assert len(state.hand) == 4 and all(c.zone == "battle" for c in state.hand)
    _, refilled = play("conquest-for-the-capital", cards, "discard:0.1,next")
    assert len(refilled.hand) == 4
    many = ",".join(["discard:0.1.2.3,next"] * 4)
    _, cycled = play("conquest-for-the-capital", cards, many)
    assert len(cycled.hand) == 4


def test_tactics_draws_back_to_four_after_playing_or_discarding():
    cards = deck("main", 33, card_type="")
    _, state = play("conquest-alpha-tactics", cards, "discard:2,next")
    assert len(state.hand) == 4 and len(state.library) == 28


def test_a_hand_is_the_same_for_the_same_seed_and_steps():
    assert (
        play("conquest-of-orion", deck(), "next,draw")[1]
        == (play("conquest-of-orion", deck(), "next,draw")[1])
    )


def test_steps_are_bounded_and_a_malformed_step_names_itself():
    with pytest.raises(InputError, match=f"at most {MAX_STEPS}"):
        parse_steps(",".join(["draw"] * (MAX_STEPS + 1)))
    with pytest.raises(InputError, match="step 2"):
        parse_steps("draw,shuffle")
    with pytest.raises(InputError, match="not in the hand"):
        play("conquest-of-orion", deck(), "mulligan:9")
