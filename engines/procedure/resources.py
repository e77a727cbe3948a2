"""The batched interpreter's verbs of a resource pool and a level, and of per-name measures
(vocabulary.Exchange, Income, Rise, Ascend, Playable): played on the rows of engines/procedure/
rows.py, as the reference interpreter plays them one game at a time."""

from __future__ import annotations

import numpy as np

from engines.procedure.pool import affordable_rows, pay_rows
from engines.procedure.rows import Rows
from engines.procedure.tables import EMPTY
from engines.procedure.vocabulary import Ascend, Exchange, Income, Playable


class Resources(Rows):
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
