"""A card filter a game file declares (a rule's `filter`, an untyped card's zone): the query
text, compiled strictly against the game's stats on first use.

It is equal, hashed and pickled by its text: engines built from a file compare as data, and a
deck check's results, which carry their rules, are pickled into the cache (a compiled filter
holds closures, which cannot be)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engines.filters.evaluate import CardFilter, compile_filter
from engines.filters.records import FilterCard, StatSpec


@dataclass(frozen=True)
class DeclaredFilter:
    expression: str
    stats: tuple[StatSpec, ...] = field(default=(), compare=False, repr=False)

    @cached_property
    def compiled(self) -> CardFilter:
        return compile_filter(self.expression, stats=self.stats)

    def __call__(self, card: FilterCard) -> bool:
        return self.compiled(card)

    def __getstate__(self) -> dict[str, Any]:
        return {"expression": self.expression, "stats": self.stats}
