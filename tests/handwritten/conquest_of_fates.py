"""Conquest of Fates: its hand-written goldfish procedure (the vectorised one the site ran and
the per-game loop it was held to) and its exact odds, before the procedure was declared in
fixtures/conquest-of-fates/goldfish.toml. Kept for the benchmark; not wired."""

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import comb

import numpy as np

from engines.base import (
    HandOdds,
)
from engines.goldfish import (
    PolicyParam,
    copies,
    counted,
    describe,
    histogram,
    resolve_policy,
    rng_for,
)
from engines.odds import at_least
from engines.rules import (
    DeckCard,
)
from engines.vectorised import Tally, batches, generator, permuted, share

# --- goldfish ------------------------------------------------------------------------------

SUPPLY_DROP, HAND_LIMIT, FORWARD, REAR = 7, 10, 4, 3
GOLDFISH_POLICY = (
    PolicyParam(
        "mulligan_below_units",
        3,
        "Mulligan the first supply drop when it holds fewer "
        "units than this (Intermediate Rules, Mulligans: once, first drop only).",
        minimum=0,
        # Past the drop's size every drop is mulliganed: allowed, to test the mulligan.
        maximum=SUPPLY_DROP + 1,
    ),
    PolicyParam("battles", 3, "Battles per game (game overview: 3 battles).", 1, 3, work=True),
)


def _cq(card: DeckCard) -> int | None:
    value = card.stats.get("cq")
    return value if card.card_type == "Unit" and isinstance(value, int) else None


def goldfish_reference(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """Solo battles: each supply drop draws 7 (draws simply stop when the deck runs out), the
    hand carries over, and is discarded down to 10, lowest CQ first. One Celestial in hand is
    deployed (it stays, and sets no CQ here). Units go face-down one per location, the
    highest CQ first, into locations 1-4 then 5-7, and their face-up CQ is tallied.

    The straightforward loop, one game at a time: `goldfish` must agree with it."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = copies(cards)
    per_battle: list[list[int]] = [[] for _ in range(p["battles"])]
    celestial_by: list[int] = [0] * p["battles"]
    totals, mulligans = [], 0
    for _ in counted(runs, progress):
        deck = library[:]
        rng.shuffle(deck)
        hand = deck[:SUPPLY_DROP]
        del deck[:SUPPLY_DROP]
        if sum(_cq(c) is not None for c in hand) < p["mulligan_below_units"]:
            deck += hand
            rng.shuffle(deck)
            hand = deck[:SUPPLY_DROP]
            del deck[:SUPPLY_DROP]
            mulligans += 1
        celestial = next((c for c in hand if c.card_type == "Celestial"), None)
        if celestial is not None:
            hand.remove(celestial)
        seen = celestial is not None
        total = 0
        for battle in range(p["battles"]):
            if battle:
                drop = deck[:SUPPLY_DROP]
                seen = seen or any(c.card_type == "Celestial" for c in drop)
                hand += drop
                del deck[:SUPPLY_DROP]
            celestial_by[battle] += seen
            hand.sort(key=lambda c: -1 if (value := _cq(c)) is None else value, reverse=True)
            del hand[HAND_LIMIT:]
            units = [c for c in hand if _cq(c) is not None][: FORWARD + REAR]
            for unit in units:
                hand.remove(unit)
            cq = sum(_cq(u) or 0 for u in units)
            per_battle[battle].append(cq)
            total += cq
        totals.append(total)
    return _answer(
        total=describe(totals),
        per_battle=[describe(b) for b in per_battle],
        total_chart=histogram(totals),
        per_battle_charts=[histogram(b) for b in per_battle],
        mulligans=mulligans,
        celestial_by=celestial_by,
        runs=runs,
    )


def _answer(
    *,
    total: dict[str, float],
    per_battle: list[dict[str, float]],
    total_chart: dict[str, int],
    per_battle_charts: list[dict[str, int]],
    mulligans: int,
    celestial_by: list[int],
    runs: int,
) -> dict[str, object]:
    return {
        "summary": {
            "total_cq": total,
            "cq_per_battle": per_battle,
            "mulligan_rate": share(mulligans, runs),
            "celestial_by_battle": [share(n, runs) for n in celestial_by],
        },
        "charts": {
            "total_cq": total_chart,
            "cq_per_battle": per_battle_charts,
        },
    }


# Below every CQ a card may print (a 32-bit stat): an empty place in a hand sorts last.
_EMPTY = -(2**40)


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """The same solo battles as `goldfish_reference`, many games at once: a row per game.

    Each row is a shuffle of the deck (a second shuffle where the first drop is mulliganed,
    as the whole deck is shuffled again), of which only the cards three drops draw matter. A
    hand is a row of CQ values (non-units count as -1, as the reference sorts them), sorted
    stably so that equal values keep the reference's order, cut to the hand limit, and the
    first seven units taken by a cumulative count. Nothing is left to a per-game loop."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    battles, need = p["battles"], p["mulligan_below_units"]
    rng = generator(seed)
    library = copies(cards)
    size = len(library)
    value = np.array([-1 if (v := _cq(c)) is None else v for c in library], dtype=np.int64)
    unit = np.array([_cq(c) is not None for c in library], dtype=bool)
    celestial = np.array([c.card_type == "Celestial" for c in library], dtype=bool)
    order = np.arange(size, dtype=np.int64)
    opening = min(SUPPLY_DROP, size)
    seen = min(size, SUPPLY_DROP * battles)
    totals, per_battle = Tally(), [Tally() for _ in range(battles)]
    celestial_by = [0] * battles
    mulligans = 0
    for rows in batches(runs, progress):
        if not size:
            empty = np.zeros(rows, dtype=np.int64)
            totals.add(empty)
            for tally in per_battle:
                tally.add(empty)
            mulligans += rows if need > 0 else 0
            continue
        deck = permuted(rng, order, rows)
        redo = unit[deck[:, :opening]].sum(axis=1) < need
        if (again := int(redo.sum())) > 0:
            deck[redo] = permuted(rng, order, again)
            mulligans += again
        drawn = deck[:, :seen]
        keys = np.where(unit[drawn], value[drawn], -1)
        is_unit = unit[drawn]
        is_celestial = celestial[drawn]
        # The first Celestial of the opening drop is deployed: it leaves the hand.
        first = is_celestial[:, :opening]
        deployed = first.any(axis=1)
        at = np.argmax(first, axis=1)
        hand = keys[:, :opening].copy()
        hand[deployed, at[deployed]] = _EMPTY
        hand_units = is_unit[:, :opening].copy()
        hand_units[deployed, at[deployed]] = False
        game = np.zeros(rows, dtype=np.int64)
        drew_celestial = deployed
        for battle in range(battles):
            if battle:
                lo, hi = SUPPLY_DROP * battle, min(SUPPLY_DROP * (battle + 1), seen)
                hand = np.concatenate([hand, keys[:, lo:hi]], axis=1)
                hand_units = np.concatenate([hand_units, is_unit[:, lo:hi]], axis=1)
                drew_celestial = drew_celestial | is_celestial[:, lo:hi].any(axis=1)
            celestial_by[battle] += int(drew_celestial.sum())
            # Highest CQ first, ties in hand order: Python's stable sort with reverse=True.
            ranked = np.argsort(-hand, axis=1, kind="stable")[:, :HAND_LIMIT]
            hand = np.take_along_axis(hand, ranked, axis=1)
            hand_units = np.take_along_axis(hand_units, ranked, axis=1)
            placed = hand_units & (np.cumsum(hand_units, axis=1) <= FORWARD + REAR)
            cq = np.where(placed, hand, 0).sum(axis=1)
            hand = np.where(placed, _EMPTY, hand)
            hand_units = hand_units & ~placed
            per_battle[battle].add(cq)
            game += cq
        totals.add(game)
    return _answer(
        total=totals.describe(),
        per_battle=[t.describe() for t in per_battle],
        total_chart=totals.histogram(),
        per_battle_charts=[t.histogram() for t in per_battle],
        mulligans=mulligans,
        celestial_by=celestial_by,
        runs=runs,
    )


def odds(cards: Sequence[DeckCard], policy: Mapping[str, object]) -> list[HandOdds]:
    """Exact chances to set beside the simulated ones: that the first supply drop is
    mulliganed under the policy, and that a Celestial has been drawn by each battle, the
    opening drop taken after the mulligan (Intermediate Rules, Mulligans: the drop is
    shuffled back into the deck and drawn again, once)."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    size = sum(c.quantity for c in cards)
    if size < SUPPLY_DROP:
        return []
    units = sum(c.quantity for c in cards if _cq(c) is not None)
    celestials = sum(c.quantity for c in cards if c.card_type == "Celestial")
    need = p["mulligan_below_units"]
    found = [
        HandOdds(
            f"a first supply drop with fewer than {need} units",
            1 - float(at_least(size, units, SUPPLY_DROP, need)),
            "mulligan_rate",
        )
    ]
    if celestials:
        for battle in range(1, p["battles"] + 1):
            chance = _celestial_by(size, units, celestials, need, battle)
            found.append(
                HandOdds(
                    f"a Celestial drawn by battle {battle} "
                    f"({min(size, SUPPLY_DROP * battle)} cards, the mulligan included)",
                    float(chance),
                    f"celestial_by_battle.{battle - 1}",
                )
            )
    return found


def _celestial_by(size: int, units: int, celestials: int, need: int, battle: int) -> Fraction:
    """P(at least one Celestial among the cards drawn by `battle`), the first drop
    mulliganed (shuffled back, drawn again) when it holds fewer than `need` units.

    Hypergeometric over the opening drop's units, then over the drops after it: a kept drop
    conditions what follows, a mulliganed one starts afresh."""
    drop, seen = SUPPLY_DROP, min(size, SUPPLY_DROP * battle)
    others = size - units - celestials
    # P(the first drop is kept and no Celestial is among the first `seen` cards).
    kept_without = Fraction(0)
    later = Fraction(comb(size - drop - celestials, seen - drop), comb(size - drop, seen - drop))
    for held in range(need, min(units, drop) + 1):
        kept_without += Fraction(comb(units, held) * comb(others, drop - held), comb(size, drop))
    kept = at_least(size, units, drop, need)
    anywhere = at_least(size, celestials, seen, 1)
    return (kept - kept_without * later) + (1 - kept) * anywhere
