"""The batched interpreter: a declared goldfish procedure played for many games at once, a step
at a time for every game, each game a row of NumPy arrays. It plays the same steps as the
reference interpreter (engines/procedure/reference.py) and is held to its answers.

A pile is a row of card numbers read as a ring (a first card and a count), so that cards put
on its bottom go after the last; its discards are a second row, shuffled back in (random keys,
argsorted) for the rows whose pile runs out. The hand is a row of slots (-1: empty). For each
ordering the procedure picks cards from the hand by, every slot carries a key: the card's
place in the ordering, less the moment it was drawn, so that among equally good cards the one
drawn first wins, as the reference's max() over a hand in drawing order does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from engines.goldfish import resolve_policy
from engines.procedure.pool import affordable_rows, pay_rows
from engines.procedure.results import Counts, answer
from engines.procedure.tables import (
    EMPTY,
    HALF,
    BoolArray,
    Cards,
    IntArray,
    order_of,
    orders,
    ring,
    running_count,
)
from engines.procedure.vocabulary import (
    Amount,
    Ascend,
    Choose,
    Clear,
    Deal,
    Deploy,
    Discard,
    Exchange,
    Income,
    Mark,
    Mulligan,
    Playable,
    Procedure,
    Refill,
    Rise,
    Shuffle,
    Step,
    Tally,
)
from engines.rules import DeckCard
from engines.vectorised import batches, first_max, generator, permuted


class _Batch:
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

    def target(self, value: Amount) -> IntArray | int:
        if isinstance(value, str) and value in self.counters:
            return self.counters[value]
        return self.procedure.amount(value, self.policy)

    def play(self, step: Step, turn: int) -> None:
        if isinstance(step, Shuffle):
            size = self.cards.size[step.pile]
            if size:
                own = np.arange(size, dtype=np.int64) + self.cards.offset[step.pile]
                # Contiguous, as flat indices read it (permuted's rows may be strided).
                self.pile[step.pile] = np.ascontiguousarray(permuted(self.rng, own, self.rows))
            self.head[step.pile][:] = 0
            self.left[step.pile][:] = size
        elif isinstance(step, Deal):
            self.draw(step.pile, self.held + self.procedure.amount(step.count, self.policy))
        elif isinstance(step, Refill):
            self.draw(step.pile, self.target(step.up_to))
        elif isinstance(step, Deploy):
            refill = self.target(step.refill)
            if isinstance(refill, int) and not refill:
                self.place(step)
            else:
                self.deploy(step, refill)
        elif isinstance(step, Choose):
            self.choose(step, turn)
        elif isinstance(step, Clear):
            self.discarded[step.pile] += self.placed[step.pile]
            self.placed[step.pile][:] = 0
        elif isinstance(step, Discard):
            self.discard_down(step)
        elif isinstance(step, Mulligan):
            self.mulligan(step)
        elif isinstance(step, Mark):
            holds = np.take(self.cards.tests[step.holds], self.hand).any(axis=1)
            first, turn = self.first[step.measure], max(turn, 1)
            first[holds & (first > turn)] = turn
        elif isinstance(step, Exchange):
            self.exchange(step)
        elif isinstance(step, Income):
            self.income(step, turn)
        elif isinstance(step, Rise):
            self.level += self.rising
            self.rising[:] = False
        elif isinstance(step, Ascend):
            self.ascend(step)
        elif isinstance(step, Playable):
            self.playable(step, turn)
        elif isinstance(step, Tally):
            by_type = self.counts.by_type[step.measure]
            type_of = self.cards.type_index(list(by_type))
            span = np.arange(self.hand.shape[1] + 1)
            for i, tally in enumerate(by_type.values()):
                found = (np.take(type_of, self.hand) == i).sum(axis=1)
                tally.add_counts(span, np.bincount(found, minlength=len(span)))

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

    def record(self, step: Deploy, card: IntArray, real: BoolArray | None) -> None:
        """The deployed cards' values, into the measures the step records. `card`: one a row
        or rows x slots; `real`: which are deployed (None: all)."""
        for measure, value in step.record:
            values = np.take(self.cards.values(value), card)
            if measure in self.counts.per_game or measure in self.totals:
                if real is not None:
                    values = values * real
                total = values if values.ndim == 1 else values.sum(axis=1)
                into = self.game_totals if measure in self.counts.per_game else self.totals
                into[measure] += total
            else:
                self.counts.each[measure].add(values if real is None else values[real])

    def place(self, step: Deploy) -> None:
        """Deploy without drawing in between: the `times` best cards a row may deploy all
        leave at once (the same cards one at a time would give)."""
        keys = self.keys[order_of(step.best, step.only)][1]
        times, slots = self.procedure.amount(step.times, self.policy), keys.shape[1]
        if not times:
            return
        chosen = keys > HALF
        if times < slots:
            kth = np.partition(keys, slots - times, axis=1)[:, slots - times]
            chosen &= keys >= kth[:, None]
        self.record(step, self.hand, chosen)
        self.remove(step.pile, chosen, step.to_table)

    def deploy(self, step: Deploy, refill: IntArray | int) -> None:
        """Deploy one card at a time, drawing back to `refill` after each."""
        keys = self.keys[order_of(step.best, step.only)][1]
        flat_keys, flat_hand = keys.reshape(-1), self.hand.reshape(-1)
        for _ in range(self.procedure.amount(step.times, self.policy)):
            at_hand = self.hand_base + first_max(keys)
            playing = flat_keys[at_hand] > HALF
            every = bool(playing.all())
            if not every and not playing.any():
                return
            card = np.take(flat_hand, at_hand)
            if not every:
                card = np.where(playing, card, -1)
            self.record(step, card, None if every else playing)
            self.leave(step.pile, card, playing, step.to_table)
            flat_hand[at_hand] = -1 if every else np.where(playing, -1, flat_hand[at_hand])
            for _, other in self.keys.values():
                flat = other.reshape(-1)
                flat[at_hand] = EMPTY if every else np.where(playing, EMPTY, flat[at_hand])
            self.held -= playing
            self.draw_into(step.pile, at_hand, refill)

    def discard_down(self, step: Discard) -> None:
        """Every row over the limit keeps its best `down_to` cards (keys are distinct within
        a row, so the limit-th largest key marks the line)."""
        limit, slots = self.procedure.amount(step.down_to, self.policy), self.hand.shape[1]
        if limit >= slots or not (self.held > limit).any():
            return
        keys = self.keys[order_of(step.best)][1]
        leaving = self.hand >= 0
        if limit > 0:
            kth = np.partition(keys, slots - limit, axis=1)[:, slots - limit]
            leaving &= keys < kth[:, None]
        self.remove(step.pile, leaving, to_table=False)

    def mulligan(self, step: Mulligan) -> None:
        """The rows whose hand has too few cards that pass the test put it back into the
        pile, shuffle the pile and draw as many again."""
        passing = np.take(self.cards.tests[step.test], self.hand).sum(axis=1)
        which = np.flatnonzero(passing < self.procedure.amount(step.fewer_than, self.policy))
        if step.mark:
            self.counts.shares[step.mark] += len(which)
        if not len(which):
            return
        name = step.pile
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        size = self.held[which].copy()
        for slot in range(self.hand.shape[1]):
            card = self.hand[which, slot]
            back = card >= 0
            tail = (head[which] + left[which]) % width
            pile[which, tail] = np.where(back, card, pile[which, tail])
            left[which] += back
        self.hand[which] = -1
        for _, keys in self.keys.values():
            keys[which] = EMPTY
        self.held[which] = 0
        # The whole live pile of those rows, shuffled: random keys, argsorted.
        ahead = np.arange(width)
        ring = np.take_along_axis(pile[which], (head[which][:, None] + ahead) % width, axis=1)
        order = self.rng.random((len(which), width))
        order[ahead[None, :] >= left[which][:, None]] = 2.0
        pile[which] = np.take_along_axis(ring, np.argsort(order, axis=1), axis=1)
        head[which] = 0
        target = self.held.copy()
        target[which] = size
        self.draw(name, target)

    # --- a resource pool and a level ------------------------------------------------------

    def exchange(self, step: Exchange) -> None:
        """The hand's cards failing `keep` go to the bottom of the pile in slot order (the
        order they were drawn in), and as many are drawn."""
        limit = self.procedure.amount(step.keep.at_most, self.policy)
        going = np.take(self.cards.bound(step.keep, limit), self.hand) > limit
        if not going.any():
            return
        name = step.pile
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        flat, base = pile.reshape(-1), self.index * width
        for slot in range(self.hand.shape[1]):
            back = going[:, slot]
            if back.any():
                tail = base + (head + left) % width
                flat[tail] = np.where(back, self.hand[:, slot], flat[tail])
                left += back
        target = self.held.copy()
        np.putmask(self.hand, going, -1)
        for _, keys in self.keys.values():
            np.putmask(keys, going, EMPTY)
        self.held -= going.sum(axis=1)
        self.draw(name, target)

    def income(self, step: Income, turn: int) -> None:
        assert self.procedure.pool is not None  # read_procedure asks for one
        if turn == 1 and step.not_on_turn_1 and self.policy[step.not_on_turn_1]:
            return
        cap = self.procedure.pool.cap
        for r, gain in step.gain.items():
            held = self.pool[r]
            held += self.procedure.amount(gain, self.policy)
            np.minimum(held, cap, out=held)

    def ascend(self, step: Ascend) -> None:
        pool, level = self.procedure.pool, self.procedure.level
        assert pool is not None and level is not None  # read_procedure asks for both
        cost = {r: self.procedure.amount(level.cost.get(r, 0), self.policy) for r in pool.resources}
        size = self.cards.size[step.pile]
        own = self.cards.bound(level.need, level.start)[self.cards.offset[step.pile] :][:size]
        top = int(own.max()) if size else level.start
        paying = (self.level < top) & ~self.rising & affordable_rows(pool, self.pool, cost)
        if paying.any():
            pay_rows(pool, self.pool, cost, paying)
            self.rising |= paying

    def playable(self, step: Playable, turn: int) -> None:
        """Each hand's cards whose need is within the level and whose cost the pool pays."""
        pool, level = self.procedure.pool, self.procedure.level
        assert pool is not None and level is not None  # read_procedure asks for both
        # An empty slot needs more than any level.
        need = self.cards.bound(level.need, EMPTY * -1)
        if self._uniform():
            # Every game's pool and level alike (no card is paid for, only levels): whether
            # a card is playable is one lookup by its number.
            held = {r: self.pool[r][:1] for r in pool.resources}
            cost = {r: self.cards.values(pool.cost[r])[None, :] for r in pool.resources}
            by_card = (need <= self.level[0]) & affordable_rows(pool, held, cost)[0]
            ready = np.take(by_card, self.hand)
        else:
            cost = {r: np.take(self.cards.values(pool.cost[r]), self.hand) for r in pool.resources}
            ready = np.take(need, self.hand) <= self.level[:, None]
            ready &= affordable_rows(pool, self.pool, cost)
        count = ready.sum(axis=1)
        if step.count:
            self.totals[step.count] += count
        if step.any:
            self.counts.turn_shares[step.any][turn - 1] += int(np.count_nonzero(count))
        if step.first:
            first = self.name_first[step.first]
            width = first.shape[1]
            names = self.cards.name_index(self.counts.names[step.first])
            at = (self.index * width)[:, None] + np.take(names, self.hand)
            flat = first.reshape(-1)
            flat[at[ready & (flat[at] > turn)]] = turn

    def _uniform(self) -> bool:
        """Every row holds the same pool and stands at the same level."""
        return all(
            bool((values == values[0]).all()) for values in (*self.pool.values(), self.level)
        )

    def note_held(self, moment: str) -> None:
        """The per_name measures' figures of the hands' names at `moment` (setup, end)."""
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
            games = found[:, : len(names)].sum(axis=0)
            for figure in wanted:
                figures[figure] += games

    def choose(self, step: Choose, turn: int) -> None:
        pile, head, left = self.pile[step.pile], self.head[step.pile], self.left[step.pile]
        width = pile.shape[1]
        look = min(step.look, width)
        ahead = np.arange(look)
        seen = np.take_along_axis(pile, (head[:, None] + ahead) % width, axis=1)
        valid = ahead[None, :] < left[:, None]
        slot = first_max(np.where(valid, np.take(self.cards.keyed(step.best), seen), EMPTY))
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
                passing &= np.take(self.cards.tests[gain.when], kept)
            counter = self.counters[gain.counter]
            raised = np.where(
                passing, np.minimum(counter + gain.amount, np.maximum(counter, gain.cap)), counter
            )
            rose = raised > counter
            self.counters[gain.counter] = raised
            if gain.mark:
                first = self.first[gain.mark]
                first[rose & (first > turn)] = turn


def _hand_slots(procedure: Procedure, policy: Mapping[str, Any], cards: int) -> int:
    """The most cards a hand can hold, by the steps' counts: deals add, refills raise,
    discards lower (deploys are taken to lower nothing), never more than the cards."""
    held = most = 0

    def follow(step: Step) -> None:
        nonlocal held, most
        if isinstance(step, Deal):
            held += procedure.most(step.count, policy)
        elif isinstance(step, Refill):
            held = max(held, procedure.most(step.up_to, policy))
        elif isinstance(step, Deploy):
            held = max(held, procedure.most(step.refill, policy))
        elif isinstance(step, Discard):
            held = min(held, procedure.amount(step.down_to, policy))
        most = max(most, held)

    for step in procedure.setup:
        follow(step)
    for turn in range(1, procedure.amount(procedure.turns, policy) + 1):
        for step in procedure.turn_steps(turn):
            follow(step)
        if most >= cards:
            break
    return max(1, min(most, cards))


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
    table = Cards(procedure, cards)
    slots = _hand_slots(procedure, p, len(table.table))
    steps = [procedure.turn_steps(turn) for turn in range(1, turns + 1)]
    for rows in batches(runs, progress):
        batch = _Batch(procedure, table, p, rng, rows, counts, slots)
        for step in procedure.setup:
            batch.play(step, 0)
        batch.note_held("setup")
        for turn in range(1, turns + 1):
            for total in batch.totals.values():
                total[:] = 0
            for step in steps[turn - 1]:
                batch.play(step, turn)
            for key, total in batch.totals.items():
                counts.per_turn[key][turn - 1].add(total)
        for key, total in batch.game_totals.items():
            counts.each[key].add(total)
        for key, first in batch.first.items():
            counts.first[key] += np.bincount(first, minlength=turns + 2)
        batch.note_held("end")
        for key, by_name in batch.name_first.items():
            names = by_name.shape[1] - 1
            codes = np.arange(names)[None, :] * (turns + 2) + by_name[:, :names]
            found = np.bincount(codes.ravel(), minlength=names * (turns + 2))
            counts.name_first[key] += found.reshape(names, turns + 2)
    return answer(procedure.measures, counts, runs, procedure.report, p)
