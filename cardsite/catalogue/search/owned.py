"""`own` and `is:owned`: cards by the copies the viewer's collection holds (pools summed).

`own>=1` is every printing the viewer owns, `own=0` every one they do not; any comparison
works. Each becomes ONE uncorrelated subquery, `id IN (cards whose summed quantity ...)` or
its negation, over the viewer's collection rows (the (owner, card) index serves it): the
database builds that set once, never a lookup per card. A comparison that a card owning no
copies would satisfy (`own<2`, `own=0`) is written as the negation of one that it would not,
so the set never has to hold cards nobody owns.

Anonymously there is no collection: the terms are dropped with a warning. A query that uses
them is personal, so it is never answered from, or kept in, a cache shared between viewers.

Collections are the collection app's, which sits above the catalogue: it tells this module
whose copies count and where they are (`Holdings`) when it starts (cardsite/collection/apps.py),
so the catalogue imports nothing from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet, Sum

from engines.filters.limits import QUERY_NUMBER_MAX, QUERY_NUMBER_MIN
from engines.filters.syntax import QuerySyntaxError, Term, parse, terms

# The key, and the `is:` value meaning `own>=1`.
OWN_KEY = "own"
OWNED_WORD = "owned"
SIGN_IN = "sign in to search your collection"
# ASCII digits only: int() would also read "٣" and "1_0".
_NUMBER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class Holdings:
    # The users whose copies count as the viewer's own (themselves, their pool); empty for
    # an anonymous viewer.
    owner_ids: Callable[[Any], list[int]]
    # Every collection row: one per owner and printing, with `owner_id`, `card_id` and
    # `quantity`.
    rows: Callable[[], QuerySet[Any]]


_holdings: list[Holdings] = []


def register_holdings(holdings: Holdings) -> None:
    _holdings[:] = [holdings]


class Inapplicable(Exception):
    """The term cannot apply; the message says why (the compiler drops it)."""


def is_own_term(term: Term) -> bool:
    return term.key == OWN_KEY or (term.key == "is" and term.value.lower() == OWNED_WORD)


def uses_collection(text: str) -> bool:
    """Whether `text` asks about the viewer's collection (False if it cannot parse: the search
    then refuses it anyway)."""
    try:
        return any(is_own_term(term) for term in terms(parse(text)))
    except QuerySyntaxError:
        return False


def _number(term: Term) -> int:
    if not _NUMBER.fullmatch(term.value):
        raise Inapplicable("own needs a whole number of copies")
    number = int(term.value)
    if not QUERY_NUMBER_MIN <= number <= QUERY_NUMBER_MAX:
        # Refused, not dropped, as for stats: ignoring `own>=99999999999` would list every card.
        raise QuerySyntaxError(
            f"“{term.key}{term.op}{term.value}”: a number in a query must be between "
            f"{QUERY_NUMBER_MIN:,} and {QUERY_NUMBER_MAX:,}",
            term.position,
        )
    return number


# Every card, and no card, as conditions that combine with others.
_ALL = ~Q(pk__in=[])
_NONE = Q(pk__in=[])


class OwnTerms:
    """Compiles `own` terms for one viewer, reading whose collections count at most once."""

    def __init__(self, viewer: Any) -> None:
        self.viewer = viewer
        self._owner_ids: list[int] | None = None

    def owner_ids(self) -> list[int]:
        if self._owner_ids is None:
            # Without the collection app nobody holds a copy: the terms are dropped.
            self._owner_ids = _holdings[0].owner_ids(self.viewer) if _holdings else []
        return self._owner_ids

    def q(self, term: Term) -> Q:
        """The condition for `term`; raises Inapplicable to drop it, QuerySyntaxError to
        refuse the query."""
        if term.key == "is":
            if term.op not in (":", "=", "!="):
                raise Inapplicable(f"is does not compare with {term.op}")
            op, number = (">=", 1) if term.op != "!=" else ("=", 0)
        else:
            op, number = term.op, _number(term)
        if not self.owner_ids():
            raise Inapplicable(SIGN_IN)
        return self._compare(op, number)

    def _holding(self, lookup: str, number: int) -> Q:
        """Cards whose summed copies satisfy `lookup` `number`, which no unowned card does."""
        owners = self.owner_ids()
        held = _holdings[0].rows()
        if len(owners) == 1:
            # One collection holds one row per printing: no sums, and `>= 1` is every row.
            rows = held.filter(owner_id=owners[0])
            if (lookup, number) != ("gte", 1):
                rows = rows.filter(**{f"quantity__{lookup}": number})
            return Q(pk__in=rows.values("card_id"))
        totals = (
            held.filter(owner_id__in=owners)
            .values("card_id")
            .annotate(total=Sum("quantity"))
            .filter(**{f"total__{lookup}": number})
            .values("card_id")
        )
        return Q(pk__in=totals)

    def _compare(self, op: str, n: int) -> Q:
        if op in (":", "="):
            if n < 0:
                return _NONE
            return ~self._holding("gte", 1) if n == 0 else self._holding("exact", n)
        if op == "!=":
            if n < 0:
                return _ALL
            return self._holding("gte", 1) if n == 0 else ~self._holding("exact", n)
        if op == ">=":
            return _ALL if n <= 0 else self._holding("gte", n)
        if op == ">":
            return _ALL if n < 0 else self._holding("gt", n)
        if op == "<=":
            return _NONE if n < 0 else ~self._holding("gt", n)
        # "<"
        return _NONE if n <= 0 else ~self._holding("gte", n)
