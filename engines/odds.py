"""Exact card-drawing odds: the hypergeometric distribution, in fractions, not floats."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from engines.errors import InputError

# Exact odds sum products of binomial coefficients; with the deck bounded, the largest is
# C(1000, 500), about 300 digits: milliseconds, not the minutes (holding the GIL) that a deck of
# 32,000 took.
MAX_DECK_SIZE = 1_000


def _check(deck_size: int, copies: int, draws: int, at_least: int) -> None:
    for name, value in (
        ("deck_size", deck_size),
        ("copies", copies),
        ("draws", draws),
        ("at_least", at_least),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(name, f"must be a whole number, got {value!r}")
        if value < 0:
            raise InputError(name, f"cannot be negative, got {value}")
    if deck_size > MAX_DECK_SIZE:
        raise InputError("deck_size", f"at most {MAX_DECK_SIZE:,} cards, got {deck_size:,}")
    if deck_size == 0:
        raise InputError("deck_size", "a deck needs at least one card")
    if copies > deck_size:
        raise InputError("copies", f"{copies} copies cannot be in a {deck_size}-card deck")
    if draws > deck_size:
        raise InputError("draws", f"cannot draw {draws} cards from a {deck_size}-card deck")


def at_least(deck_size: int, copies: int, draws: int, at_least: int) -> Fraction:
    """P(at least `at_least` of `copies` cards among `draws` drawn from `deck_size`)."""
    _check(deck_size, copies, draws, at_least)
    total = comb(deck_size, draws)
    hits = sum(
        comb(copies, k) * comb(deck_size - copies, draws - k)
        for k in range(at_least, min(copies, draws) + 1)
    )
    return Fraction(hits, total)


def at_least_with_mulligan(deck_size: int, copies: int, draws: int, at_least_: int) -> Fraction:
    """The same, when a first hand that misses is shuffled back and drawn once more (a single
    mulligan by redraw): the second draw is independent of the first."""
    p = at_least(deck_size, copies, draws, at_least_)
    return p + (1 - p) * p
