"""Goldfish benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_goldfish.py

Target: 10,000 full Conquest of Fates solo games (3 battles) in <= 1 s, through the engine's
own procedure, the one the goldfish page and API run; and for every game at least 100,000
full solo games a second on one core (issue 16), through its engine's `goldfish` on a legal
deck at the default policy, beside the per-game `goldfish_reference` loop.
"""

import statistics
import sys
import time
from functools import partial
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


# Games each procedure plays per repeat: enough that a repeat takes a good part of a second.
REFERENCE_RUNS, VECTOR_RUNS = 5_000, 200_000


def sim1_rows() -> list[str]:
    """Orion, Tactics and Capital: games a second through `goldfish` and through
    `goldfish_reference` on the sample set's legal deck, the median of three repeats."""
    from tests.engines.sample_decks import legal_deck

    rows = []
    for slug in ("conquest-of-orion", "conquest-alpha-tactics", "conquest-for-the-capital"):
        engine = get_engine(slug)
        deck = legal_deck(slug)
        ref = timed(
            partial(engine.goldfish_reference, deck, runs=REFERENCE_RUNS, seed=1, policy={}), 3
        )
        vec = timed(partial(engine.goldfish, deck, runs=VECTOR_RUNS, seed=1, policy={}), 3)
        ref_rate, vec_rate = REFERENCE_RUNS / ref, VECTOR_RUNS / vec
        rows.append(
            f"| {engine.name} | {ref_rate:,.0f} | {vec_rate:,.0f} | {vec_rate / ref_rate:.0f}x |"
            f" {53_000 / vec_rate:.2f} |"
        )
    return rows


def main() -> None:
    deck = [DeckCard(f"U{i}", f"U{i}", "Unit", "main", 1, stats={"cq": i % 7}) for i in range(28)]
    deck.append(DeckCard("S", "Star", "Celestial", "main", 1))
    fates = get_engine("conquest-of-fates").goldfish
    games = timed(lambda: fates(deck, runs=10_000, seed=1, policy={}))
    print("| measure | median |")
    print("|---|---:|")
    print(f"| 10,000 Conquest of Fates games (3 battles) | {games:.3f} s |")
    print()
    print("| game | reference games/s | vectorised games/s | ratio | cost (53,000/s = 1) |")
    print("|---|---:|---:|---:|---:|")
    for row in sim1_rows():
        print(row)


if __name__ == "__main__":
    main()
