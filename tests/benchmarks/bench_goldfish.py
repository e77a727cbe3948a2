"""Goldfish benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_goldfish.py

For each game, on a legal deck built from its sample set at the default policy: full solo
games per second through the engine's own `goldfish` (what the goldfish page and API run,
vectorised) and through `goldfish_reference` (the per-game loop it must agree with, measured
in the same run), the median of several repeats, on one core, and the ratio. Target: at
least 100,000 games a second for every game. For a game whose procedure is declared as data
(fixtures/<slug>/goldfish.toml, run by engines/procedure), its hand-written kernel
(tests/handwritten) is timed in the same run too, interleaved with the interpreter, and the
"vs kernel" column is the interpreter's speed over the kernel's (target: at least 0.5). The
last column is the game's cost in the unit `GameEngine.goldfish_cost` uses (a reference-loop
Conquest of Fates game, 53,000 a second when it was set).
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
from tests.engines.sample_decks import legal_deck  # noqa: E402
from tests.handwritten import HANDWRITTEN  # noqa: E402

VECTOR_RUNS = 200_000


def timed(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def games_per_second(slug: str, deck: list[DeckCard], reference_runs: int) -> str:
    engine = get_engine(slug)
    kernel = HANDWRITTEN.get(slug)
    fast_times, kernel_times = [], []
    # Interleaved, so that a slow moment of a shared machine weighs on both alike.
    for _ in range(5):
        fast_times.append(
            timed(lambda: engine.goldfish(deck, runs=VECTOR_RUNS, seed=1, policy={}), 1)
        )
        if kernel is not None:
            kernel_times.append(
                timed(lambda: kernel.goldfish(deck, runs=VECTOR_RUNS, seed=1, policy={}), 1)
            )
    fast = VECTOR_RUNS / statistics.median(fast_times)
    slow = reference_runs / timed(
        lambda: engine.goldfish_reference(deck, runs=reference_runs, seed=1, policy={}), 3
    )
    if kernel_times:
        by_hand = VECTOR_RUNS / statistics.median(kernel_times)
        versus = f"{by_hand:,.0f} | {fast / by_hand:.2f}"
    else:
        versus = "(not declared) | -"
    return (
        f"| {engine.name} | {slow:,.0f} | {fast:,.0f} | {versus} | {fast / slow:.0f}x "
        f"| {53_000 / fast:.2f} |"
    )


# Each game's legal sample deck, and how many games its slow loop plays per repeat (enough
# for a good part of a second).
DECKS: tuple[tuple[str, Callable[[], list[DeckCard]], int], ...] = (
    # 25 units of the sample faction (one Apex) and one Celestial: three battles a game.
    ("conquest-of-fates", fates_sample_deck, 20_000),
    # The sample Nest of 64 cards and its six Sigils, the first one chosen; alignment 5.
    ("fate-foretold", fate_sample_deck, 10_000),
    ("conquest-of-orion", lambda: legal_deck("conquest-of-orion"), 5_000),
    ("conquest-alpha-tactics", lambda: legal_deck("conquest-alpha-tactics"), 5_000),
    ("conquest-for-the-capital", lambda: legal_deck("conquest-for-the-capital"), 5_000),
)


def main() -> None:
    print(
        "| game | reference loop (games/s) | vectorised (games/s) | hand-written kernel "
        "(games/s) | vs kernel | vectorised / reference | cost |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for slug, deck, reference_runs in DECKS:
        print(games_per_second(slug, deck(), reference_runs))


if __name__ == "__main__":
    main()
