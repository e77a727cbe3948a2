"""Shared pieces for goldfish procedures that play many games at once with NumPy.

A vectorised procedure plays a batch of games as rows of arrays, a step of the game at a time
for every row, and tallies what it reports as counts of values. From the counts it answers
in exactly the shapes `engines.goldfish.describe`, `histogram` and `by_turn` give from the
per-game lists, so the reference loop and the vectorised procedure are drop-in equals.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]

# Rows a batch plays at once: large enough that NumPy's per-call overhead is spread thin,
# small enough that a million runs stay within a few tens of megabytes.
BATCH = 25_000


def generator(seed: int) -> np.random.Generator:
    """PCG64 from the seed. A negative seed (the API takes any whole number) maps to its own
    stream: SeedSequence takes only non-negative entropy."""
    entropy = [seed] if seed >= 0 else [-seed, 1]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))


def batches(runs: int, progress: Callable[[int], None] | None, size: int = BATCH) -> Iterator[int]:
    """The sizes of the batches `runs` is played in, telling `progress` after each."""
    done = 0
    while done < runs:
        n = min(size, runs - done)
        yield n
        done += n
        if progress is not None:
            progress(n)


def batch_for(cells_per_row: int, most: int = BATCH, budget: int = 4_000_000) -> int:
    """A batch size keeping a procedure's largest array (rows x `cells_per_row`) near
    `budget` cells, so that long games (many turns) stay bounded in memory."""
    return max(256, min(most, budget // max(1, cells_per_row)))


class Tally:
    """Counts of whole-number values, merged over batches."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()

    def add(self, values: npt.NDArray[Any]) -> None:
        found, counts = np.unique(np.asarray(values).ravel(), return_counts=True)
        for value, count in zip(found.tolist(), counts.tolist(), strict=True):
            self.counts[int(value)] += int(count)

    def add_counts(self, values: IntArray, counts: IntArray) -> None:
        for value, count in zip(values.tolist(), counts.tolist(), strict=True):
            if count:
                self.counts[int(value)] += int(count)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def histogram(self) -> dict[str, int]:
        """What `engines.goldfish.histogram` gives for the same values."""
        return {str(k): self.counts[k] for k in sorted(self.counts) if self.counts[k]}

    def describe(self) -> dict[str, float]:
        """What `engines.goldfish.describe` gives for the same values: the mean, the 10th,
        50th and 90th percentiles (ordered[int(q * n)]) and the standard deviation."""
        n = self.n
        if not n:
            return {"mean": 0.0, "p10": 0.0, "median": 0.0, "p90": 0.0, "sd": 0.0}
        values = sorted(k for k in self.counts if self.counts[k])
        total = sum(v * self.counts[v] for v in values)
        mean = total / n
        square = sum((v - mean) ** 2 * self.counts[v] for v in values)
        cumulative = np.cumsum([self.counts[v] for v in values])

        def at(q: float) -> float:
            index = min(n - 1, int(q * n))
            return float(values[int(np.searchsorted(cumulative, index, side="right"))])

        return {
            "mean": round(mean, 4),
            "p10": at(0.1),
            "median": at(0.5),
            "p90": at(0.9),
            "sd": round(math.sqrt(square / n), 4),
        }


def by_turn_counts(first: IntArray, last: int, runs: int) -> list[float]:
    """`engines.goldfish.by_turn` from counts: `first[t]` games got there on turn t (index 0
    unused, indices past `last` never)."""
    done = np.cumsum(first[1 : last + 1])
    return [round(int(d) / runs, 6) for d in done]


def partial_shuffle(rng: np.random.Generator, rows: int, size: int, first: int) -> IntArray:
    """The first `first` positions of a uniform shuffle of range(size), for every row (a
    Fisher-Yates shuffle stopped early: the rest of the deck is never looked at)."""
    deck = np.broadcast_to(np.arange(size, dtype=np.int64), (rows, size)).copy()
    index = np.arange(rows)
    for i in range(min(first, size - 1)):
        j = rng.integers(i, size, size=rows)
        here = deck[:, i].copy()
        deck[:, i] = deck[index, j]
        deck[index, j] = here
    return deck[:, :first]


def permuted(rng: np.random.Generator, cards: IntArray, rows: int) -> IntArray:
    """`rows` independent uniform shuffles of `cards`, one per row."""
    return rng.permuted(np.broadcast_to(cards, (rows, len(cards))), axis=1)


def share(hits: int, runs: int) -> float:
    """A count of games as a share of the runs, to the digits `by_turn` gives."""
    return round(hits / runs, 6)


def shuffled(rng: np.random.Generator, rows: int, size: int) -> IntArray:
    """A uniform shuffle of range(size) for every row, as the argsort of random keys."""
    return np.argsort(rng.random((rows, size)), axis=1).astype(np.int64)


def first_max(values: npt.NDArray[np.int64] | npt.NDArray[np.bool_]) -> IntArray:
    """Each row's index of its largest value, the first among equals: argmax(axis=1), a
    column at a time, which is several times faster on the few columns of a hand."""
    best = values[:, 0].copy()
    index = np.zeros(len(values), np.int64)
    for j in range(1, values.shape[1]):
        column = values[:, j]
        better = column > best
        index[better] = j
        np.maximum(best, column, out=best)
    return index
