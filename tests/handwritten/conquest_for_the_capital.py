"""Conquest for the Capital: its hand-written goldfish procedure (the vectorised one the site
ran and the per-game loop it was held to) and its exact odds, before the procedure was declared
in fixtures/conquest-for-the-capital/goldfish.toml. Kept for the benchmark; not wired."""

from collections.abc import Callable, Mapping, Sequence
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from engines.base import (
    HandOdds,
)
from engines.goldfish import (
    PolicyParam,
    by_turn,
    copies,
    counted,
    draw_up_to,
    resolve_policy,
    rng_for,
    stat,
)
from engines.odds import MAX_DECK_SIZE, at_least
from engines.rules import DeckCard
from engines.vectorised import Tally, batches, by_turn_counts, first_max, generator, shuffled

# --- goldfish ------------------------------------------------------------------------------

GOLDFISH_POLICY = (
    PolicyParam("turns", 5, "Turns in a game (Winning The Game: five turns).", 1, 5, work=True),
    PolicyParam(
        "battles_per_turn",
        2,
        "Battle cards played a turn, one per battle phase (Turn Order: Battle Phase 1 and 2).",
        0,
        2,
    ),
)
HAND, BIG_HAND = 4, 6


def _draws_six(card: DeckCard) -> bool:
    # Battle Cards: "up to 6 cards if cited on their upgrade card".
    return "up to 6" in card.text.lower()


def _answer(
    p: Mapping[str, Any],
    attack: Tally,
    defence: Tally,
    per_turn: Sequence[Tally],
    six_by_turn: list[float],
) -> dict[str, object]:
    bonus = [t.describe() for t in per_turn]
    return {
        "summary": {
            "attack": attack.describe(),
            "defence": defence.describe(),
            "bonus_per_turn": bonus,
            "hand_of_six_by_turn": six_by_turn,
        },
        "charts": {
            "attack": attack.histogram(),
            "defence": defence.histogram(),
            "bonus_per_turn": [b["mean"] for b in bonus],
            "bonus_per_turn_sd": [b["sd"] for b in bonus],
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
    """Each turn's deployment draws Battle cards up to 4 (6 once an upgrade that says so is
    kept), reshuffling the discards when the deck is empty; each battle phase plays the card
    with the most Attack plus Defence. The upgrade phase draws 3 and keeps 1 (one that raises
    the hand to 6 first, else the most stars), the other two going to the bottom. Reports the
    Attack and Defence bonuses of the cards played. One game at a time: the reference the
    vectorised `goldfish` is held to."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    battle = copies(cards, "battle")
    upgrades = copies(cards, "upgrade")
    attack, defence = Tally(), Tally()
    per_turn = [Tally() for _ in range(p["turns"])]
    six_turn: list[int | None] = []
    for _ in counted(runs, progress):
        deck = battle[:]
        discard: list[DeckCard] = []
        rng.shuffle(deck)
        upgrade_deck = upgrades[:]
        rng.shuffle(upgrade_deck)
        hand: list[DeckCard] = []
        size, became_six = HAND, None
        for turn in range(p["turns"]):
            deck, discard = draw_up_to(size, hand, deck, discard, rng)
            played_total = 0
            for _ in range(p["battles_per_turn"]):
                if not hand:
                    break
                card = max(hand, key=lambda c: stat(c, "attack") + stat(c, "defence"))
                hand.remove(card)
                discard.append(card)
                a, d = stat(card, "attack"), stat(card, "defence")
                attack.counts[a] += 1
                defence.counts[d] += 1
                played_total += a + d
            per_turn[turn].counts[played_total] += 1
            drawn, upgrade_deck = upgrade_deck[:3], upgrade_deck[3:]
            if drawn:
                kept = max(drawn, key=lambda c: (_draws_six(c), stat(c, "stars")))
                drawn.remove(kept)
                upgrade_deck += drawn
                if _draws_six(kept) and size == HAND:
                    size, became_six = BIG_HAND, turn + 1
        six_turn.append(became_six)
    return _answer(p, attack, defence, per_turn, by_turn(six_turn, p["turns"], runs))


def _first_six(upgrades: int, six: int, turns: int) -> npt.NDArray[np.float64]:
    """P(the hand becomes six on turn t), t = 1..turns, then P(never). The upgrade phase of
    turn t draws the next 3 of the shuffled Upgrade deck (the two put back go below every card
    not yet drawn, and are never the one that raises the hand: that one is always kept), so
    the first such card at position s is kept on turn s // 3 + 1."""
    chances = np.zeros(turns + 1)
    if six:
        for s in range(upgrades - six + 1):
            turn = s // 3
            # P(the first of `six` cards in a shuffled deck of `upgrades` is at position s).
            chance = comb(upgrades - s - 1, six - 1) / comb(upgrades, six)
            chances[turn if turn < turns else turns] += chance
    chances[turns] = max(0.0, 1.0 - chances[:turns].sum())
    return chances


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """The reference's games, many at once: each draw and each battle phase is one step for
    every row, the Battle deck a shuffled row read by a pointer, a row's discards shuffled
    (random keys, argsorted) into a new deck when it runs out. The Upgrade deck only decides
    the turn the hand becomes six (`_first_six`): it is drawn for each row from that
    distribution, one number a game, instead of dealt."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = generator(seed)
    battle = copies(cards, "battle")
    upgrades = copies(cards, "upgrade")
    turns, phases = p["turns"], p["battles_per_turn"]
    size = len(battle)
    width = max(size, 1)
    attack_of = np.array([stat(c, "attack") for c in battle] or [0], np.int64)
    defence_of = np.array([stat(c, "defence") for c in battle] or [0], np.int64)
    # The card played: the most Attack plus Defence, the earliest drawn among equals (the
    # reference's max() over a hand kept in drawing order).
    strength = attack_of + defence_of
    rank = np.unique(strength, return_inverse=True)[1].astype(np.int64)
    six_chances = np.cumsum(_first_six(len(upgrades), sum(map(_draws_six, upgrades)), turns))
    attack, defence = Tally(), Tally()
    per_turn = [Tally() for _ in range(turns)]
    six_counts = np.zeros(turns + 2, np.int64)
    slots = BIG_HAND
    for rows in batches(runs, progress):
        index = np.arange(rows)
        # The turn (1-based) whose upgrade phase raises the hand to six; turns + 1: never.
        six_turn = np.searchsorted(six_chances, rng.random(rows), side="right") + 1
        six_turn = np.minimum(six_turn, turns + 1)
        six_counts += np.bincount(six_turn, minlength=turns + 2)
        pile = shuffled(rng, rows, size) if size else np.zeros((rows, 1), np.int64)
        top = np.zeros(rows, np.int64)
        pile_size = np.full(rows, size, np.int64)
        discard = np.zeros((rows, width), np.int64)
        discarded = np.zeros(rows, np.int64)
        hand = np.full((rows, slots), -1, np.int64)
        # When each card in hand was drawn, for the earliest-drawn rule among equals.
        drawn_at = np.zeros((rows, slots), np.int64)
        clock = 0
        for turn in range(1, turns + 1):
            limit = np.where(six_turn < turn, BIG_HAND, HAND)
            while True:
                held = (hand >= 0).sum(axis=1)
                wanting = held < limit
                out = wanting & (top >= pile_size)
                if out.any():
                    _reshuffle(rng, out & (discarded > 0), pile, pile_size, top, discard, discarded)
                    out = wanting & (top >= pile_size)
                drawing = wanting & ~out
                if not drawing.any():
                    break
                slot = first_max(hand < 0)
                card = pile[index, np.minimum(top, pile.shape[1] - 1)]
                hand[index, slot] = np.where(drawing, card, hand[index, slot])
                clock += 1
                drawn_at[index, slot] = np.where(drawing, clock, drawn_at[index, slot])
                top += drawing
            total = np.zeros(rows, np.int64)
            for _ in range(phases):
                # Strength first, then the earliest drawn: rank times a clock-wide span.
                key = np.where(hand >= 0, rank[hand] * (clock + 2) + clock + 1 - drawn_at, -1)
                slot = first_max(key)
                card = hand[index, slot]
                playing = card >= 0
                if not playing.any():
                    break
                card = np.where(playing, card, 0)
                attack.add(attack_of[card[playing]])
                defence.add(defence_of[card[playing]])
                total += np.where(playing, strength[card], 0)
                at = np.minimum(discarded, width - 1)
                discard[index, at] = np.where(playing, card, discard[index, at])
                discarded += playing
                hand[index, slot] = np.where(playing, -1, hand[index, slot])
            per_turn[turn - 1].add(total)
    return _answer(p, attack, defence, per_turn, by_turn_counts(six_counts, turns, runs))


def _reshuffle(
    rng: np.random.Generator,
    rows: npt.NDArray[np.bool_],
    pile: npt.NDArray[np.int64],
    pile_size: npt.NDArray[np.int64],
    top: npt.NDArray[np.int64],
    discard: npt.NDArray[np.int64],
    discarded: npt.NDArray[np.int64],
) -> None:
    """The discard pile, shuffled, becomes the Battle deck of the rows given (Deployment
    Phase: reshuffle the used Battle Cards)."""
    which = np.flatnonzero(rows)
    if not len(which):
        return
    width = discard.shape[1]
    keys = rng.random((len(which), width))
    keys[np.arange(width)[None, :] >= discarded[which][:, None]] = 2.0
    order = np.argsort(keys, axis=1)
    pile[which, :width] = np.take_along_axis(discard[which], order, axis=1)
    pile_size[which] = discarded[which]
    top[which] = 0
    discarded[which] = 0


def odds(cards: Sequence[DeckCard], policy: Mapping[str, object]) -> list[HandOdds]:
    """The exact chance that an upgrade raising the hand to six has been kept by each turn:
    the upgrade phases of turns 1..t see the first 3t cards of the shuffled Upgrade deck (the
    cards put back go below them), and such a card is always the one kept."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    upgrades = [c for c in cards if c.zone == "upgrade" and c.quantity > 0]
    size = sum(c.quantity for c in upgrades)
    six = sum(c.quantity for c in upgrades if _draws_six(c))
    if not six or size > MAX_DECK_SIZE:
        return []
    return [
        HandOdds(
            f"an upgrade raising the hand to six kept by turn {t}",
            float(at_least(size, six, min(3 * t, size), 1)),
            f"hand_of_six_by_turn.{t - 1}",
        )
        for t in range(1, p["turns"] + 1)
    ]
