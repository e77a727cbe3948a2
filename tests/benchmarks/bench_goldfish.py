"""Goldfish benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_goldfish.py

Targets: opening hands with the mulligan decision for a 60-card deck at >= 1,000,000 hands/s,
and 10,000 full Conquest of Fates solo games (3 battles) in <= 1 s; each against a
straightforward per-game Python loop, with the ratio.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engines import get_engine
from engines.opening import opening_hands, opening_hands_loop
from engines.rules import DeckCard


def timed(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    counts = {"unit": 24, "other": 36}
    args = {"hand_size": 7, "wanted": "unit", "mulligan_below": 2, "seed": 1}
    fast = timed(lambda: opening_hands(counts, runs=1_000_000, **args))
    loop = timed(lambda: opening_hands_loop(counts, runs=100_000, **args), 3) * 10
    deck = [DeckCard(f"U{i}", f"U{i}", "Unit", "main", 1, stats={"cq": i % 7}) for i in range(28)]
    deck.append(DeckCard("S", "Star", "Celestial", "main", 1))
    fates = get_engine("conquest-of-fates").goldfish
    games = timed(lambda: fates(deck, runs=10_000, seed=1, policy={}))
    print("| measure | vectorised (NumPy) | straightforward loop | ratio |")
    print("|---|---:|---:|---:|")
    print(
        f"| opening hands with mulligan, 60 cards | {1e6 / fast:,.0f} hands/s | "
        f"{1e6 / loop:,.0f} hands/s | {loop / fast:.0f}x |"
    )
    print(f"| 10,000 Conquest of Fates games (3 battles) | — | {games:.3f} s | — |")


if __name__ == "__main__":
    main()
