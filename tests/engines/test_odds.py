import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.errors import InputError
from engines.odds import at_least, at_least_with_mulligan


def test_one_copy_in_a_sixty_card_deck_by_seven_draws_is_seven_sixtieths():
    assert at_least(60, 1, 7, 1) == Fraction(7, 60)


def test_at_least_zero_is_certain_and_more_than_copies_impossible():
    assert at_least(40, 3, 7, 0) == 1
    assert at_least(40, 3, 7, 4) == 0


def test_a_known_value_to_nine_significant_digits():
    # 4 copies in 60, 7 cards: 1 - C(56,7)/C(60,7)
    assert float(at_least(60, 4, 7, 1)) == pytest.approx(0.39949962574, rel=1e-9)


def test_the_mulligan_gives_a_second_independent_chance():
    p = at_least(50, 3, 7, 1)
    assert at_least_with_mulligan(50, 3, 7, 1) == p + (1 - p) * p


@given(
    st.integers(1, 80).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(0, n), st.integers(0, 8))
    )
)
def test_probabilities_are_between_zero_and_one_and_fall_as_k_rises(args):
    n, copies, draws, k = args
    p, q = at_least(n, copies, draws, k), at_least(n, copies, draws, k + 1)
    assert 0 <= q <= p <= 1


def test_simulation_agrees_with_the_exact_odds_within_sampling_error():
    rng = random.Random(7)
    deck = [1] * 4 + [0] * 56
    runs = 20_000
    hits = sum(sum(rng.sample(deck, 7)) >= 1 for _ in range(runs))
    p = float(at_least(60, 4, 7, 1))
    sigma = (p * (1 - p) / runs) ** 0.5
    assert abs(hits / runs - p) < 4 * sigma


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((10, 11, 5, 1), "copies"),
        ((10, 2, 11, 1), "draws"),
        ((10, -1, 5, 1), "copies"),
        ((0, 0, 0, 0), "deck_size"),
        ((10, 2, 5, -1), "at_least"),
        ((10, 2.5, 5, 1), "copies"),
    ],
)
def test_impossible_inputs_name_the_field(args, field):
    with pytest.raises(InputError) as excinfo:
        at_least(*args)
    assert excinfo.value.field == field
