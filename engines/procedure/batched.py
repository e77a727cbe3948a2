"""The batched interpreter: a declared goldfish procedure played for many games at once, a step
at a time for every game, each game a row of NumPy arrays (engines/procedure/rows.py says how
piles and hands are held). It plays the same steps as the reference interpreter
(engines/procedure/reference.py) and is held to its answers. A game that ends early (a
`stop_when`) is counted and leaves the batch, so that the games still playing are all that
the later turns cost."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from engines.goldfish import resolve_policy
from engines.procedure.factions import MAX_FACTIONS, FactionTable
from engines.procedure.field import Field
from engines.procedure.reference import run_reference
from engines.procedure.resources import Resources
from engines.procedure.results import Counts, answer
from engines.procedure.tables import EMPTY, HALF, BoolArray, Cards, IntArray, order_of
from engines.procedure.vocabulary import (
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
    PlayLeaning,
    Procedure,
    Refill,
    Rise,
    Shuffle,
    Step,
    StopWhen,
    Tally,
    TallyFactions,
    Trim,
)
from engines.rules import DeckCard
from engines.vectorised import batches, first_max, generator, permuted


class _Batch(Resources, Field):
    """The tables of `rows` games at once, and the verbs they play."""

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
        elif isinstance(step, PlayLeaning):
            self.play_leaning(step)
        elif isinstance(step, Trim):
            self.trim(step)
        elif isinstance(step, StopWhen):
            self.stop_when(step, turn)
        elif isinstance(step, TallyFactions):
            self.tally_factions(step)
        elif isinstance(step, Tally):
            by_type = self.counts.by_type[step.measure]
            type_of = self.cards.type_index(list(by_type))
            span = np.arange(self.hand.shape[1] + 1)
            for i, tally in enumerate(by_type.values()):
                found = (np.take(type_of, self.hand) == i).sum(axis=1)
                tally.add_counts(span, np.bincount(found, minlength=len(span)))

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
        elif isinstance(step, PlayLeaning):
            held += 1  # a draw instead of a play
        elif isinstance(step, Trim):
            held = min(held, procedure.amount(step.hand, policy))
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
    chosen = procedure.chosen.card(cards, p) if procedure.chosen else None
    table = Cards(procedure, cards)
    factions = _faction_table(procedure, p, table, chosen)
    if factions is not None and len(factions.names) > MAX_FACTIONS:
        return run_reference(procedure, cards, runs=runs, seed=seed, policy=policy)
    rng = generator(seed)
    turns = procedure.amount(procedure.turns, p)
    counts = Counts.of(procedure, cards, turns)
    slots = _hand_slots(procedure, p, len(table.table))
    steps = [procedure.turn_steps(turn) for turn in range(1, turns + 1)]
    for rows in batches(runs, progress):
        batch = _Batch(procedure, table, p, rng, rows, counts, slots, factions)
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
            if batch.stopping.any():
                batch.finish(batch.stopping)
                batch.keep(~batch.stopping)
                if not batch.rows:
                    break
        batch.finish(np.ones(batch.rows, np.bool_))
    return answer(procedure.measures, counts, runs, procedure.report, p, chosen)


def _faction_table(
    procedure: Procedure, policy: Mapping[str, Any], table: Cards, chosen: DeckCard | None
) -> FactionTable | None:
    """The factions' table, for a procedure that plays cards by faction."""
    steps = procedure.setup + procedure.turn
    verbs = (PlayLeaning, Trim, StopWhen, TallyFactions)
    if not any(isinstance(s, verbs) for s in steps):
        return None
    limits = [procedure.amount(s.field, policy) for s in steps if isinstance(s, Trim)]
    # One card over the limit, played before the field is trimmed; without a limit, a card a
    # turn.
    width = max(limits) + 1 if limits else procedure.amount(procedure.turns, policy) + 1
    return FactionTable.of(table.table, chosen, max(1, width))
