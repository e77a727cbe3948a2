"""Goldfish benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_goldfish.py

For each game, on a legal deck built from its sample set at the default policy: full solo
games per second through the engine's own `goldfish` (what the goldfish page and API run,
vectorised) and through `goldfish_reference` (the per-game loop it must agree with), the
median of several repeats, on one core, and the ratio. Target: at least 100,000 games a
second for every game.
"""

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# One core: NumPy's own threads (BLAS) would otherwise spread over the machine.
for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engines import get_engine  # noqa: E402
from engines.rules import DeckCard  # noqa: E402
from tests.engines.fates_decks import fate_sample_deck, fates_sample_deck  # noqa: E402


def timed(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def games_per_second(slug: str, deck: list[DeckCard], runs: int, reference_runs: int) -> str:
    engine = get_engine(slug)
    fast = runs / timed(lambda: engine.goldfish(deck, runs=runs, seed=1, policy={}))
    slow = reference_runs / timed(
        lambda: engine.goldfish_reference(deck, runs=reference_runs, seed=1, policy={}), 3
    )
    return f"| {engine.name} | {slow:,.0f} | {fast:,.0f} | {fast / slow:.1f}x |"


def conquest_of_fates_row() -> str:
    # 25 units of the sample faction (one Apex) and one Celestial: three battles a game.
    return games_per_second("conquest-of-fates", fates_sample_deck(), 200_000, 20_000)


def fate_foretold_row() -> str:
    # The sample Nest of 64 cards and its six Sigils, the first one chosen; alignment 5.
    return games_per_second("fate-foretold", fate_sample_deck(), 200_000, 10_000)


def main() -> None:
    print("| game | reference loop (games/s) | vectorised (games/s) | ratio |")
    print("|---|---:|---:|---:|")
    for row in (conquest_of_fates_row, fate_foretold_row):
        print(row())


if __name__ == "__main__":
    main()
