"""Dealing, once for every kind of play: the hand tester (engines.hands), the playtest table
(engines.playtest_session) and the goldfish reference interpreter (engines.procedure) all take
the top card of a pile here, with the same reshuffle of the discards when it runs out, so a
rule of drawing is written once and behaves alike wherever a deck is played."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def reshuffle_into(
    pile: list[T], discards: list[T], rng: random.Random, *, reshuffle: bool
) -> bool:
    """When `pile` is empty and `reshuffle`, the discards are shuffled to become it; whether
    they were."""
    if pile or not reshuffle or not discards:
        return False
    pile.extend(discards)
    discards.clear()
    rng.shuffle(pile)
    return True


def take_top(
    pile: list[T], discards: list[T], rng: random.Random, *, reshuffle: bool, top: int = 0
) -> T | None:
    """The top card of `pile` (index `top`: the front, or -1 for the end), taken from it, the
    discards shuffled in first if it ran out (reshuffle_into); None when no card is left."""
    reshuffle_into(pile, discards, rng, reshuffle=reshuffle)
    return pile.pop(top) if pile else None
