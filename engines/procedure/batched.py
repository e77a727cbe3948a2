"""The batched interpreter: a declared goldfish procedure played for many games at once, a step
at a time for every game, each game a row of NumPy arrays. It plays the same steps as the
reference interpreter (engines/procedure/reference.py) and is held to its answers.

A pile is a row of card numbers read as a ring (a first card and a count), so that cards put
on its bottom go after the last; its discards are a second row, shuffled back in (random keys,
argsorted) for the rows whose pile runs out. The hand is a row of slots (-1: empty) with the
moment each card was drawn, because among equally good cards the one drawn first is played,
as the reference's max() over a hand in drawing order does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engines.goldfish import copies, resolve_policy
from engines.procedure.cards import Expression
from engines.procedure.definition import (
    Amount,
    Choose,
    Deal,
    Deploy,
    Procedure,
    Refill,
    Shuffle,
    Step,
)
from engines.procedure.results import Counts, answer
from engines.rules import DeckCard
from engines.vectorised import batches, first_max, generator, shuffled

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class _Cards:
    """Every physical card of every pile, numbered once; values of expressions by number."""

    def __init__(self, procedure: Procedure, cards: Sequence[DeckCard]) -> None:
        self.table: list[DeckCard] = []
        self.offset: dict[str, int] = {}
        self.size: dict[str, int] = {}
        for pile in procedure.piles:
            own = copies(cards, pile.zone)
            self.offset[pile.name], self.size[pile.name] = len(self.table), len(own)
            self.table += own
        self._values: dict[str, IntArray] = {}
        self._ranks: dict[tuple[str, ...], IntArray] = {}
        self.tests = {
            name: np.array([test(c) for c in self.table] or [False], np.bool_)
            for name, test in procedure.tests.items()
        }

    def values(self, expression: Expression) -> IntArray:
        if expression.text not in self._values:
            found = [expression(c) for c in self.table] or [0]
            self._values[expression.text] = np.array(found, np.int64)
        return self._values[expression.text]

    def rank(self, order: tuple[Expression, ...]) -> IntArray:
        """Each card's place in an ordering (0: worst), equals sharing one."""
        key = tuple(e.text for e in order)
        if key not in self._ranks:
            columns = np.stack([self.values(e) for e in order], axis=1)
            self._ranks[key] = (
                np.unique(columns, axis=0, return_inverse=True)[1].astype(np.int64).ravel()
            )
        return self._ranks[key]


class _Batch:
    """The tables of `rows` games at once."""

    def __init__(
        self,
        procedure: Procedure,
        cards: _Cards,
        policy: Mapping[str, Any],
        rng: np.random.Generator,
        rows: int,
        counts: Counts,
        slots: int,
    ) -> None:
        self.procedure, self.cards, self.policy = procedure, cards, policy
        self.rng, self.rows, self.counts = rng, rows, counts
        self.index = np.arange(rows)
        self.pile: dict[str, IntArray] = {}
        self.head: dict[str, IntArray] = {}
        self.left: dict[str, IntArray] = {}
        self.discard: dict[str, IntArray] = {}
        self.discarded: dict[str, IntArray] = {}
        for name, size in cards.size.items():
            width = max(size, 1)
            self.pile[name] = np.full((rows, width), cards.offset[name], np.int64)
            self.head[name] = np.zeros(rows, np.int64)
            self.left[name] = np.zeros(rows, np.int64)
            self.discard[name] = np.zeros((rows, width), np.int64)
            self.discarded[name] = np.zeros(rows, np.int64)
        self.hand = np.full((rows, slots), -1, np.int64)
        self.held = np.zeros(rows, np.int64)
        self.drawn_at = np.zeros((rows, slots), np.int64)
        self.clock = 0
        self.counters = {k: np.full(rows, v, np.int64) for k, v in procedure.counters.items()}
        self.totals = {k: np.zeros(rows, np.int64) for k in counts.per_turn}
        self.first = {k: np.full(rows, counts.turns + 1, np.int64) for k in counts.first}

    def target(self, value: Amount) -> IntArray | int:
        if isinstance(value, str) and value in self.counters:
            return self.counters[value]
        return self.procedure.amount(value, self.policy)

    def play(self, step: Step, turn: int) -> None:
        if isinstance(step, Shuffle):
            size = self.cards.size[step.pile]
            if size:
                self.pile[step.pile] = self.cards.offset[step.pile] + shuffled(
                    self.rng, self.rows, size
                )
            self.head[step.pile][:] = 0
            self.left[step.pile][:] = size
        elif isinstance(step, Deal):
            self.draw(step.pile, self.held + self.procedure.amount(step.count, self.policy))
        elif isinstance(step, Refill):
            self.draw(step.pile, self.target(step.up_to))
        elif isinstance(step, Deploy):
            self.deploy(step)
        elif isinstance(step, Choose):
            self.choose(step, turn)

    def draw(self, name: str, target: IntArray | int) -> None:
        """Draw into every row's hand until it holds `target`, a card a row per round."""
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        reshuffles = self.procedure.pile(name).reshuffle
        while True:
            wanting = self.held < target
            out = wanting & (left == 0)
            if reshuffles and out.any():
                self.reshuffle(name, out & (self.discarded[name] > 0))
                pile = self.pile[name]
                out = wanting & (left == 0)
            drawing = wanting & ~out
            if not drawing.any():
                return
            slot = first_max(self.hand < 0)
            card = pile[self.index, head]
            self.hand[self.index, slot] = np.where(drawing, card, self.hand[self.index, slot])
            self.clock += 1
            self.drawn_at[self.index, slot] = np.where(
                drawing, self.clock, self.drawn_at[self.index, slot]
            )
            head += drawing
            head %= width
            left -= drawing
            self.held += drawing

    def reshuffle(self, name: str, which_rows: BoolArray) -> None:
        """The discards, shuffled, become the pile of the rows given."""
        which = np.flatnonzero(which_rows)
        if not len(which):
            return
        discard, discarded = self.discard[name], self.discarded[name]
        width = discard.shape[1]
        keys = self.rng.random((len(which), width))
        keys[np.arange(width)[None, :] >= discarded[which][:, None]] = 2.0
        order = np.argsort(keys, axis=1)
        self.pile[name][which] = np.take_along_axis(discard[which], order, axis=1)
        self.head[name][which] = 0
        self.left[name][which] = discarded[which]
        discarded[which] = 0

    def deploy(self, step: Deploy) -> None:
        rank = self.cards.rank(step.best)
        recorded = [(key, self.cards.values(value)) for key, value in step.record]
        discard, discarded = self.discard[step.pile], self.discarded[step.pile]
        width = discard.shape[1]
        refill = self.target(step.refill)
        for _ in range(self.procedure.amount(step.times, self.policy)):
            # The best card first, then the earliest drawn: rank times a clock-wide span.
            hand = self.hand
            key = np.where(
                hand >= 0, rank[hand] * (self.clock + 2) + self.clock + 1 - self.drawn_at, -1
            )
            slot = first_max(key)
            card = hand[self.index, slot]
            playing = card >= 0
            if not playing.any():
                return
            card = np.where(playing, card, 0)
            for measure, values in recorded:
                if measure in self.counts.each:
                    self.counts.each[measure].add(values[card[playing]])
                else:
                    self.totals[measure] += np.where(playing, values[card], 0)
            at = np.minimum(discarded, width - 1)
            discard[self.index, at] = np.where(playing, card, discard[self.index, at])
            discarded += playing
            hand[self.index, slot] = np.where(playing, -1, hand[self.index, slot])
            self.held -= playing
            if not isinstance(refill, int) or refill:
                self.draw(step.pile, refill)

    def choose(self, step: Choose, turn: int) -> None:
        pile, head, left = self.pile[step.pile], self.head[step.pile], self.left[step.pile]
        width = pile.shape[1]
        look = min(step.look, width)
        ahead = np.arange(look)
        seen = np.take_along_axis(pile, (head[:, None] + ahead) % width, axis=1)
        valid = ahead[None, :] < left[:, None]
        slot = first_max(np.where(valid, self.cards.rank(step.best)[seen], -1))
        kept = seen[self.index, slot]
        choosing = left > 0
        taken = np.minimum(left, look)
        head += taken
        head %= width
        left -= taken
        for j in range(look):
            # The rest go below every card not yet seen, in the order they were seen.
            back = valid[:, j] & (slot != j)
            tail = (head + left) % width
            pile[self.index, tail] = np.where(back, seen[:, j], pile[self.index, tail])
            left += back
        for gain in step.then:
            passing = choosing.copy()
            if gain.when is not None:
                passing &= self.cards.tests[gain.when][kept]
            counter = self.counters[gain.counter]
            raised = np.where(
                passing, np.minimum(counter + gain.amount, np.maximum(counter, gain.cap)), counter
            )
            rose = raised > counter
            self.counters[gain.counter] = raised
            if gain.mark:
                first = self.first[gain.mark]
                first[rose & (first > turn)] = turn


def _hand_slots(procedure: Procedure, policy: Mapping[str, Any]) -> int:
    """The most cards a hand can hold: the largest refill target or all the deals together."""
    dealt = 0
    most = 1
    for step in procedure.setup + procedure.turn:
        if isinstance(step, Deal):
            dealt += procedure.most(step.count, policy)
        elif isinstance(step, Refill):
            most = max(most, procedure.most(step.up_to, policy))
        elif isinstance(step, Deploy):
            most = max(most, procedure.most(step.refill, policy))
    return max(most, dealt)


def run_batched(
    procedure: Procedure,
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    p = resolve_policy(procedure.policy, policy)
    rng = generator(seed)
    turns = procedure.amount(procedure.turns, p)
    counts = Counts(procedure.measures, turns)
    table = _Cards(procedure, cards)
    slots = _hand_slots(procedure, p)
    for rows in batches(runs, progress):
        batch = _Batch(procedure, table, p, rng, rows, counts, slots)
        for step in procedure.setup:
            batch.play(step, 0)
        for turn in range(1, turns + 1):
            for total in batch.totals.values():
                total[:] = 0
            for step in procedure.turn:
                batch.play(step, turn)
            for key, total in batch.totals.items():
                counts.per_turn[key][turn - 1].add(total)
        for key, first in batch.first.items():
            counts.first[key] += np.bincount(first, minlength=turns + 2)
    return answer(procedure.measures, counts, runs)
