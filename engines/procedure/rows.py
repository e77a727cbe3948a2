"""The batched interpreter's table of many games at once (engines/procedure/batched.py): each
game a row of NumPy arrays, and the moves every verb shares (drawing, cards leaving the hand,
games that end leaving the batch).

A pile is a row of card numbers read as a ring (a first card and a count), so that cards put
on its bottom go after the last; its discards are a second row, shuffled back in (random keys,
argsorted) for the rows whose pile runs out. The hand is a row of slots (-1: empty). For each
ordering the procedure picks cards from the hand by, every slot carries a key: the card's
place in the ordering, less the moment it was drawn, so that among equally good cards the one
drawn first wins, as the reference's max() over a hand in drawing order does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from engines.procedure.factions import FactionTable
from engines.procedure.results import Counts
from engines.procedure.tables import (
    EMPTY,
    BoolArray,
    Cards,
    IntArray,
    orders,
    ring,
    running_count,
)
from engines.procedure.vocabulary import Amount, Procedure
from engines.vectorised import first_max


class Rows:
    """The tables of `rows` games at once."""

    def __init__(
        self,
        procedure: Procedure,
        cards: Cards,
        policy: Mapping[str, Any],
        rng: np.random.Generator,
        rows: int,
        counts: Counts,
        slots: int,
        factions: FactionTable | None = None,
    ) -> None:
        self.procedure, self.cards, self.policy = procedure, cards, policy
        self.rng, self.rows, self.counts = rng, rows, counts
        self.index = np.arange(rows)
        self.pile: dict[str, IntArray] = {}
        self.head: dict[str, IntArray] = {}
        self.left: dict[str, IntArray] = {}
        self.discard: dict[str, IntArray] = {}
        # Each pile's discard buffer holds its discards, then (`placed`) its cards on the
        # table. Only a pile that reshuffles ever reads it back: the others keep counts only.
        self.discarded: dict[str, IntArray] = {}
        self.placed: dict[str, IntArray] = {}
        self.kept = {p.name: p.reshuffle for p in procedure.piles}
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
        self.keys = {
            order: (cards.keyed(*by), np.full((rows, slots), EMPTY, np.int64))
            for order, by in orders(procedure).items()
        }
        self.clock = 0
        self.counters = {k: np.full(rows, v, np.int64) for k, v in procedure.counters.items()}
        self.totals = {k: np.zeros(rows, np.int64) for k in counts.per_turn}
        self.game_totals = {k: np.zeros(rows, np.int64) for k in counts.per_game}
        self.first = {k: np.full(rows, counts.turns + 1, np.int64) for k in counts.first}
        pool, level = procedure.pool, procedure.level
        self.pool = {r: np.zeros(rows, np.int64) for r in (pool.resources if pool else ())}
        self.level = np.full(rows, level.start if level else 0, np.int64)
        self.rising = np.zeros(rows, np.bool_)
        self.name_first = {
            k: np.full((rows, len(names) + 1), counts.turns + 1, np.int64)
            for k, names in counts.names.items()
        }
        # The field cards are played to (kept in the order played), the count of its cards of
        # each faction, and the games that end this turn.
        self.factions = factions
        width = factions.field_width if factions else 1
        self.field = np.full((rows, width), -1, np.int64)
        self.field_len = np.zeros(rows, np.int64)
        self.leaned = np.zeros((rows, len(factions.names) if factions else 0), np.int64)
        self.stopping = np.zeros(rows, np.bool_)

    def target(self, value: Amount) -> IntArray | int:
        if isinstance(value, str) and value in self.counters:
            return self.counters[value]
        return self.procedure.amount(value, self.policy)

    # --- games that end --------------------------------------------------------------------

    def finish(self, which: BoolArray) -> None:
        """The measures a game gives when it ends, for the rows `which`."""
        counts, turns = self.counts, self.counts.turns
        for key, total in self.game_totals.items():
            counts.each[key].add(total[which])
        for key, first in self.first.items():
            counts.first[key] += np.bincount(first[which], minlength=turns + 2)
        self.note_held("end", which)
        for key, by_name in self.name_first.items():
            names = by_name.shape[1] - 1
            codes = np.arange(names)[None, :] * (turns + 2) + by_name[which, :names]
            found = np.bincount(codes.ravel(), minlength=names * (turns + 2))
            counts.name_first[key] += found.reshape(names, turns + 2)

    def keep(self, alive: BoolArray) -> None:
        """Only the rows `alive` play on (the others' games have ended and been counted)."""
        for table in (
            self.pile,
            self.head,
            self.left,
            self.discard,
            self.discarded,
            self.placed,
            self.counters,
            self.totals,
            self.game_totals,
            self.first,
            self.pool,
            self.name_first,
        ):
            for key, values in table.items():
                table[key] = values[alive]
        for order, (keyed, keys) in self.keys.items():
            self.keys[order] = (keyed, keys[alive])
        self.hand, self.held = self.hand[alive], self.held[alive]
        self.level, self.rising = self.level[alive], self.rising[alive]
        self.field, self.field_len = self.field[alive], self.field_len[alive]
        self.leaned, self.stopping = self.leaned[alive], self.stopping[alive]
        self.rows = int(alive.sum())
        self.index = np.arange(self.rows)
        self.hand_base = self.index * self.hand.shape[1]

    def note_held(self, moment: str, which: BoolArray | None = None) -> None:
        """The per_name measures' figures of the hands' names at `moment` (setup, end), for
        the rows `which` (None: all)."""
        for key, figures in self.counts.name_held.items():
            measure = next(m for m in self.procedure.measures if m.key == key)
            wanted = [f for f in figures if (measure.held or {})[f] == moment]
            if not wanted:
                continue
            names = self.counts.names[key]
            width = len(names) + 1
            found = np.zeros((self.rows, width), np.bool_)
            at = (self.index * width)[:, None] + np.take(self.cards.name_index(names), self.hand)
            found.reshape(-1)[at.ravel()] = True
            games = found[:, : len(names)] if which is None else found[which, : len(names)]
            for figure in wanted:
                figures[figure] += games.sum(axis=0)

    # --- drawing ---------------------------------------------------------------------------

    def draw(self, name: str, target: IntArray | int) -> None:
        """Draw into every row's hand until it holds `target`: all a row can take from its
        pile at once, then, for a pile that reshuffles, its discards shuffled in and again."""
        while True:
            take = np.minimum(np.maximum(target - self.held, 0), self.left[name])
            most = int(take.max()) if self.rows else 0
            if most == 1:
                self.take_one(name, take.astype(np.bool_))
            elif most:
                self.take(name, take, most)
            if not self.kept[name]:
                return
            short = (self.held < target) & (self.left[name] == 0) & (self.discarded[name] > 0)
            if not short.any():
                return
            self.reshuffle(name, short)

    def take(self, name: str, take: IntArray, most: int) -> None:
        """`take` cards (at most `most`) from the top of each row's pile into the free slots
        of its hand, in order."""
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        drawn = np.take(pile, (self.index * width)[:, None] + ring(head, most, width))
        free = self.hand < 0
        nth = running_count(free)
        fill = free & (nth <= take[:, None])
        # The n-th free slot takes the n-th card drawn (flat indices: faster than per-row).
        nth -= 1
        np.minimum(nth, most - 1, out=nth)
        incoming = np.take(drawn, (self.index * most)[:, None] + nth)
        np.copyto(self.hand, incoming, where=fill)
        stamp = nth + (self.clock + 1)
        for keyed, keys in self.keys.values():
            np.copyto(keys, np.take(keyed, incoming) - stamp, where=fill)
        self.clock += most
        head += take
        head %= width
        left -= take
        self.held += take

    def take_one(self, name: str, drawing: BoolArray) -> None:
        """One card from the top of the pile into the first free slot, for the rows
        `drawing`: a turn's single draw, without counting the free slots through."""
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        free = first_max(self.hand < 0)
        # A row drawing has a free slot: the hand's slots are as many as it can hold.
        card = np.take(pile, self.index * pile.shape[1] + head)
        self.put(self.hand_base + free, card, None if drawing.all() else drawing)
        head += drawing
        head %= pile.shape[1]
        left -= drawing
        self.held += drawing

    def put(self, at_hand: IntArray, card: IntArray, drawing: BoolArray | None) -> None:
        """Put each row's `card` into its hand at `at_hand` (flat), for the rows `drawing`
        (None: every row), keyed for every ordering the hand is picked by."""
        self.clock += 1
        flat_hand = self.hand.reshape(-1)
        if drawing is None:
            flat_hand[at_hand] = card
        else:
            flat_hand[at_hand] = np.where(drawing, card, flat_hand[at_hand])
        for keyed, keys in self.keys.values():
            flat = keys.reshape(-1)
            key = np.take(keyed, card) - self.clock
            flat[at_hand] = key if drawing is None else np.where(drawing, key, flat[at_hand])

    def draw_into(self, name: str, at_hand: IntArray, target: IntArray | int) -> None:
        """Draw back to `target` after a card left the hand at `at_hand` (flat): one card
        into that slot for every row whose pile has one (the common case, without looking for
        a free slot), then the general draw for any row still short."""
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        drawing = (self.held < target) & (left > 0)
        every = bool(drawing.all())
        self.put(at_hand, np.take(pile, self.index * width + head), None if every else drawing)
        head += drawing
        head %= width
        left -= drawing
        self.held += drawing
        if (self.held < target).any():
            self.draw(name, target)

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

    # --- cards leaving the hand ------------------------------------------------------------

    def leave(self, name: str, card: IntArray, going: BoolArray, to_table: bool) -> None:
        """Each row's `card`, where `going`, joins the pile's discards or its table."""
        discarded, placed = self.discarded[name], self.placed[name]
        if not self.kept[name]:
            (placed if to_table else discarded)[:] += going
            return
        discard = self.discard[name]
        width = discard.shape[1]
        flat, base = discard.reshape(-1), self.index * width
        every = bool(going.all())
        end = base + np.minimum(discarded + placed, width - 1)
        if to_table:
            flat[end] = card if every else np.where(going, card, flat[end])
            placed += going
        else:
            # Into the discards, the first card on the table moving past the last.
            at = base + np.minimum(discarded, width - 1)
            moved = flat[at]
            flat[end] = moved if every else np.where(going, moved, flat[end])
            flat[at] = card if every else np.where(going, card, moved)
            discarded += going

    def remove(self, name: str, leaving: BoolArray, to_table: bool) -> None:
        """The hand's cards where `leaving` (rows x slots) go to the pile's discards or table."""
        count = leaving.sum(axis=1)
        if self.kept[name]:
            for slot in range(self.hand.shape[1]):
                going = leaving[:, slot]
                if going.any():
                    self.leave(name, self.hand[:, slot], going, to_table)
        else:
            (self.placed if to_table else self.discarded)[name] += count
        np.putmask(self.hand, leaving, -1)
        for _, keys in self.keys.values():
            np.putmask(keys, leaving, EMPTY)
        self.held -= count
