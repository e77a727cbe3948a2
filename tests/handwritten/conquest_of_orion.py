"""Conquest of Orion's hand-written goldfish procedure (the vectorised kernel the site ran and
its per-game reference loop), its policy and its exact odds, as they were before
fixtures/conquest-of-orion/goldfish.toml declared them: kept for the benchmark and the
agreement tests (tests/handwritten/__init__.py)."""

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from engines.base import (
    HandOdds,
)
from engines.goldfish import (
    PolicyParam,
    by_turn,
    copies,
    counted,
    describe,
    resolve_policy,
    rng_for,
    stat,
)
from engines.odds import MAX_DECK_SIZE, at_least
from engines.rules import DeckCard
from engines.vectorised import Tally, batch_for, batches, by_turn_counts, generator, partial_shuffle

RESOURCES = ("blue", "gold", "red")
# The rulebook's text lost its resource icons for planet income, innate income and the Tier
# cost (§1.3, §1.5, §1.7, §1.10), so these are parameters. Their defaults are this site's
# assumptions, not the rulebook's: one resource per starting planet (Ice blue, Rock gold,
# Lava red), one gold innately, and three gold to ascend.
GOLDFISH_POLICY = (
    PolicyParam(
        "income_blue",
        2,
        "Blue per turn from the starting planets (two Ice Planets); "
        "assumed: the rulebook's icons are missing.",
        0,
        6,
    ),
    # §1.5: no more than six of each resource can be stored, so no knob goes past six.
    PolicyParam(
        "income_gold", 2, "Gold per turn: the Rock Planet plus innate income; assumed.", 0, 6
    ),
    PolicyParam("income_red", 1, "Red per turn from the Lava Planet; assumed.", 0, 6),
    PolicyParam("tier_cost_gold", 3, "Gold paid to ascend one Tier (§1.7); assumed amount.", 0, 6),
    PolicyParam("turns", 10, "Turns simulated.", 1, 50, work=True),
    PolicyParam("first_player", True, "The first player skips gaining resources on turn 1 (§1.3)."),
    PolicyParam(
        "exchange_above_tier",
        1,
        "In the opening hand, cards needing a Tier above this "
        "go to the bottom of the deck and are redrawn (§1.3 allows any number).",
        0,
        10,
    ),
)
CAP, TRADE = 6, 3


def _cost(card: DeckCard) -> dict[str, int]:
    return {r: stat(card, f"cost_{r}") for r in RESOURCES}


def _affordable(pool: Mapping[str, int], cost: Mapping[str, int]) -> bool:
    """With 3:1 trades of any surplus into any shortfall (§1.5)."""
    short = sum(max(0, cost[r] - pool[r]) for r in RESOURCES)
    spare = sum(max(0, pool[r] - cost[r]) // TRADE for r in RESOURCES)
    return short <= spare


def _pay(pool: dict[str, int], cost: Mapping[str, int]) -> None:
    for r in RESOURCES:
        pool[r] -= cost[r]
    for r in RESOURCES:
        while pool[r] < 0:
            donor = max(RESOURCES, key=lambda d: pool[d])
            pool[donor] -= TRADE
            pool[r] += 1


def _low(card: DeckCard, p: Mapping[str, Any]) -> bool:
    """Kept in the opening hand by the exchange policy."""
    return stat(card, "tier", 1) <= int(p["exchange_above_tier"])


def _trajectory(p: Mapping[str, Any], top_tier: int) -> list[tuple[int, dict[str, int]]]:
    """The Tier and the resource pool at each turn's check, turn 1 first. No card is played,
    so they depend on the policy and the deck's top Tier only: the same in every game."""
    income = {r: p[f"income_{r}"] for r in RESOURCES}
    tier_cost = {"blue": 0, "gold": p["tier_cost_gold"], "red": 0}
    pool = dict.fromkeys(RESOURCES, 0)
    tier, pending = 1, False
    out = []
    for turn in range(1, p["turns"] + 1):
        if pending:
            tier, pending = tier + 1, False
        if not (turn == 1 and p["first_player"]):
            for r in RESOURCES:
                pool[r] = min(CAP, pool[r] + income[r])
        out.append((tier, dict(pool)))
        if tier < top_tier and not pending and _affordable(pool, tier_cost):
            _pay(pool, tier_cost)
            pending = True
    return out


def _answer(
    p: Mapping[str, Any],
    per_card: dict[str, dict[str, Any]],
    ready: list[dict[str, float]],
    any_ready: list[float],
) -> dict[str, object]:
    income = {r: p[f"income_{r}"] for r in RESOURCES}
    return {
        "summary": {
            "turns": p["turns"],
            "cards": per_card,
            "playable_per_turn": ready,
            "any_playable_by_turn": any_ready,
            "assumed": {
                "income": income,
                "tier_cost": {"blue": 0, "gold": p["tier_cost_gold"], "red": 0},
                "note": "The rulebook's resource icons are missing; these are "
                "this site's defaults, not the rulebook's.",
            },
        },
        "charts": {
            "playable_cards_per_turn": [r["mean"] for r in ready],
            "playable_cards_per_turn_sd": [r["sd"] for r in ready],
            "any_playable_by_turn": any_ready,
        },
    }


def goldfish_reference(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """Draw 4, exchange (policy), then each turn draw 1, gain income (capped at 6 of each) and
    ascend a Tier whenever the cost can be paid and the deck holds cards of a higher Tier (the
    new Tier counts from the next turn, §1.7). Reports when each card is first playable: in
    hand, its Tier reached, and its cost payable with trades. No card is actually played, so
    the figures show the earliest possible turn. One game at a time: the reference the
    vectorised `goldfish` is held to."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = [c for c in copies(cards) if c.card_type not in ("Planet", "Archive")]
    income = {r: p[f"income_{r}"] for r in RESOURCES}
    tier_cost = {"blue": 0, "gold": p["tier_cost_gold"], "red": 0}
    top_tier = max((stat(c, "tier", 1) for c in library), default=1)
    turns = p["turns"]
    first: dict[str, list[int | None]] = {c.name: [] for c in library}
    opening_seen: Counter[str] = Counter()
    last_seen: Counter[str] = Counter()
    ready_per_turn: list[list[int]] = [[] for _ in range(turns)]
    for _ in counted(runs, progress):
        deck = library[:]
        rng.shuffle(deck)
        hand, deck = deck[:4], deck[4:]
        keep: list[DeckCard] = []
        back: list[DeckCard] = []
        for card in hand:  # partitioned, not by membership: copies compare equal
            (keep if _low(card, p) else back).append(card)
        deck += back
        hand = keep + deck[: len(back)]
        deck = deck[len(back) :]
        opening_seen.update({c.name for c in hand})
        pool = dict.fromkeys(RESOURCES, 0)
        tier, pending = 1, False
        seen: dict[str, int] = {}
        for turn in range(1, turns + 1):
            if pending:
                tier, pending = tier + 1, False
            if deck:
                hand.append(deck.pop(0))
            if not (turn == 1 and p["first_player"]):
                for r in RESOURCES:
                    pool[r] = min(CAP, pool[r] + income[r])
            ready = 0
            for card in hand:
                if stat(card, "tier", 1) <= tier and _affordable(pool, _cost(card)):
                    ready += 1
                    seen.setdefault(card.name, turn)
            ready_per_turn[turn - 1].append(ready)
            if tier < top_tier and not pending and _affordable(pool, tier_cost):
                _pay(pool, tier_cost)
                pending = True
        last_seen.update({c.name for c in hand})
        for name in first:
            first[name].append(seen.get(name))
    per_card = {}
    for name, t in sorted(first.items()):
        turns_seen = describe([x for x in t if x is not None])
        per_card[name] = {
            "playable_by_turn": by_turn(t, turns, runs),
            "mean_first_turn": turns_seen["mean"],
            "sd_first_turn": turns_seen["sd"],
            "in_opening_hand": round(opening_seen[name] / runs, 6),
            "in_hand_by_last_turn": round(last_seen[name] / runs, 6),
        }
    described = [describe(r) for r in ready_per_turn]
    any_ready = [round(sum(n > 0 for n in r) / runs, 6) for r in ready_per_turn]
    return _answer(p, per_card, described, any_ready)


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """The reference's games, many at once. No card is played, so the Tier and the pool at
    each turn are the same in every game (`_trajectory`), and whether a card is playable is a
    table of (card, turn). What differs between games is only the shuffle, and of it only the
    cards that reach the hand: the opening four, their replacements and one a turn. So each
    row shuffles only that far (a Fisher-Yates shuffle stopped early), gives each card the turn
    it arrives in hand, and looks the rest up in the tables."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = generator(seed)
    library = [c for c in cards if c.card_type not in ("Planet", "Archive")]
    kinds = [c for c in library if c.quantity > 0]
    deck_kind = np.array([i for i, c in enumerate(kinds) for _ in range(c.quantity)], np.int64)
    size, turns = len(deck_kind), p["turns"]
    names = sorted({c.name for c in kinds})
    name_of = np.array([names.index(c.name) for c in kinds] or [0], np.int64)
    top_tier = max((stat(c, "tier", 1) for c in kinds), default=1)
    path = _trajectory(p, top_tier)
    # playable[kind, t - 1]: the kind is playable on turn t once in hand.
    playable = np.array(
        [
            [stat(c, "tier", 1) <= tier and _affordable(pool, _cost(c)) for tier, pool in path]
            for c in kinds
        ]
        or [[False] * turns],
        bool,
    ).reshape(-1, turns)
    low = np.array([_low(c, p) for c in kinds] or [True], bool)
    # first_playable[kind, a]: the first turn >= a on which the kind is playable (turns + 1:
    # never); a = turns + 1 stands for a card that never reaches the hand.
    first_playable = np.full((len(playable), turns + 2), turns + 1, np.int64)
    for a in range(turns, 0, -1):
        first_playable[:, a] = np.where(playable[:, a - 1], a, first_playable[:, a + 1])
    # ready_from[kind, a, t - 1]: the card counts as ready on turn t when it arrived on turn a.
    arrived = np.arange(1, turns + 1)[None, :] >= np.arange(turns + 2)[:, None]
    ready_from = (playable[:, None, :] & arrived[None, :, :]).astype(np.int16)
    ready_from = ready_from.reshape(-1, turns)

    opening = min(4, size)
    # Rows look at the opening four, up to four replacements and a card a turn; a card put on
    # the bottom comes back only when the deck runs that far (D - 4 + j, past k + turns - 1).
    depth = min(size, opening + opening + turns)
    n_names = len(names)
    first_counts = np.zeros((n_names, turns + 2), np.int64)
    in_opening = np.zeros(n_names, np.int64)
    in_last = np.zeros(n_names, np.int64)
    ready_tallies = [Tally() for _ in range(turns)]
    any_ready = np.zeros(turns, np.int64)
    for rows in batches(runs, progress, batch_for(depth * turns)):
        if not size:
            for t in range(turns):
                ready_tallies[t].add(np.zeros(rows, np.int64))
            continue
        kind = deck_kind[partial_shuffle(rng, rows, size, depth)]
        top = kind[:, :opening]
        high = ~low[top]
        k = high.sum(axis=1)
        # The hand's order after the exchange: S = the deck below the opening four, then the
        # exchanged cards in their order; S[i] arrives on turn max(1, i - k + 1).
        rest = kind[:, opening:]
        position = np.arange(depth - opening)[None, :]
        arrival = np.maximum(1, position - k[:, None] + 1)
        kept_arrival = np.where(high, turns + 1, 1)
        # An exchanged card is S[D - 4 + j]: in reach only in a deck short for its turns.
        back_rank = np.cumsum(high, axis=1) - 1
        back_arrival = np.maximum(1, size - opening + back_rank - k[:, None] + 1)
        kept_arrival = np.where(high, back_arrival, kept_arrival)
        all_kind = np.concatenate([top, rest], axis=1)
        all_arrival = np.minimum(np.concatenate([kept_arrival, arrival], axis=1), turns + 1)
        # The opening hand, before turn 1's draw: the kept cards and S[:k] (which holds an
        # exchanged card itself only in a deck too short to replace it).
        opened = np.concatenate(
            [~high | (size - opening + back_rank < k[:, None]), position < k[:, None]], axis=1
        )
        first = np.full((rows, n_names), turns + 1, np.int64)
        at_open = np.zeros((rows, n_names), bool)
        at_last = np.zeros((rows, n_names), bool)
        index = np.arange(rows)
        for m in range(all_kind.shape[1]):
            kinds_m, arrival_m = all_kind[:, m], all_arrival[:, m]
            name_m = name_of[kinds_m]
            first[index, name_m] = np.minimum(
                first[index, name_m], first_playable[kinds_m, arrival_m]
            )
            at_open[index, name_m] |= opened[:, m]
            at_last[index, name_m] |= arrival_m <= turns
        in_opening += at_open.sum(axis=0)
        in_last += at_last.sum(axis=0)
        codes = np.arange(n_names)[None, :] * (turns + 2) + first
        first_counts += np.bincount(codes.ravel(), minlength=n_names * (turns + 2)).reshape(
            n_names, turns + 2
        )
        ready = ready_from[all_kind * (turns + 2) + all_arrival].sum(axis=1, dtype=np.int64)
        for t in range(turns):
            ready_tallies[t].add(ready[:, t])
        any_ready += (ready > 0).sum(axis=0)

    per_card = {}
    for i, name in enumerate(names):
        seen = first_counts[i]
        turns_seen = Tally()
        turns_seen.add_counts(np.arange(1, turns + 1), seen[1 : turns + 1])
        described = turns_seen.describe()
        per_card[name] = {
            "playable_by_turn": by_turn_counts(seen, turns, runs),
            "mean_first_turn": described["mean"],
            "sd_first_turn": described["sd"],
            "in_opening_hand": round(int(in_opening[i]) / runs, 6),
            "in_hand_by_last_turn": round(int(in_last[i]) / runs, 6),
        }
    ready_described = [t.describe() for t in ready_tallies]
    any_share = [round(int(n) / runs, 6) for n in any_ready]
    return _answer(p, per_card, ready_described, any_share)


def _none_in_hand(
    size: int, high: int, copies_low: int, copies_high: int, turns: int
) -> Fraction | None:
    """P(no copy of a card in hand after the opening exchange and `turns` draws), or None
    where an exchanged card could come back within reach (a deck too short for the turns).

    The exchange puts back the k cards needing a higher Tier (policy) from the four drawn and
    draws k more; then each turn draws one. So a copy is in hand when it is a kept copy among
    the four, or among the next k + turns cards. Summed over k and over the exchanged copies
    of the card itself, every term is a hypergeometric chance (engines.odds)."""
    opening = min(4, size)
    if min(opening, high) + turns > size - opening:
        return None
    low = size - high

    def none_of(population: int, hits: int, draws: int) -> Fraction:
        return 1 - at_least(population, hits, draws, 1) if draws else Fraction(1)

    def exactly(population: int, hits: int, draws: int, n: int) -> Fraction:
        if not draws:  # nothing drawn (from a pile perhaps empty): none, surely
            return Fraction(n == 0)
        return at_least(population, hits, draws, n) - at_least(population, hits, draws, n + 1)

    total = Fraction(0)
    for k in range(min(opening, high) + 1):
        p_k = exactly(size, high, opening, k)
        if not p_k:
            continue
        # No low copy among the opening's kept cards...
        missed = none_of(low, copies_low, opening - k)
        # ...nor any copy among the next k + turns, given the high copies put back.
        for x in range(min(k, copies_high) + 1):
            p_x = exactly(high, copies_high, k, x)
            left = copies_low + copies_high - x
            total += p_k * missed * p_x * none_of(size - opening, left, k + turns)
    return total


def odds(cards: Sequence[DeckCard], policy: Mapping[str, object]) -> list[HandOdds]:
    """The exact chance of each card in the opening hand after the policy's exchange, and in
    hand by the last turn simulated: beside the simulated shares (cards.<name>.*)."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    library = [c for c in cards if c.card_type not in ("Planet", "Archive") and c.quantity > 0]
    size = sum(c.quantity for c in library)
    if not size or size > MAX_DECK_SIZE:
        return []
    high = sum(c.quantity for c in library if not _low(c, p))
    found = []
    for name in sorted({c.name for c in library}):
        named = [c for c in library if c.name == name]
        copies_low = sum(c.quantity for c in named if _low(c, p))
        copies_high = sum(c.quantity for c in named) - copies_low
        for turns, label, key in (
            (0, "in the opening hand, after the exchange", "in_opening_hand"),
            (p["turns"], f"in hand by turn {p['turns']}", "in_hand_by_last_turn"),
        ):
            missed = _none_in_hand(size, high, copies_low, copies_high, turns)
            if missed is not None:
                found.append(
                    HandOdds(
                        f"{name}: at least one {label}", float(1 - missed), f"cards.{name}.{key}"
                    )
                )
    return found
