"""Scryfall-style search queries parsed into a small syntax tree.

    angel -t:unit (o:"draw a card" or cq>=3) !"Exact Name"

Words next to each other are ANDed, `or` separates alternatives (AND binds tighter), `-`
negates a term or a parenthesised group, `key<op>value` is a field filter and `!name` asks for
an exact name. Every node carries the 0-based offset (a str index) where it starts, so that an
error or a "did you mean" can point into the text the user typed.

This module only knows syntax: which keys exist and what their values mean is decided by the
code that reads the tree, the site's compiler into database queries
(cardsite/catalogue/search/compile.py) and the in-memory evaluator (evaluate.py).
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum

__all__ = ["And", "Node", "Not", "Or", "QuerySyntaxError", "Term", "parse", "terms"]


@dataclass(frozen=True)
class Term:
    key: str | None  # lower-cased field key; None for a bare word / phrase / exact name
    op: str  # one of ":", "=", "!=", "<", "<=", ">", ">="; ":" when key is None
    value: str  # unquoted, case preserved
    position: int  # where the term starts: its key, first letter, opening quote or "!"
    quoted: bool = False
    exact: bool = False
    # Just after the term's last character (its closing quote, if any), so a "did you mean"
    # can replace it in the text; -1 for a term not read from text. Not part of equality.
    end: int = field(default=-1, compare=False)


@dataclass(frozen=True)
class Not:
    child: "Node"
    position: int  # the "-"


@dataclass(frozen=True)
class And:
    children: tuple["Node", ...]
    position: int  # where the first child starts, counting its "(" or "-"


@dataclass(frozen=True)
class Or:
    children: tuple["Node", ...]
    position: int  # where the first alternative starts, counting its "(" or "-"


Node = Term | Not | And | Or


class QuerySyntaxError(ValueError):
    """The query cannot be parsed; `position` is the str index of the offending character."""

    def __init__(self, message: str, position: int) -> None:
        # Both go to ValueError so the exception pickles and copies with its position.
        super().__init__(message, position)
        self.message = message
        self.position = position

    def __str__(self) -> str:
        return f"{self.message} (at position {self.position})"


def parse(text: str) -> Node | None:
    """The query's syntax tree, or None when the query is empty or only whitespace.

    Raises QuerySyntaxError, and nothing else, for any text that is not a valid query.
    """
    return _parse(text)


def terms(node: Node | None) -> list[Term]:
    """Every Term in the tree, in the order they appear in the query."""
    found: list[Term] = []
    # An explicit stack, not recursion: "-" chains can nest deeper than Python's stack allows.
    pending: list[Node] = [] if node is None else [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Term):
            found.append(current)
        elif isinstance(current, Not):
            pending.append(current.child)
        else:
            pending.extend(reversed(current.children))
    return found


# --- Tokens --------------------------------------------------------------------------------

# Longest operators first, so "<=" is never read as "<" followed by a value starting with "=".
_FIELD = re.compile(r"([A-Za-z][A-Za-z0-9_]*)(<=|>=|!=|:|=|<|>)")
_KEYWORDS = frozenset({"or", "and"})


class _Kind(Enum):
    TERM = "term"
    NOT = "-"
    OPEN = "("
    CLOSE = ")"
    OR = "or"
    AND = "and"


@dataclass(frozen=True)
class _Token:
    kind: _Kind
    position: int
    text: str  # a keyword as written, so messages quote "OR" the way the user typed it
    term: Term | None = None  # set exactly when kind is TERM


def _ends_word(char: str) -> bool:
    return char.isspace() or char in "()"


def _word_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and not _ends_word(text[end]):
        end += 1
    return end


def _quoted(text: str, quote: int) -> tuple[str, int]:
    """The text between the quote at `quote` and the next quote, and the index after it."""
    closing = text.find('"', quote + 1)
    if closing == -1:
        raise QuerySyntaxError("quote is never closed", quote)
    return text[quote + 1 : closing], closing + 1


def _tokens(text: str) -> Iterator[_Token]:
    """The query's tokens, lazily, so a syntax error earlier in the text is reported first."""
    i = 0
    after_minus = False
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
            continue
        # "-or" negates the word "or": only a standalone word can be a keyword.
        may_be_keyword, after_minus = not after_minus, False
        if char in "()":
            yield _Token(_Kind.OPEN if char == "(" else _Kind.CLOSE, i, char)
            i += 1
        elif char == "-":
            if i + 1 == len(text) or text[i + 1].isspace():
                raise QuerySyntaxError("'-' needs a term or group after it", i)
            yield _Token(_Kind.NOT, i, char)
            after_minus = True
            i += 1
        else:
            token, i = _term(text, i, may_be_keyword=may_be_keyword)
            yield token


def _term(text: str, start: int, *, may_be_keyword: bool) -> tuple[_Token, int]:
    """The term (or keyword) starting at `start`, and the index just after it."""
    char = text[start]
    if char == '"':
        value, end = _quoted(text, start)
        return _term_token(Term(None, ":", value, start, quoted=True), end)

    if char == "!":
        name_start = start + 1
        if name_start == len(text) or _ends_word(text[name_start]):
            raise QuerySyntaxError("'!' needs a card name after it", start)
        if text[name_start] == '"':
            value, end = _quoted(text, name_start)
            return _term_token(Term(None, ":", value, start, quoted=True, exact=True), end)
        end = _word_end(text, name_start)
        return _term_token(Term(None, ":", text[name_start:end], start, exact=True), end)

    field_match = _FIELD.match(text, start)
    if field_match:
        key, op = field_match.groups()
        value_start = field_match.end()
        if value_start < len(text) and text[value_start] == '"':
            value, end = _quoted(text, value_start)
            return _term_token(Term(key.lower(), op, value, start, quoted=True), end)
        end = _word_end(text, value_start)
        if end == value_start:
            raise QuerySyntaxError(f"{key}{op} needs a value", start)
        return _term_token(Term(key.lower(), op, text[value_start:end], start), end)

    end = _word_end(text, start)
    word = text[start:end]
    if may_be_keyword and word.lower() in _KEYWORDS:
        kind = _Kind.OR if word.lower() == "or" else _Kind.AND
        return _Token(kind, start, word), end
    return _term_token(Term(None, ":", word, start), end)


def _term_token(term: Term, end: int) -> tuple[_Token, int]:
    return _Token(_Kind.TERM, term.position, "", replace(term, end=end)), end


# --- Parser --------------------------------------------------------------------------------
#
# An operator-precedence parser with an explicit stack of open groups rather than recursive
# descent: the grammar is only two precedence levels deep, and without recursion no query,
# however deeply nested, can raise RecursionError from a public search box.


@dataclass
class _Group:
    """A parenthesised group being read, or the whole query (open_position None)."""

    open_position: int | None
    # Alternatives separated by "or", each a list of ANDed operands with where they start.
    alternatives: list[list[tuple[Node, int]]] = field(default_factory=lambda: [[]])
    # Positions of "-" signs read but not yet applied to an operand.
    negations: list[int] = field(default_factory=list)
    previous: _Token | None = None  # the last token read inside this group

    def add_operand(self, node: Node, start: int) -> None:
        # The "-" nearest the operand is the innermost Not.
        for position in reversed(self.negations):
            node, start = Not(node, position), position
        self.negations.clear()
        self.alternatives[-1].append((node, start))

    def check_keyword(self, keyword: _Token) -> None:
        previous = self.previous
        if previous is None:
            raise QuerySyntaxError(f"'{keyword.text}' needs a term before it", keyword.position)
        if previous.kind in (_Kind.OR, _Kind.AND):
            raise QuerySyntaxError(
                f"'{keyword.text}' cannot directly follow '{previous.text}'", keyword.position
            )
        # previous is never "-": the tokenizer reads the word after a "-" as a plain word.

    def check_complete(self) -> None:
        """Raise unless the group ends with an operand (an empty group is the caller's case)."""
        previous = self.previous
        if previous is None:
            return
        if previous.kind in (_Kind.OR, _Kind.AND):
            raise QuerySyntaxError(f"'{previous.text}' needs a term after it", previous.position)
        if previous.kind is _Kind.NOT:
            raise QuerySyntaxError("'-' needs a term or group after it", previous.position)

    def build(self) -> tuple[Node, int]:
        branches = [_combine(And, operands) for operands in self.alternatives]
        return _combine(Or, branches)


def _combine(kind: type[And] | type[Or], operands: list[tuple[Node, int]]) -> tuple[Node, int]:
    """Operands joined by `kind`, merging nested nodes of the same kind; a lone one as itself."""
    if len(operands) == 1:
        return operands[0]
    children: list[Node] = []
    for node, _ in operands:
        if isinstance(node, And | Or) and isinstance(node, kind):
            children.extend(node.children)
        else:
            children.append(node)
    start = operands[0][1]
    return kind(tuple(children), start), start


def _parse(text: str) -> Node | None:
    groups = [_Group(open_position=None)]
    for token in _tokens(text):
        group = groups[-1]
        if token.term is not None:
            group.add_operand(token.term, token.position)
        elif token.kind is _Kind.NOT:
            group.negations.append(token.position)
        elif token.kind is _Kind.OPEN:
            groups.append(_Group(open_position=token.position))
        elif token.kind is _Kind.CLOSE:
            open_position = _closable(group, token)
            groups.pop()
            node, _ = group.build()
            group = groups[-1]
            group.add_operand(node, open_position)
        else:
            group.check_keyword(token)
            if token.kind is _Kind.OR:
                group.alternatives.append([])
        group.previous = token

    innermost = groups[-1]
    innermost.check_complete()
    if innermost.open_position is not None:
        raise QuerySyntaxError("'(' is never closed", innermost.open_position)
    if innermost.previous is None:
        return None
    node, _ = innermost.build()
    return node


def _closable(group: _Group, closing: _Token) -> int:
    """Where the group that `closing` ends was opened; raise if it cannot end there."""
    group.check_complete()  # first, as "a or )" is wrong at the "or" before the ")"
    if group.open_position is None:
        raise QuerySyntaxError("')' has no matching '('", closing.position)
    if group.previous is None:
        raise QuerySyntaxError("empty parentheses", group.open_position)
    return group.open_position
