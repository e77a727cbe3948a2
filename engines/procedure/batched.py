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
    Clear,
    Deal,
    Deploy,
    Procedure,
    Refill,
    Shuffle,
    Step,
    Tally,
)
from engines.procedure.results import Counts, answer
from engines.rules import DeckCard
from engines.vectorised import batches, first_max, generator, shuffled

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# An ordering's rank is scaled by SPAN, more than the draws of any batch, so that subtracting
# the moment a card was drawn orders equals by it; an empty slot keys as EMPTY, below all.
SPAN = 1 << 32
EMPTY = -(1 << 62)


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
        self._keyed: dict[tuple[str, ...], IntArray] = {}
        self.tests = {
            name: np.array([test(c) for c in self.table] + [False], np.bool_)
            for name, test in procedure.tests.items()
        }

    def type_index(self, types: Sequence[str]) -> IntArray:
        """Each card's place in `types` (-1: not there)."""
        found = [types.index(c.card_type) if c.card_type in types else -1 for c in self.table]
        return np.array([*found, -1], np.int64)

    def values(self, expression: Expression) -> IntArray:
        """Each card's value, and 0 after the last: a hand's empty slot (-1) reads as 0."""
        if expression.text not in self._values:
            found = [expression(c) for c in self.table] + [0]
            self._values[expression.text] = np.array(found, np.int64)
        return self._values[expression.text]

    def keyed(self, order: tuple[Expression, ...]) -> IntArray:
        """Each card's place in an ordering (equals sharing one) times SPAN, so that taking
        when a card was drawn from it breaks ties for the one drawn first; after the last,
        EMPTY, below every card, for a hand's empty slot (-1)."""
        key = tuple(e.text for e in order)
        if key not in self._keyed:
            columns = np.stack([self.values(e)[:-1] for e in order], axis=1)
            rank = np.unique(columns, axis=0, return_inverse=True)[1].astype(np.int64).ravel()
            self._keyed[key] = np.append(rank * SPAN, EMPTY)
        return self._keyed[key]


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
        # Each pile's discard buffer holds its discards, then (`placed`) its cards on the table.
        self.discarded: dict[str, IntArray] = {}
        self.placed: dict[str, IntArray] = {}
        for name, size in cards.size.items():
            width = max(size, 1)
            self.pile[name] = np.full((rows, width), cards.offset[name], np.int64)
            self.head[name] = np.zeros(rows, np.int64)
            self.left[name] = np.zeros(rows, np.int64)
            self.discard[name] = np.zeros((rows, width), np.int64)
            self.discarded[name] = np.zeros(rows, np.int64)
            self.placed[name] = np.zeros(rows, np.int64)
        self.hand = np.full((rows, slots), -1, np.int64)
        self.hand_base = self.index * slots
        self.held = np.zeros(rows, np.int64)
        # Per ordering a deploy step plays by: each slot's key (the card's keyed place less the
        # moment it was drawn; EMPTY for an empty slot), kept as cards come and go, so that a
        # play is one first_max.
        self.keys = {
            tuple(e.text for e in s.best): (
                cards.keyed(s.best),
                np.full((rows, slots), EMPTY, np.int64),
            )
            for s in procedure.setup + procedure.turn
            if isinstance(s, Deploy)
        }
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
        elif isinstance(step, Clear):
            self.discarded[step.pile] += self.placed[step.pile]
            self.placed[step.pile][:] = 0
        elif isinstance(step, Tally):
            by_type = self.counts.by_type[step.measure]
            type_of = self.cards.type_index(list(by_type))
            held = self.hand >= 0
            span = np.arange(self.hand.shape[1] + 1)
            for i, tally in enumerate(by_type.values()):
                found = ((type_of[self.hand] == i) & held).sum(axis=1)
                tally.add_counts(span, np.bincount(found, minlength=len(span)))

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
            at_hand = self.hand_base + first_max(self.hand < 0)
            self.put(at_hand, pile.reshape(-1)[self.index * width + head], drawing)
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
        if self.placed[name][which].any():
            # The cards on the table move to the front of the emptied buffer.
            column = np.arange(width)[None, :] + discarded[which][:, None]
            discard[which] = np.take_along_axis(discard[which], np.minimum(column, width - 1), 1)
        discarded[which] = 0

    def deploy(self, step: Deploy) -> None:
        keys = self.keys[tuple(e.text for e in step.best)][1]
        recorded = [(key, self.cards.values(value)) for key, value in step.record]
        discard, discarded = self.discard[step.pile], self.discarded[step.pile]
        placed = self.placed[step.pile]
        width = discard.shape[1]
        # Flat indices (row * width + column) reach one cell a row faster than [rows, columns].
        flat_discard, discard_base = discard.reshape(-1), self.index * width
        flat_hand = self.hand.reshape(-1)
        refill = self.target(step.refill)
        for _ in range(self.procedure.amount(step.times, self.policy)):
            at_hand = self.hand_base + first_max(keys)
            card = flat_hand[at_hand]
            playing = card >= 0
            every = bool(playing.all())
            if not every and not playing.any():
                return
            for measure, values in recorded:
                if measure in self.counts.each:
                    self.counts.each[measure].add(values[card if every else card[playing]])
                else:
                    self.totals[measure] += values[card]  # an empty slot's value is 0
            end = discard_base + np.minimum(discarded + placed, width - 1)
            if step.to_table:
                flat_discard[end] = card if every else np.where(playing, card, flat_discard[end])
                placed += playing
            else:
                # Into the discards, the first card on the table moving past the last.
                at = discard_base + np.minimum(discarded, width - 1)
                moved = flat_discard[at]
                flat_discard[end] = moved if every else np.where(playing, moved, flat_discard[end])
                flat_discard[at] = card if every else np.where(playing, card, moved)
                discarded += playing
            # A row not playing had no card: its best slot is already empty.
            flat_hand[at_hand] = -1
            for _, other in self.keys.values():
                other.reshape(-1)[at_hand] = EMPTY
            self.held -= playing
            if not isinstance(refill, int) or refill:
                self.draw_into(step.pile, at_hand, refill)

    def put(self, at_hand: IntArray, card: IntArray, drawing: BoolArray | None) -> None:
        """Put each row's `card` into its hand at `at_hand` (flat), for the rows `drawing`
        (None: every row), keying it for every ordering the hand is played by."""
        self.clock += 1
        flat_hand = self.hand.reshape(-1)
        if drawing is None:
            flat_hand[at_hand] = card
        else:
            flat_hand[at_hand] = np.where(drawing, card, flat_hand[at_hand])
        for keyed, keys in self.keys.values():
            flat = keys.reshape(-1)
            key = keyed[card] - self.clock
            flat[at_hand] = key if drawing is None else np.where(drawing, key, flat[at_hand])

    def draw_into(self, name: str, at_hand: IntArray, target: IntArray | int) -> None:
        """Draw back to `target` after a card left the hand at `at_hand` (flat): one card
        into that slot for every row whose pile has one (the common case, without looking for
        a free slot), then the general draw for any row still short."""
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        drawing = (self.held < target) & (left > 0)
        every = bool(drawing.all())
        self.put(at_hand, pile.reshape(-1)[self.index * width + head], None if every else drawing)
        head += drawing
        head %= width
        left -= drawing
        self.held += drawing
        if (self.held < target).any():
            self.draw(name, target)

    def choose(self, step: Choose, turn: int) -> None:
        pile, head, left = self.pile[step.pile], self.head[step.pile], self.left[step.pile]
        width = pile.shape[1]
        look = min(step.look, width)
        ahead = np.arange(look)
        seen = np.take_along_axis(pile, (head[:, None] + ahead) % width, axis=1)
        valid = ahead[None, :] < left[:, None]
        slot = first_max(np.where(valid, self.cards.keyed(step.best)[seen], EMPTY))
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
    counts = Counts.of(procedure, cards, turns)
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
