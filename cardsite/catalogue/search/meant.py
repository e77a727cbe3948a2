""" "Did you mean": for a search that found nothing, the cards named like its name part, each
with the whole search rewritten to ask for that name instead.

`!"The Insite" t:nest` finds nothing; its name part is `!"The Insite"`, whose nearest name is
The Insight, so the page offers `!"The Insight" t:nest`. The name part is every name term the
search asks for (bare words, phrases, `!exact` names and `name:` values, but none under a
`-`): they are scored together, as one typed name, by the one name scorer (names.py, as
/api/v1/cards/named/?fuzzy= and the decklist importer use it), and the rewritten search puts
the suggested name where the first of them was and leaves the others out. Its cost is bounded
by the scorer's own limits (MAX_FUZZY_CHARS and MAX_FUZZY_WORDS: a longer name part gets no
suggestion) on top of the search's (MAX_QUERY_LENGTH, MAX_NAME_CHARS).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from cardsite.catalogue.models import Card
from cardsite.catalogue.search import names
from engines.filters.keys import FIELD_OF_KEY
from engines.filters.syntax import Node, Not, QuerySyntaxError, Term, parse

# Keys whose value is a card name (`name:` and its aliases).
NAME_KEYS = frozenset(key for key, handler in FIELD_OF_KEY.items() if handler == "name")
# A name written bare stays one word of the query only when it holds letters, digits and
# these; anything else (a space, a bracket, a colon...) is quoted.
_BARE = re.compile(r"[A-Za-z0-9'\u2019.,&-]+")


@dataclass(frozen=True)
class Meant:
    """A card the search may have meant, and the search rewritten to ask for it ("" when it
    cannot be: a name holding a double quote cannot be written in the query language)."""

    card: Card
    query: str


@dataclass(frozen=True)
class DidYouMean:
    meant: list[Meant]
    # True: names close to the typed one (names.MIN_SCORE); False: none was, and these are
    # only the nearest, as the named API lists them when a name is ambiguous.
    close: bool


def name_terms(node: Node | None) -> list[Term]:
    """The terms of the query that ask for a name, in the order typed; a name under `-` is
    one the searcher does not want, so it is not among them."""
    found: list[Term] = []
    # An explicit stack, as syntax.terms: "-" chains can nest deeper than Python's stack.
    pending: list[Node] = [] if node is None else [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Term):
            if current.key is None or (current.key in NAME_KEYS and current.op in (":", "=")):
                found.append(current)
        elif not isinstance(current, Not):
            pending.extend(reversed(current.children))
    return sorted(found, key=lambda t: t.position)


def written(term: Term, name: str) -> str:
    """`name` written as `term` asked for a name: `!"…"`, `name:"…"`, or a phrase or word."""
    quoted = f'"{name}"'
    if term.exact:
        return "!" + quoted
    if term.key is not None:
        return f"{term.key}{term.op}{quoted}"
    return name if _BARE.fullmatch(name) and not name.startswith("-") else quoted


def rewritten(text: str, terms: list[Term], name: str) -> str:
    """`text` with `name` in place of the first of `terms` and the others left out; "" when
    that cannot be written or would not parse."""
    if '"' in name or any(t.end < 0 for t in terms):
        return ""
    pieces, at = [], 0
    for i, term in enumerate(terms):
        before = text[at : term.position]
        # A term left out takes the space before it along.
        pieces.append(before if i == 0 else before.rstrip(" "))
        pieces.append(written(term, name) if i == 0 else "")
        at = term.end
    query = "".join([*pieces, text[at:]]).strip()
    try:
        parse(query)
    except QuerySyntaxError:
        return ""
    return query


def typed_name(text: str) -> str:
    """The name part of the search `text`, as one typed name ("" when it does not parse)."""
    try:
        return " ".join(t.value for t in name_terms(parse(text)))
    except QuerySyntaxError:
        return ""


def did_you_mean(
    text: str, *, game: str | None = None, finds: Callable[[str], bool] = lambda query: True
) -> DidYouMean:
    """The cards `text`'s name part may have meant, in `game` (every game: None). A rewritten
    search that `finds` nothing (the rest of the query rules the card out) is not offered:
    its card still is."""
    try:
        terms = name_terms(parse(text))
    except QuerySyntaxError:
        return DidYouMean([], False)
    typed = " ".join(t.value for t in terms)
    cards, close = names.near_cards(typed, game=game)
    meant = []
    for card in cards:
        # Only a close name is worth a rewritten search; the nearest of far ones are listed
        # for their cards alone.
        query = rewritten(text, terms, card.name) if close else ""
        meant.append(Meant(card, query if query and finds(query) else ""))
    return DidYouMean(meant, close)
