"""The search query parser: Scryfall-style text in, a syntax tree with positions out.

Pure Python, so none of these tests touches the database.
"""

import pytest

from engines.filters.syntax import (
    And,
    Not,
    Or,
    QuerySyntaxError,
    Term,
    parse,
    terms,
)


def word(value: str, position: int) -> Term:
    return Term(None, ":", value, position)


def syntax_error(text: str) -> QuerySyntaxError:
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    return caught.value


# --- Empty queries -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", " ", "  \t\n ", "\u3000"])
def test_an_empty_or_blank_query_parses_to_none(text):
    assert parse(text) is None


# --- Bare words, phrases and exact names ---------------------------------------------------


def test_a_single_word_is_a_term_without_a_key():
    assert parse("angel") == word("angel", 0)


def test_words_next_to_each_other_are_anded():
    assert parse("angel wings") == And((word("angel", 0), word("wings", 6)), 0)


def test_a_bare_word_keeps_its_case():
    assert parse("Serra") == word("Serra", 0)


def test_any_whitespace_separates_words():
    assert parse("a\tb\n c\u3000d") == And(
        (word("a", 0), word("b", 2), word("c", 5), word("d", 7)), 0
    )


def test_a_parenthesis_ends_a_word():
    assert parse("(a)b") == And((word("a", 1), word("b", 3)), 0)


def test_a_quoted_phrase_is_one_term():
    assert parse('"quoted phrase"') == Term(None, ":", "quoted phrase", 0, quoted=True)


def test_a_quoted_phrase_may_hold_parentheses_and_keywords():
    assert parse('"(a or b)"') == Term(None, ":", "(a or b)", 0, quoted=True)


def test_a_term_ends_at_its_closing_quote():
    assert parse('"a b"c') == And((Term(None, ":", "a b", 0, quoted=True), word("c", 5)), 0)


def test_an_empty_phrase_is_allowed():
    assert parse('""') == Term(None, ":", "", 0, quoted=True)


def test_a_quote_inside_a_word_is_part_of_the_word():
    assert parse('don"t') == word('don"t', 0)


def test_bang_before_a_quoted_name_asks_for_that_exact_name():
    assert parse('!"Exact Name"') == Term(None, ":", "Exact Name", 0, quoted=True, exact=True)


def test_bang_before_a_word_asks_for_that_exact_name():
    assert parse("!Anthem") == Term(None, ":", "Anthem", 0, exact=True)


def test_an_exact_name_is_the_whole_word_even_if_it_looks_like_a_field():
    assert parse("!t:unit") == Term(None, ":", "t:unit", 0, exact=True)


def test_bang_inside_a_word_is_part_of_the_word():
    assert parse("x!y") == word("x!y", 0)


def test_an_apostrophe_word_is_a_bare_word():
    assert parse("D'Deridex") == word("D'Deridex", 0)


def test_an_operator_in_a_word_without_a_valid_key_leaves_a_bare_word():
    assert parse("3:1 _x:y é:z") == And((word("3:1", 0), word("_x:y", 4), word("é:z", 9)), 0)


def test_a_hyphen_inside_a_word_is_part_of_the_word():
    assert parse("half-life conquest-of-fates") == And(
        (word("half-life", 0), word("conquest-of-fates", 10)), 0
    )


# --- Fields --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "op", "value"),
    [
        ("t:unit", "t", ":", "unit"),
        ("cq>=3", "cq", ">=", "3"),
        ("cq<=3", "cq", "<=", "3"),
        ("cq>3", "cq", ">", "3"),
        ("cq<3", "cq", "<", "3"),
        ("cq=3", "cq", "=", "3"),
        ("tier!=2", "tier", "!=", "2"),
        ("r>=silver", "r", ">=", "silver"),
        ("game:fate-foretold", "game", ":", "fate-foretold"),
        ("cost_blue>=2", "cost_blue", ">=", "2"),
        ("pow2:x", "pow2", ":", "x"),
    ],
)
def test_a_field_is_key_operator_value(text, key, op, value):
    assert parse(text) == Term(key, op, value, 0)


def test_a_field_key_is_lower_cased_but_its_value_is_not():
    assert parse("T:Unit") == Term("t", ":", "Unit", 0)


def test_the_longest_operator_wins():
    assert parse("cq<=3") == Term("cq", "<=", "3", 0)
    assert parse("cq>==3") == Term("cq", ">=", "=3", 0)


def test_only_the_first_operator_splits_a_field():
    assert parse("t:a:b") == Term("t", ":", "a:b", 0)


def test_a_field_value_may_be_quoted():
    assert parse('o:"draw a card"') == Term("o", ":", "draw a card", 0, quoted=True)


def test_a_field_value_may_be_an_empty_quote():
    assert parse('o:""') == Term("o", ":", "", 0, quoted=True)


def test_a_field_value_may_start_with_a_hyphen():
    assert parse("pow:-1") == Term("pow", ":", "-1", 0)


def test_a_parenthesis_ends_a_field_value():
    assert parse("(t:unit)") == Term("t", ":", "unit", 1)


# --- Negation ------------------------------------------------------------------------------


def test_minus_negates_a_field():
    assert parse("-t:unit") == Not(Term("t", ":", "unit", 1), 0)


def test_minus_negates_a_word_a_phrase_and_an_exact_name():
    assert parse('-a -"b c" -!d') == And(
        (
            Not(word("a", 1), 0),
            Not(Term(None, ":", "b c", 4, quoted=True), 3),
            Not(Term(None, ":", "d", 11, exact=True), 10),
        ),
        0,
    )


def test_minus_negates_a_group():
    assert parse("-(a or b)") == Not(Or((word("a", 2), word("b", 7)), 2), 0)


def test_double_minus_is_a_double_negation():
    assert parse("--x") == Not(Not(word("x", 2), 1), 0)


def test_a_keyword_right_after_minus_is_a_plain_word():
    assert parse("a -or") == And((word("a", 0), Not(word("or", 3), 2)), 0)


# --- AND, OR and parentheses ---------------------------------------------------------------


def test_or_between_terms_makes_alternatives():
    assert parse("a or b") == Or((word("a", 0), word("b", 5)), 0)


@pytest.mark.parametrize("keyword", ["or", "OR", "Or", "oR"])
def test_or_is_recognised_in_any_case(keyword):
    assert parse(f"a {keyword} b") == Or((word("a", 0), word("b", 5)), 0)


@pytest.mark.parametrize("keyword", ["and", "AND", "And"])
def test_and_is_allowed_and_means_the_same_as_a_space(keyword):
    assert parse(f"a {keyword} b") == And((word("a", 0), word("b", 6)), 0)


def test_or_binds_looser_than_and():
    assert parse("a b or c") == Or((And((word("a", 0), word("b", 2)), 0), word("c", 7)), 0)


def test_explicit_and_binds_tighter_than_or():
    assert parse("a or b and c") == Or((word("a", 0), And((word("b", 5), word("c", 11)), 5)), 0)


def test_parentheses_override_precedence():
    assert parse("a (b or c)") == And((word("a", 0), Or((word("b", 3), word("c", 8)), 3)), 0)


def test_or_and_and_are_only_keywords_as_standalone_words():
    assert parse("order andes") == And((word("order", 0), word("andes", 6)), 0)


def test_quoted_or_is_a_phrase_not_a_keyword():
    assert parse('a "or" b') == And(
        (word("a", 0), Term(None, ":", "or", 2, quoted=True), word("b", 7)), 0
    )


def test_or_may_touch_parentheses():
    assert parse("(a)or(b)") == Or((word("a", 1), word("b", 6)), 0)


def test_parentheses_nest():
    assert parse("a (b (c or (d e)))") == And(
        (
            word("a", 0),
            word("b", 3),
            Or((word("c", 6), And((word("d", 12), word("e", 14)), 12)), 6),
        ),
        0,
    )


def test_and_inside_and_is_flattened():
    assert parse("(a b) (c d)") == And((word("a", 1), word("b", 3), word("c", 7), word("d", 9)), 0)


def test_or_inside_or_is_flattened():
    assert parse("(a or b) or (c or d)") == Or(
        (word("a", 1), word("b", 6), word("c", 13), word("d", 18)), 0
    )


def test_and_inside_or_and_or_inside_and_are_kept():
    assert parse("(a or b) (c or d)") == And(
        (Or((word("a", 1), word("b", 6)), 1), Or((word("c", 10), word("d", 15)), 10)), 0
    )


def test_a_negated_group_is_not_flattened_into_its_parent():
    assert parse("a -(b c)") == And((word("a", 0), Not(And((word("b", 4), word("c", 6)), 4), 2)), 0)


def test_a_group_of_one_is_its_only_child():
    assert parse("((a))") == word("a", 2)


def test_a_combined_node_starts_where_its_first_operand_starts():
    assert parse("(a b) c").position == 0
    assert parse("-a or b").position == 0
    assert parse("  x y").position == 2


def test_very_deep_parentheses_parse():
    depth = 5000
    assert parse("(" * depth + "a" + ")" * depth) == word("a", depth)


def test_very_long_negation_chains_parse():
    depth = 5000
    node = parse("-" * depth + "a")
    for position in range(depth):
        assert isinstance(node, Not)
        assert node.position == position
        node = node.child
    assert node == word("a", depth)


def test_very_deep_negated_groups_parse():
    depth = 3000
    node = parse("-(" * depth + "a b" + ")" * depth)
    assert terms(node) == [word("a", 2 * depth), word("b", 2 * depth + 2)]


# --- Positions -----------------------------------------------------------------------------


def test_positions_are_string_indices_in_unicode_text():
    text = 'Café 🂡nicorn -t:ünit !"Ædel" or 日本'
    found = terms(parse(text))
    assert [t.position for t in found] == [
        text.index("Café"),
        text.index("🂡nicorn"),
        text.index("t:"),
        text.index("!"),
        text.index("日本"),
    ]
    assert found[1].value == "🂡nicorn"


# --- terms() -------------------------------------------------------------------------------


def test_terms_lists_every_term_left_to_right():
    assert terms(parse("a -(b or (c d)) e")) == [
        word("a", 0),
        word("b", 4),
        word("c", 10),
        word("d", 12),
        word("e", 16),
    ]


def test_terms_of_nothing_is_empty():
    assert terms(None) == []
