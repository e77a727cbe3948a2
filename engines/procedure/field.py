"""The batched interpreter's verbs of a field of cards played by faction (vocabulary
.PlayLeaning, Trim, StopWhen, TallyFactions), on the rows of engines/procedure/rows.py, as the
reference interpreter plays them one game at a time. The verbs keep the hand and the field
in the order their cards came (a card leaving moves the later ones up), as the reference's
lists do, so that "the first card" means the same in both."""

from __future__ import annotations

import numpy as np

from engines.procedure.factions import FactionTable
from engines.procedure.rows import Rows
from engines.procedure.tables import EMPTY, BoolArray, IntArray
from engines.procedure.vocabulary import PlayLeaning, StopWhen, TallyFactions, Trim


def _argmax(counts: IntArray) -> IntArray:
    """Each row's first largest column (0 for rows of no columns: no faction at all)."""
    if not counts.shape[1]:
        return np.zeros(len(counts), np.int64)
    found: IntArray = np.argmax(counts, axis=1)
    return found


def without(cards: IntArray, at: IntArray, empty: int) -> IntArray:
    """Each row with its card at `at` taken out and the later ones moved up, as list.remove."""
    width = cards.shape[1]
    place = np.arange(width)
    source = np.minimum(place + (place >= at[:, None]), width - 1)
    moved = np.take_along_axis(cards, source, axis=1)
    moved[:, -1] = empty
    return moved


class Field(Rows):
    def _table(self) -> FactionTable:
        assert self.factions is not None  # run_batched builds one for these verbs
        return self.factions

    def _of(self, cards: IntArray, faction: IntArray) -> BoolArray:
        """Each card is of its row's `faction`."""
        found: BoolArray = ((np.take(self._table().masks, cards) >> faction[:, None]) & 1) > 0
        return found

    def _leaning(self) -> tuple[IntArray, BoolArray]:
        """The faction each row's field (the chosen card counted) leans to, and whether any."""
        held = self.leaned + self._table().chosen
        return _argmax(held), held.sum(axis=1) > 0

    def _take_from_hand(self, at: IntArray, rows: BoolArray) -> None:
        self.hand = np.where(rows[:, None], without(self.hand, at, -1), self.hand)
        for order, (keyed, keys) in self.keys.items():
            moved = np.where(rows[:, None], without(keys, at, EMPTY), keys)
            self.keys[order] = (keyed, moved)
        self.held -= rows

    def bottom(self, name: str, card: IntArray, rows: BoolArray) -> None:
        """`card` to the bottom of the pile, for the rows given."""
        pile, head, left = self.pile[name], self.head[name], self.left[name]
        width = pile.shape[1]
        which = np.flatnonzero(rows)
        pile[which, (head[which] + left[which]) % width] = card[which]
        left[which] += 1

    def play_leaning(self, step: PlayLeaning) -> None:
        table = self._table()
        target, on = self._leaning()
        if not on.all():
            # Nothing on the field (nor the chosen card) names a faction: the hand's leaning.
            in_hand = np.take(table.bits, self.hand, axis=0).sum(axis=1) + table.chosen
            target = np.where(on, target, _argmax(in_hand))
            on = on | (in_hand.sum(axis=1) > 0)
        playable = self._of(self.hand, target) & on[:, None]
        plays: BoolArray = np.any(playable, axis=1)
        at = np.argmax(playable, axis=1)
        card = self.hand[self.index, at]
        self._take_from_hand(at, plays)
        self.field[plays, self.field_len[plays]] = card[plays]
        self.field_len += plays
        self.leaned += np.where(plays[:, None], np.take(table.bits, card, axis=0), 0)
        drawing = ~plays & (self.left[step.pile] > 0)
        if drawing.any():
            self.take_one(step.pile, drawing)

    def _weakest(self, cards: IntArray, leaning: IntArray, named: BoolArray) -> IntArray:
        """The first card not of the leaning faction, else the first card."""
        off = ~(self._of(cards, leaning) & named[:, None]) & (cards >= 0)
        found: IntArray = np.where(off.any(axis=1), np.argmax(off, axis=1), 0)
        return found

    def trim(self, step: Trim) -> None:
        bits = self._table().bits
        leaning, named = self._leaning()
        limit = self.procedure.amount(step.field, self.policy)
        while (over := self.field_len > limit).any():
            out = self._weakest(self.field, leaning, named)
            card = self.field[self.index, out]
            self.field = np.where(over[:, None], without(self.field, out, -1), self.field)
            self.field_len -= over
            self.leaned -= np.where(over[:, None], np.take(bits, card, axis=0), 0)
            self.bottom(step.pile, card, over)
        limit = self.procedure.amount(step.hand, self.policy)
        while (over := self.held > limit).any():
            out = self._weakest(self.hand, leaning, named)
            card = self.hand[self.index, out]
            self._take_from_hand(out, over)
            self.bottom(step.pile, card, over)

    def stop_when(self, step: StopWhen, turn: int) -> None:
        if not self.leaned.shape[1]:
            return  # no card names a faction: nothing aligns
        need = self.procedure.amount(step.at_least, self.policy)
        ending = (self.leaned + self._table().chosen).max(axis=1) >= need
        ending &= ~self.stopping
        games = int(ending.sum())
        if not games:
            return
        self.stopping |= ending
        if step.turn:
            self.counts.each[step.turn].add_counts(np.array([turn]), np.array([games]))
        if step.share:
            self.counts.shares[step.share] += games
        if step.first:
            first = self.first[step.first]
            first[ending & (first > turn)] = turn

    def tally_factions(self, step: TallyFactions) -> None:
        table = self._table()
        held = np.take(table.bits, self.hand, axis=0).sum(axis=1) > 0
        wanted = [table.names.index(f) for f in self.counts.factions[step.measure]]
        self.counts.faction_hits[step.measure] += held[:, wanted].sum(axis=0)
