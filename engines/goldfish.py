"""Goldfishing: playing a deck alone to learn how it draws. Shared pieces for the engines.

Each game's procedure lives in its engine module as
`goldfish(cards, *, runs, seed, policy) -> {"summary": ..., "charts": ...}`: pure, seeded by
`random.Random(seed)` so the same seed gives the same answer, with every choice a real player
would make taken by a documented policy whose knobs are the `policy` mapping.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from engines.errors import InputError
from engines.rules import DeckCard

MAX_RUNS = 1_000_000


@dataclass(frozen=True)
class PolicyParam:
    key: str
    default: Any
    help: str


def resolve_policy(params: Sequence[PolicyParam], given: Mapping[str, Any]) -> dict[str, Any]:
    known = {p.key: p for p in params}
    for key in given:
        if key not in known:
            raise InputError(key, f"unknown policy option; options: {', '.join(known) or 'none'}")
    resolved = {}
    for p in params:
        value = given.get(p.key, p.default)
        if type(value) is not type(p.default) and not (
            isinstance(p.default, float) and isinstance(value, int)
        ):
            raise InputError(p.key, f"must be like {p.default!r}, got {value!r}")
        resolved[p.key] = value
    return resolved


def copies(cards: Iterable[DeckCard], zone: str | None = None) -> list[DeckCard]:
    """One entry per physical card."""
    return [c for c in cards if zone is None or c.zone == zone for _ in range(c.quantity)]


def rng_for(seed: int) -> random.Random:
    return random.Random(seed)


def histogram(values: Iterable[Any]) -> dict[str, int]:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts, key=lambda v: (v is None, v))}


def describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "p10": 0.0, "median": 0.0, "p90": 0.0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])

    return {
        "mean": round(statistics.fmean(ordered), 4),
        "p10": at(0.1),
        "median": at(0.5),
        "p90": at(0.9),
    }


def by_turn(turns: Sequence[int | None], last: int, runs: int) -> list[float]:
    """P(done by turn t) for t = 1..last, from the turn each run got there (None: never)."""
    counts = Counter(t for t in turns if t is not None)
    done, out = 0, []
    for t in range(1, last + 1):
        done += counts.get(t, 0)
        out.append(round(done / runs, 6))
    return out


def stat(card: DeckCard, key: str, default: int = 0) -> int:
    """A card's whole-number stat, or `default` where the card leaves it empty."""
    return int(cast("int", card.stats.get(key, default) or default))


def draw_up_to(
    size: int,
    hand: list[DeckCard],
    pile: list[DeckCard],
    discard: list[DeckCard],
    rng: random.Random,
) -> tuple[list[DeckCard], list[DeckCard]]:
    """Draw into `hand` until it holds `size`, shuffling the discards into a new pile when the
    pile runs out; returns the pile and discards as they are after. Stops early only when
    both are empty."""
    while len(hand) < size:
        if not pile:
            if not discard:
                break
            pile, discard = discard, []
            rng.shuffle(pile)
        hand.append(pile.pop())
    return pile, discard


def counted(runs: int, progress: Callable[[int], None] | None, step: int = 1000) -> Iterator[int]:
    """range(runs), telling `progress` every `step` runs (for progress bars)."""
    for i in range(runs):
        yield i
        if progress is not None and (i + 1) % step == 0:
            progress(step)
    if progress is not None and runs % step:
        progress(runs % step)
