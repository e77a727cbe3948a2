"""Vectorised goldfishing: many solo games at once, as rows of NumPy arrays.

A procedure plays a batch of games as one array per piece of state (a row per game), in
batches of bounded size so that a million runs never hold more than one batch in memory,
and tells `progress` after each batch. What it reports is tallied as counts per value
(`Tally`), so the summary is the same `describe` and `histogram` a per-game loop gives,
without keeping every game's number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from math import sqrt

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]

# Rows a batch plays at once: big enough that NumPy's per-call overhead is spread over many
# games, small enough that a batch's arrays stay within a few tens of megabytes.
BATCH = 20_000


def generator(seed: int) -> np.random.Generator:
    """The seeded generator a vectorised procedure draws from (PCG64, NumPy's default)."""
    return np.random.Generator(np.random.PCG64(seed))


def batches(runs: int, progress: Callable[[int], None] | None, size: int = BATCH) -> Iterator[int]:
    """The size of each batch making up `runs`, telling `progress` after each one is played."""
    done = 0
    while done < runs:
        n = min(size, runs - done)
        yield n
        done += n
        if progress is not None:
            progress(n)


def shuffled(rng: np.random.Generator, cards: npt.NDArray[np.int64], rows: int) -> IntArray:
    """`rows` independent shuffles of `cards` (one per row), each uniformly random."""
    return rng.permuted(np.broadcast_to(cards, (rows, len(cards))), axis=1)


class Tally:
    """Whole numbers counted by value, batch after batch: enough for a mean, a spread,
    percentiles and a histogram, in memory bounded by the values' range, not the runs."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def add(self, values: npt.NDArray[np.integer]) -> None:
        found, counts = np.unique(values, return_counts=True)
        for value, count in zip(found.tolist(), counts.tolist(), strict=True):
            self.counts[value] = self.counts.get(value, 0) + count

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def histogram(self) -> dict[str, int]:
        return {str(k): self.counts[k] for k in sorted(self.counts)}

    def describe(self) -> dict[str, float]:
        """What engines.goldfish.describe gives for the same values, to the same digits."""
        n = self.n
        if not n:
            return {"mean": 0.0, "p10": 0.0, "median": 0.0, "p90": 0.0, "sd": 0.0}
        ordered = sorted(self.counts.items())
        total = sum(v * c for v, c in ordered)
        mean = total / n
        # Exact in integers, then one rounding: the population standard deviation.
        squares = sum(c * (v * n - total) ** 2 for v, c in ordered)
        return {
            "mean": round(mean, 4),
            "p10": self._at(ordered, n, 0.1),
            "median": self._at(ordered, n, 0.5),
            "p90": self._at(ordered, n, 0.9),
            "sd": round(sqrt(squares) / n / sqrt(n), 4),
        }

    @staticmethod
    def _at(ordered: Sequence[tuple[int, int]], n: int, q: float) -> float:
        index = min(n - 1, int(q * n))
        seen = 0
        for value, count in ordered:
            seen += count
            if seen > index:
                return float(value)
        raise AssertionError("unreachable: the index is below the count")


def share(hits: int, runs: int) -> float:
    return round(hits / runs, 6)
