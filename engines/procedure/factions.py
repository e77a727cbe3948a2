"""The factions of a game's cards as numbers, for the batched interpreter's field verbs
(engines/procedure/field.py): each card's factions as a bit mask and as a row of counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engines.procedure.tables import IntArray
from engines.rules import DeckCard

# Factions a batch keeps apart as bits of one 64-bit mask; a game whose cards name more is
# played by the reference interpreter instead.
MAX_FACTIONS = 62


@dataclass(frozen=True)
class FactionTable:
    """By card number (the last entry: an empty slot, of no faction): `masks`, its factions
    as bits, and `bits`, as a row of 0s and 1s; `chosen`, the chosen card's row."""

    names: list[str]
    masks: IntArray
    bits: IntArray
    chosen: IntArray
    # The most cards the field holds at once.
    field_width: int

    @classmethod
    def of(
        cls, table: Sequence[DeckCard], chosen: DeckCard | None, field_width: int
    ) -> FactionTable:
        names = sorted({f for c in [*table, *([chosen] if chosen else [])] for f in c.factions})

        def mask(card: DeckCard) -> int:
            return sum(1 << names.index(f) for f in set(card.factions))

        masks = np.array([*(mask(c) for c in table), 0], np.int64)
        bits = (masks[:, None] >> np.arange(len(names))) & 1
        held = np.array([f in (chosen.factions if chosen else ()) for f in names], np.int64)
        return cls(names, masks, bits, held, field_width)
