"""Goldfish benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_goldfish.py

Target: 10,000 full Conquest of Fates solo games (3 battles) in <= 1 s, through the engine's
own procedure, the one the goldfish page and API run.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engines import get_engine
from engines.rules import DeckCard


def timed(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    deck = [DeckCard(f"U{i}", f"U{i}", "Unit", "main", 1, stats={"cq": i % 7}) for i in range(28)]
    deck.append(DeckCard("S", "Star", "Celestial", "main", 1))
    fates = get_engine("conquest-of-fates").goldfish
    games = timed(lambda: fates(deck, runs=10_000, seed=1, policy={}))
    print("| measure | median |")
    print("|---|---:|")
    print(f"| 10,000 Conquest of Fates games (3 battles) | {games:.3f} s |")


if __name__ == "__main__":
    main()
