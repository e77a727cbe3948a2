"""Terms a search leaves out because they cannot apply, each with the valid term nearest it.

`t:achievment` is not a type anywhere, so the search drops it and says so; since a type
"Achievement" exists, it also offers `t:achievement`, with the whole query rewritten to use it,
so a page can link straight to the corrected search. Nothing here touches the database: the
compiler hands in the values a term could have had.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cardsite.catalogue.search.similarity import best_values
from engines.filters.syntax import Term
from engines.filters.text import fold

# How close (0-100, similarity.score) a valid value must be to offer it: "achievment" scores
# 98 against "achievement", "platinum" under 60 against every rarity.
VALUE_CUTOFF = 80
# Shorter text is too little to guess from: "zz" is as near "s" as anything.
MIN_TYPED = 3
# Characters that end a bare value, so a value holding one is quoted when suggested.
_NEEDS_QUOTES = frozenset(' \t()"')


@dataclass(frozen=True)
class Dropped:
    """A term the search ignored: as typed, where, why, and what might have been meant."""

    term: str
    position: int
    reason: str
    # The term to use instead ("t:achievement"), and the whole query with it in the dropped
    # term's place; both empty when nothing valid is near.
    suggestion: str = ""
    query: str = ""

    def __str__(self) -> str:
        hint = f" Did you mean “{self.suggestion}”?" if self.suggestion else ""
        return f"{self.reason}; ignored “{self.term}” (position {self.position}).{hint}"

    def as_json(self) -> dict[str, Any]:
        return {
            "term": self.term,
            "position": self.position,
            "reason": self.reason,
            "suggestion": self.suggestion or None,
            "query": self.query or None,
        }


def written(key: str, op: str, value: str) -> str:
    """A term as it would be typed, quoting a value that holds a space or a bracket."""
    if any(c in _NEEDS_QUOTES for c in value):
        return f'{key}{op}"{value}"'
    return f"{key}{op}{value}"


def nearest(typed: str, values: Mapping[str, str] | Iterable[str]) -> str | None:
    """The valid value nearest `typed`, as it should be written; `values` maps each way to
    write a value to what it is compared as (a plain iterable compares each as itself)."""
    if len(fold(typed)) < MIN_TYPED:
        return None
    choices = values if isinstance(values, Mapping) else {v: v for v in values}
    by_folded: dict[str, str] = {}
    for write, compared in choices.items():
        by_folded.setdefault(fold(compared), write)
    best = best_values(fold(typed), by_folded, cutoff=VALUE_CUTOFF)
    return None if best is None else by_folded[best]


def dropped(text: str, term: Term, reason: str, suggestion: str = "") -> Dropped:
    """The Dropped for `term` of query `text`, rewriting the query when there is a suggestion."""
    end = term.end if term.end >= 0 else term.position
    as_typed = text[term.position : end] or written(term.key or "", term.op, term.value)
    query = text[: term.position] + suggestion + text[end:] if suggestion and term.end >= 0 else ""
    return Dropped(as_typed, term.position, reason, suggestion if query else "", query)
