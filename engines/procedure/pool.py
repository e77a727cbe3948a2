"""A resource pool's arithmetic (vocabulary.Pool): whether a cost can be paid with trades, and
paying it, for one game (dicts of counts, the reference interpreter) and for many at once
(one array of rows per resource, the batched one). Both make the same choices: a shortfall is
made up by trading `trade` of any surplus for one, and paying takes each trade from the
fullest resource, the first listed among equals."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from engines.procedure.vocabulary import Pool

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def affordable(pool: Pool, held: Mapping[str, int], cost: Mapping[str, int]) -> bool:
    short = sum(max(0, cost[r] - held[r]) for r in pool.resources)
    spare = sum(max(0, held[r] - cost[r]) // pool.trade for r in pool.resources)
    return short <= spare


def pay(pool: Pool, held: dict[str, int], cost: Mapping[str, int]) -> None:
    for r in pool.resources:
        held[r] -= cost[r]
    for r in pool.resources:
        while held[r] < 0:
            donor = max(pool.resources, key=lambda d: held[d])
            held[donor] -= pool.trade
            held[r] += 1


def affordable_rows(
    pool: Pool, held: Mapping[str, IntArray], cost: Mapping[str, IntArray | int]
) -> BoolArray:
    """Per row (and per column, when a cost is rows x cards): the cost can be paid."""
    short: IntArray | int = 0
    spare: IntArray | int = 0
    for r in pool.resources:
        left = (held[r][:, None] if np.ndim(cost[r]) == 2 else held[r]) - cost[r]
        short = short + np.maximum(0, -left)
        spare = spare + np.maximum(0, left) // pool.trade
    found: BoolArray = np.asarray(short <= spare)
    return found


def pay_rows(
    pool: Pool, held: dict[str, IntArray], cost: Mapping[str, int], paying: BoolArray
) -> None:
    """The rows `paying` pay `cost` (which they can afford)."""
    for r in pool.resources:
        held[r] -= np.where(paying, cost[r], 0)
    for r in pool.resources:
        while (short := held[r] < 0).any():
            stacked = np.stack([held[d] for d in pool.resources])
            donor = np.argmax(stacked, axis=0)
            for i, d in enumerate(pool.resources):
                held[d] -= np.where(short & (donor == i), pool.trade, 0)
            held[r] += short
