"""The search query parser's errors, and properties that hold for any text: where it fails, it
says why and where; where it succeeds, every term is found where it was written.

Pure Python, so none of these tests touches the database.
"""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.filters.syntax import (
    And,
    Node,
    Not,
    Or,
    QuerySyntaxError,
    parse,
    terms,
)


def syntax_error(text: str) -> QuerySyntaxError:
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    return caught.value


# --- Errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("(a", "'(' is never closed", 0),
        ("x ((a)", "'(' is never closed", 2),
        ("(a (b", "'(' is never closed", 3),
        ("-(", "'(' is never closed", 1),
        ("a)", "')' has no matching '('", 1),
        ("(a))", "')' has no matching '('", 3),
        (")", "')' has no matching '('", 0),
        ("or a", "'or' needs a term before it", 0),
        ("AND a", "'AND' needs a term before it", 0),
        ("a or", "'or' needs a term after it", 2),
        ("a and ", "'and' needs a term after it", 2),
        ("a or or b", "'or' cannot directly follow 'or'", 5),
        ("a and and b", "'and' cannot directly follow 'and'", 6),
        ("a or and b", "'and' cannot directly follow 'or'", 5),
        ("a and OR b", "'OR' cannot directly follow 'and'", 6),
        ("(or a)", "'or' needs a term before it", 1),
        ("x (and a)", "'and' needs a term before it", 3),
        ("(a or)", "'or' needs a term after it", 3),
        ("(a and )", "'and' needs a term after it", 3),
        ("a or )", "'or' needs a term after it", 2),
        ('"abc', "quote is never closed", 0),
        ('a "b c', "quote is never closed", 2),
        ('o:"draw', "quote is never closed", 2),
        ('!"Exa', "quote is never closed", 1),
        ("()", "empty parentheses", 0),
        ("a ( )", "empty parentheses", 2),
        ("-()", "empty parentheses", 1),
        ("t:", "t: needs a value", 0),
        ("t: unit", "t: needs a value", 0),
        ("x T>=)", "T>= needs a value", 2),
        ("(t:)", "t: needs a value", 1),
        ("-", "'-' needs a term or group after it", 0),
        ("a - b", "'-' needs a term or group after it", 2),
        ("a -", "'-' needs a term or group after it", 2),
        ("(-)", "'-' needs a term or group after it", 1),
        ("-)", "'-' needs a term or group after it", 0),
        ("!", "'!' needs a card name after it", 0),
        ("a ! b", "'!' needs a card name after it", 2),
        ("!(a)", "'!' needs a card name after it", 0),
    ],
)
def test_a_syntax_error_names_the_problem_and_where_it_is(text, message, position):
    error = syntax_error(text)
    assert (error.message, error.position) == (message, position)


def test_the_leftmost_error_is_reported():
    assert syntax_error(') "abc').position == 0
    assert syntax_error('"abc )').position == 0


def test_a_syntax_error_reads_as_message_and_position():
    error = syntax_error("a or")
    assert str(error) == "'or' needs a term after it (at position 2)"


def test_a_syntax_error_is_a_value_error_that_survives_pickling():
    error = syntax_error("(a")
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.message, copy.position, str(copy)) == (error.message, 0, str(error))


def test_error_positions_are_string_indices_in_unicode_text():
    assert syntax_error("日本語 🂡 (a").position == 6


# --- Properties ----------------------------------------------------------------------------


def _check_shape(node: Node, text: str) -> None:
    """No And directly in an And, no Or in an Or, no one-child groups, positions in the text."""
    pending = [node]
    while pending:
        current = pending.pop()
        assert 0 <= current.position < len(text)
        if isinstance(current, Not):
            pending.append(current.child)
        elif isinstance(current, And | Or):
            assert len(current.children) >= 2
            assert not any(isinstance(child, type(current)) for child in current.children)
            pending.extend(current.children)


_SYNTAX_HEAVY = st.text(alphabet='()-!":<=> \taAnNdDoOrRtT3é🂡', max_size=40)


@given(st.one_of(st.text(max_size=60), _SYNTAX_HEAVY))
def test_parse_raises_nothing_but_a_syntax_error_on_any_text(text):
    try:
        node = parse(text)
    except QuerySyntaxError as error:
        assert 0 <= error.position < len(text)
    else:
        if node is None:
            assert text.strip() == ""
        else:
            _check_shape(node, text)


# A generated query is its text and the terms it must parse to: (key, op, value, quoted, exact).
_Expected = tuple[str | None, str, str, bool, bool]

_word_chars = st.characters(categories=("L", "N"), include_characters="-'.")
_bare_words = (
    st.tuples(st.characters(categories=("L", "N")), st.text(_word_chars, max_size=8))
    .map("".join)
    .filter(lambda w: w.lower() not in ("or", "and"))
)
_quotable = st.text(st.characters(exclude_characters='"', exclude_categories=("Cs",)), max_size=12)
_keys = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True)
_ops = st.sampled_from([":", "=", "!=", "<", "<=", ">", ">="])
_field_values = st.text(
    st.characters(exclude_characters='"()', exclude_categories=("Cs", "Z", "Cc")),
    min_size=1,
    max_size=8,
).filter(lambda v: not any(c.isspace() for c in v) and not v.startswith(tuple("<=>:!")))


@st.composite
def _leaves(draw: st.DrawFn) -> tuple[str, list[_Expected]]:
    kind = draw(st.sampled_from(["word", "phrase", "exact word", "exact phrase", "field"]))
    if kind == "word":
        value = draw(_bare_words)
        return value, [(None, ":", value, False, False)]
    if kind == "phrase":
        value = draw(_quotable)
        return f'"{value}"', [(None, ":", value, True, False)]
    if kind == "exact word":
        value = draw(_bare_words)
        return f"!{value}", [(None, ":", value, False, True)]
    if kind == "exact phrase":
        value = draw(_quotable)
        return f'!"{value}"', [(None, ":", value, True, True)]
    key, op = draw(_keys), draw(_ops)
    if draw(st.booleans()):
        value = draw(_quotable)
        return f'{key}{op}"{value}"', [(key.lower(), op, value, True, False)]
    value = draw(_field_values)
    return f"{key}{op}{value}", [(key.lower(), op, value, False, False)]


_separators = st.sampled_from([" ", "  ", "\t", "\u3000", " and ", " AND ", " or ", " Or "])


def _compound(
    children: st.SearchStrategy[tuple[str, list[_Expected]]],
) -> st.SearchStrategy[tuple[str, list[_Expected]]]:
    return st.one_of(
        st.tuples(children, _separators, children).map(
            lambda parts: (parts[0][0] + parts[1] + parts[2][0], parts[0][1] + parts[2][1])
        ),
        children.map(lambda child: ("-" + child[0], child[1])),
        children.map(lambda child: ("(" + child[0] + ")", child[1])),
    )


_queries = st.recursive(_leaves(), _compound, max_leaves=12)


@given(_queries, st.sampled_from(["", " ", "\t "]))
def test_every_term_of_a_well_formed_query_is_found_at_its_position(query, padding):
    text, expected = padding + query[0] + padding, query[1]
    found = terms(parse(text))
    assert [(t.key, t.op, t.value, t.quoted, t.exact) for t in found] == expected
    for term in found:
        if term.exact:
            assert text[term.position] == "!"
        elif term.key is not None:
            assert text[term.position :].lower().startswith(term.key)
        elif term.quoted:
            assert text[term.position :].startswith(f'"{term.value}"')
        else:
            assert text[term.position :].startswith(term.value)
    _check_shape(parse(text), text)
