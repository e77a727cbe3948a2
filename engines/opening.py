"""Opening hands by the million: the hand's make-up and the mulligan decision, vectorised.

A mulligan decision looks only at how many cards of each kind a hand holds, and that count is
a multivariate hypergeometric draw, which NumPy samples directly for a whole batch of hands.
`opening_hands_loop` is the straightforward per-hand version, kept to check the fast one and
to measure the gain against (tests/benchmarks/bench_goldfish.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np


def opening_hands(
    counts: Mapping[str, int],
    *,
    hand_size: int,
    runs: int,
    seed: int,
    wanted: str,
    mulligan_below: int,
) -> dict[str, float]:
    """Draw `runs` hands of `hand_size` from a deck of `counts` per kind; a hand with fewer than
    `mulligan_below` of `wanted` is shuffled back and redrawn once. Returns the share of hands
    mulliganed and the mean count of `wanted` kept."""
    kinds = list(counts)
    colours = np.array([counts[k] for k in kinds], dtype=np.int64)
    index = kinds.index(wanted)
    rng = np.random.default_rng(seed)
    first = rng.multivariate_hypergeometric(colours, hand_size, size=runs)[:, index]
    mulligan = first < mulligan_below
    second = rng.multivariate_hypergeometric(colours, hand_size, size=int(mulligan.sum()))[:, index]
    kept = first.copy()
    kept[mulligan] = second
    return {"mulligan_rate": float(mulligan.mean()), "mean_wanted": float(kept.mean())}


def opening_hands_loop(
    counts: Mapping[str, int],
    *,
    hand_size: int,
    runs: int,
    seed: int,
    wanted: str,
    mulligan_below: int,
) -> dict[str, float]:
    """The same, one shuffled hand at a time."""
    rng = random.Random(seed)
    deck = [kind for kind, n in counts.items() for _ in range(n)]
    mulligans = kept_total = 0
    for _ in range(runs):
        hand = rng.sample(deck, hand_size)
        count = hand.count(wanted)
        if count < mulligan_below:
            mulligans += 1
            count = rng.sample(deck, hand_size).count(wanted)
        kept_total += count
    return {"mulligan_rate": mulligans / runs, "mean_wanted": kept_total / runs}
