"""Refusals of queries too big to be cheap: too long, too deep, too many terms or name
characters (the bounds are in limits.py). Pure Python, like the parser."""

from __future__ import annotations

from engines.filters.limits import (
    MAX_NAME_CHARS,
    MAX_QUERY_DEPTH,
    MAX_QUERY_LENGTH,
    MAX_QUERY_TERMS,
)
from engines.filters.syntax import And, Node, Not, Or, QuerySyntaxError, Term, terms
from engines.filters.text import fold


def check_length(text: str) -> None:
    if len(text) > MAX_QUERY_LENGTH:
        raise QuerySyntaxError(
            f"a query may be at most {MAX_QUERY_LENGTH} characters", MAX_QUERY_LENGTH
        )


def _is_name(term: Term) -> bool:
    return term.key in (None, "name", "n")


def check_size(tree: Node | None) -> None:
    """Refuse trees too deep, with too many terms or too many name characters to be cheap,
    walking without recursion; each refusal points at the term that went over."""
    stack = [(tree, 1)] if tree is not None else []
    while stack:
        node, depth = stack.pop()
        if depth > MAX_QUERY_DEPTH:
            raise QuerySyntaxError(
                f"the query nests deeper than {MAX_QUERY_DEPTH} levels", node.position
            )
        if isinstance(node, Not):
            stack.append((node.child, depth + 1))
        elif isinstance(node, And | Or):
            stack.extend((child, depth + 1) for child in node.children)
    found = terms(tree)
    if len(found) > MAX_QUERY_TERMS:
        raise QuerySyntaxError(
            f"a query may have at most {MAX_QUERY_TERMS} terms; this one has {len(found)}",
            found[MAX_QUERY_TERMS].position,
        )
    name_chars, over_at = 0, None
    for term in filter(_is_name, found):
        name_chars += sum(len(word) for word in fold(term.value).split())
        if over_at is None and name_chars > MAX_NAME_CHARS:
            over_at = term.position
    if over_at is not None:
        raise QuerySyntaxError(
            f"name words may add up to at most {MAX_NAME_CHARS} characters; "
            f"this query has {name_chars}",
            over_at,
        )
