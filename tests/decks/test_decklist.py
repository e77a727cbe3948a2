import pytest
from hypothesis import given
from hypothesis import strategies as st

from decks.decklist import (
    DeckCodeError,
    ExportEntry,
    decode_code,
    encode_code,
    parse_text,
    to_text,
)
from engines import get_engine

FATE = get_engine("fate-foretold")
CAPITAL = get_engine("conquest-for-the-capital")
TACTICS = get_engine("conquest-alpha-tactics")


def test_quantities_are_written_with_or_without_an_x():
    lines, problems = parse_text(
        "3 Shield Wall\n2x Forge Fire\n4X Deep Halls\nLone Card\n", CAPITAL
    )
    assert problems == []
    assert [(ln.quantity, ln.name) for ln in lines] == [
        (3, "Shield Wall"),
        (2, "Forge Fire"),
        (4, "Deep Halls"),
        (1, "Lone Card"),
    ]


def test_a_set_code_and_collector_number_may_follow_the_name():
    [line], _ = parse_text("1 The Insight (FF-RB) 21", FATE)
    assert (line.name, line.set_code, line.number) == ("The Insight", "FF-RB", "21")


def test_section_headers_choose_the_zone_of_the_lines_below():
    text = "Nest:\n1 The Angel\n\nSigils:\n1 King\n"
    lines, problems = parse_text(text, FATE)
    assert problems == []
    assert [(ln.name, ln.zone) for ln in lines] == [("The Angel", "nest"), ("King", "sigils")]


def test_headers_match_zone_names_and_common_aliases():
    text = "Battle:\n1 A\nUpgrade:\n1 B\n"
    assert [ln.zone for ln in parse_text(text, CAPITAL)[0]] == ["battle", "upgrade"]
    assert [ln.zone for ln in parse_text("Targets:\n1 Earth\nDeck:\n1 Galaxy\n", TACTICS)[0]] == [
        "targets",
        "main",
    ]


def test_lines_before_any_header_have_no_zone_so_it_is_inferred_later():
    assert parse_text("2 Galaxy\n", TACTICS)[0][0].zone is None


def test_comments_and_blank_lines_are_ignored():
    lines, problems = parse_text("# my deck\n\n// another comment\n1 King\n", FATE)
    assert problems == [] and len(lines) == 1 and lines[0].line == 4


def test_an_unknown_section_names_its_line_the_games_zones_and_the_lines_left_out():
    lines, [problem] = parse_text("1 A\nTokens:\n1 B\n1 C\nSigils:\n1 D\n", FATE)
    assert problem.line == 2
    assert "unknown section 'Tokens' (left out of the deck: lines 3, 4)" in problem.message
    assert "Nest, Sigils" in problem.message
    assert [(ln.name, ln.zone) for ln in lines] == [("A", None), ("D", "sigils")]


def test_an_impossible_quantity_names_its_line():
    _, [problem] = parse_text("1 A\n0 B\n", FATE)
    assert str(problem) == "line 2: quantity 0 must be 1 to 99"


def test_text_export_reads_back_the_same_entries():
    entries = [
        ExportEntry(2, "Galaxy", "main", "TAC-RB", "4"),
        ExportEntry(1, "Earth", "targets", "TAC-RB", "7"),
    ]
    text = to_text(entries, TACTICS, title="Test")
    lines, problems = parse_text(text, TACTICS)
    assert problems == []
    assert [(ln.quantity, ln.name, ln.zone, ln.set_code, ln.number) for ln in lines] == [
        (2, "Galaxy", "main", "TAC-RB", "4"),
        (1, "Earth", "targets", "TAC-RB", "7"),
    ]


def test_a_deck_code_round_trips_exactly():
    entries = [("abc12345", 3, "main"), ("xyz98765", 1, "targets")]
    code = encode_code("conquest-alpha-tactics", "faction-deck", "Romulan", entries)
    assert code.startswith("cs1.")
    assert decode_code(code) == {
        "game": "conquest-alpha-tactics",
        "format": "faction-deck",
        "faction": "Romulan",
        "entries": entries,
    }


@given(
    st.lists(
        st.tuples(
            st.text("0123456789abcdefghjkmnpqrstvwxyz", min_size=8, max_size=8),
            st.integers(1, 99),
            st.sampled_from(["main", "targets", "nest"]),
        ),
        max_size=80,
        unique_by=lambda e: (e[0], e[2]),
    )
)
def test_any_deck_code_round_trips(entries):
    code = encode_code("fate-foretold", "nest", None, entries)
    assert sorted(decode_code(code)["entries"], key=lambda e: (e[2], e[0])) == sorted(
        entries, key=lambda e: (e[2], e[0])
    )


def test_a_mangled_deck_code_is_refused_by_its_checksum():
    code = encode_code("fate-foretold", "nest", None, [("abc12345", 1, "nest")])
    version, payload, checksum = code.split(".")
    damaged = f"{version}.{payload[:-1]}{'A' if payload[-1] != 'A' else 'B'}.{checksum}"
    with pytest.raises(DeckCodeError, match="checksum"):
        decode_code(damaged)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("nonsense", "three parts"),
        ("cs9.abc.00000000", "unknown deck code version"),
    ],
)
def test_something_that_is_not_a_deck_code_says_why(code, message):
    with pytest.raises(DeckCodeError, match=message):
        decode_code(code)
