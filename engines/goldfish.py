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
from dataclasses import dataclass, field
from typing import Any, cast

from engines.dealing import take_top
from engines.errors import InputError
from engines.rules import DeckCard

MAX_RUNS = 1_000_000


@dataclass(frozen=True)
class PolicyParam:
    """A choice a simulated player makes, with its default and the range it may take.

    `work` marks a knob that multiplies the work of one game (turns, battles, rounds): the
    runs a request may ask for shrink as it grows, so that runs=1 cannot hide a huge game."""

    key: str
    default: Any
    help: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    work: bool = False
    # What a form calls the knob, in the game's words; empty: its key, made readable.
    label: str = ""
    # For a knob that picks one of the deck's own cards (a Sigil the deck holds): the deck's
    # cards -> [(value, what it means)], for a form to offer as a list.
    choices: Callable[[Sequence[DeckCard]], list[tuple[int, str]]] | None = field(
        default=None, compare=False
    )

    @property
    def title(self) -> str:
        return self.label or self.key.replace("_", " ").capitalize()

    def __post_init__(self) -> None:
        numeric = isinstance(self.default, int | float) and not isinstance(self.default, bool)
        if numeric and (self.minimum is None or self.maximum is None):
            raise ValueError(f"policy {self.key}: a number needs a minimum and a maximum")


def resolve_policy(params: Sequence[PolicyParam], given: Mapping[str, Any]) -> dict[str, Any]:
    known = {p.key: p for p in params}
    if len(given) > len(known):
        raise InputError("policy", f"at most {len(known)} options; there are {len(given)}")
    for key in given:
        if key not in known:
            # Named back only when it is a plain name: a key is the client's text, and may be
            # anything (an unpaired surrogate cannot even be written out as JSON).
            plain = isinstance(key, str) and key.isidentifier() and key.isascii() and len(key) < 40
            raise InputError(
                key if plain else "policy",
                f"unknown policy option; options: {', '.join(known) or 'none'}",
            )
    resolved = {}
    for p in params:
        value = given.get(p.key, p.default)
        if type(value) is not type(p.default) and not (
            isinstance(p.default, float) and isinstance(value, int) and not isinstance(value, bool)
        ):
            raise InputError(p.key, f"must be like {p.default!r}")
        if (
            p.minimum is not None
            and p.maximum is not None
            and not (p.minimum <= value <= p.maximum)
        ):
            raise InputError(p.key, f"must be between {p.minimum} and {p.maximum}")
        resolved[p.key] = value
    return resolved


def work_of(
    params: Sequence[PolicyParam], policy: Mapping[str, Any], runs: int, cost: float = 1.0
) -> float:
    """The work of `runs` games under `policy`, in units of work (GameEngine.goldfish_cost):
    runs times the game's cost times how far the policy's turns, battles or rounds go past
    their defaults."""
    scale = 1.0
    for p in params:
        if p.work:
            scale *= max(policy.get(p.key, p.default), 1) / p.default
    return runs * cost * scale


def max_runs_for(params: Sequence[PolicyParam], policy: Mapping[str, Any]) -> int:
    """The most runs this policy may ask for: MAX_RUNS at the defaults, fewer as the knobs
    that multiply a game's work (turns, battles, rounds) grow past them."""
    scale = work_of(params, policy, 1)
    return MAX_RUNS if scale <= 1 else max(1, int(MAX_RUNS / scale))


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
        return {"mean": 0.0, "p10": 0.0, "median": 0.0, "p90": 0.0, "sd": 0.0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])

    return {
        "mean": round(statistics.fmean(ordered), 4),
        "p10": at(0.1),
        "median": at(0.5),
        "p90": at(0.9),
        # The spread a mean is shown with (population standard deviation).
        "sd": round(statistics.pstdev(ordered), 4),
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
        # The pile's top is its end here: the simulations deal from the back of the list.
        card = take_top(pile, discard, rng, reshuffle=True, top=-1)
        if card is None:
            break
        hand.append(card)
    return pile, discard


def counted(runs: int, progress: Callable[[int], None] | None, step: int = 1000) -> Iterator[int]:
    """range(runs), telling `progress` every `step` runs (for progress bars)."""
    for i in range(runs):
        yield i
        if progress is not None and (i + 1) % step == 0:
            progress(step)
    if progress is not None and runs % step:
        progress(runs % step)


def at_path(summary: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path into a goldfish summary ("celestial_by_battle.0",
    "cards.Dr. Vance.in_opening_hand"), or None. A mapping's key may itself hold dots (card
    names do), so at each mapping the longest run of parts that is one of its keys wins."""
    parts = path.split(".")
    value: Any = summary
    i = 0
    while i < len(parts):
        if isinstance(value, Mapping):
            for j in range(len(parts), i, -1):
                key = ".".join(parts[i:j])
                if key in value:
                    value, i = value[key], j
                    break
            else:
                return None
        elif isinstance(value, list) and parts[i].isascii() and parts[i].isdigit():
            index = int(parts[i])
            if index >= len(value):
                return None
            value, i = value[index], i + 1
        else:
            return None
    return value
