"""The batched interpreter's tables: every card of a game numbered once, with the values,
keys and tests the steps read by number, and the small row helpers its steps share."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engines.procedure.cards import Expression
from engines.procedure.vocabulary import Bound, Deploy, Discard, Procedure
from engines.rules import DeckCard

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Order = tuple[tuple[str, ...], str | None]

# An ordering's rank is scaled by SPAN, more than the draws of any batch, so that subtracting
# the moment a card was drawn orders equals by it; an empty slot, or a card the step may not
# pick, keys as EMPTY, below all (and a real key is always above HALF).
SPAN = 1 << 32
EMPTY = -(1 << 62)
HALF = EMPTY // 2


def order_of(best: tuple[Expression, ...], only: str | None = None) -> Order:
    return tuple(e.text for e in best), only


class Cards:
    """Every physical card of every pile, numbered once; by number, each value a procedure
    reads, with one more entry at the end for an empty slot (-1)."""

    def __init__(self, procedure: Procedure, cards: Sequence[DeckCard]) -> None:
        self.table: list[DeckCard] = []
        self.offset: dict[str, int] = {}
        self.size: dict[str, int] = {}
        for pile in procedure.piles:
            own = procedure.pile_cards(pile.name, cards)
            self.offset[pile.name], self.size[pile.name] = len(self.table), len(own)
            self.table += own
        self._values: dict[str, IntArray] = {}
        self._keyed: dict[Order, IntArray] = {}
        self._names: dict[tuple[str, ...], IntArray] = {}
        self._bounds: dict[tuple[Bound, int], IntArray] = {}
        self.tests = {
            name: np.array([*(test(c) for c in self.table), False], np.bool_)
            for name, test in procedure.tests.items()
        }

    def type_index(self, types: Sequence[str]) -> IntArray:
        """Each card's place in `types` (-1: not there)."""
        found = [types.index(c.card_type) if c.card_type in types else -1 for c in self.table]
        return np.array([*found, -1], np.int64)

    def name_index(self, names: Sequence[str]) -> IntArray:
        """Each card's place in `names` (the last place, len(names), for an empty slot)."""
        key = tuple(names)
        if key not in self._names:
            where = {name: i for i, name in enumerate(names)}
            found = [where.get(c.name, len(names)) for c in self.table]
            self._names[key] = np.array([*found, len(names)], np.int64)
        return self._names[key]

    def bound(self, bound: Bound, empty: int) -> IntArray:
        """Each card's bounded stat, and `empty` for an empty slot."""
        if (bound, empty) not in self._bounds:
            found = [bound.value(c) for c in self.table]
            self._bounds[bound, empty] = np.array([*found, empty], np.int64)
        return self._bounds[bound, empty]

    def values(self, expression: Expression) -> IntArray:
        """Each card's value, and 0 for an empty slot."""
        if expression.text not in self._values:
            found = [expression(c) for c in self.table]
            self._values[expression.text] = np.array([*found, 0], np.int64)
        return self._values[expression.text]

    def keyed(self, best: tuple[Expression, ...], only: str | None = None) -> IntArray:
        """Each card's place in an ordering (equals sharing one) times SPAN; EMPTY for a card
        that fails `only` and for an empty slot."""
        key = order_of(best, only)
        if key not in self._keyed:
            columns = np.stack([self.values(e)[:-1] for e in best], axis=1)
            rank = np.unique(columns, axis=0, return_inverse=True)[1].astype(np.int64).ravel()
            keyed = np.append(rank * SPAN, EMPTY)
            if only is not None:
                keyed[~self.tests[only]] = EMPTY
            self._keyed[key] = keyed
        return self._keyed[key]


def orders(procedure: Procedure) -> dict[Order, tuple[tuple[Expression, ...], str | None]]:
    """Every ordering the hand is picked by, with the test a deploy limits it to."""
    found: dict[Order, tuple[tuple[Expression, ...], str | None]] = {}
    for step in procedure.setup + procedure.turn:
        if isinstance(step, Deploy):
            found[order_of(step.best, step.only)] = (step.best, step.only)
        elif isinstance(step, Discard):
            found[order_of(step.best)] = (step.best, None)
    return found


def ring(head: IntArray, count: int, width: int) -> IntArray:
    """Each row's next `count` places in a ring of `width` from `head`: a subtraction where
    they wrap (integer modulo is several times slower)."""
    places = head[:, None] + np.arange(count)
    np.subtract(places, width, out=places, where=places >= width)
    return places


def running_count(flags: BoolArray) -> IntArray:
    """Each row's running count of its flags, column by column: on the few columns of a hand,
    several times faster than cumsum along the rows."""
    count = np.zeros(len(flags), np.int64)
    out = np.empty(flags.shape, np.int64)
    for column in range(flags.shape[1]):
        count += flags[:, column]
        out[:, column] = count
    return out
