import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardsite.cardlists.decklist import (
    DeckCodeError,
    ExportEntry,
    decode_code,
    encode_code,
    parse_text,
    to_text,
    zone_for_header,
)
from engines import get_engine
from engines.errors import InputError

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


# --- lists as other deck tools write them ---------------------------------------------------
# Each list below is written the way the named tool exports it (card names are this site's).

ORION = get_engine("conquest-of-orion")


def read(text, engine=ORION):
    lines, problems = parse_text(text, engine)
    return [(ln.quantity, ln.name, ln.zone, ln.planned) for ln in lines], problems


def test_an_mtg_arena_export_keeps_its_sideboard_with_the_planned_cards():
    text = "Deck\n4 Osiris (ORI-RB) 7\n3 Iamur (ORI-RB) 8\n\nSideboard\n2 Cloudglider (ORI-RB) 9\n"
    lines, problems = parse_text(text, ORION)
    assert problems == []
    assert [(ln.name, ln.set_code, ln.number, ln.zone, ln.planned) for ln in lines] == [
        ("Osiris", "ORI-RB", "7", "main", False),
        ("Iamur", "ORI-RB", "8", "main", False),
        ("Cloudglider", "ORI-RB", "9", None, True),
    ]


def test_an_mtgo_text_export_reads_the_block_after_its_blank_line_as_a_sideboard_and_says_so():
    # MTGO's .txt (and MTG Arena's without headers): the deck, a blank line, the sideboard.
    lines, [notice] = read("4 Osiris\n3 Iamur\n\n2 Cloudglider\n1 Heliokraken\n")
    assert lines == [
        (4, "Osiris", None, False),
        (3, "Iamur", None, False),
        (2, "Cloudglider", None, True),
        (1, "Heliokraken", None, True),
    ]
    assert notice.notice and notice.line == 4 and "read as a sideboard" in notice.message


def test_blank_lines_are_only_spacing_in_a_list_with_headers_or_in_three_or_more_blocks():
    with_headers, problems = read("Deck\n4 Osiris\n\n3 Iamur\n")
    assert problems == [] and [planned for *_, planned in with_headers] == [False, False]
    grouped, problems = read("4 Osiris\n\n3 Iamur\n\n2 Cloudglider\n")
    assert problems == [] and [planned for *_, planned in grouped] == [False, False, False]
    # A block of bare names is not MTGO's or Arena's export: nothing is guessed.
    bare, problems = read("4 Osiris\n\nCloudglider\n")
    assert problems == [] and [planned for *_, planned in bare] == [False, False]


def test_a_cockatrice_sb_prefix_and_a_deckstats_sideboard_comment_keep_cards_apart():
    # Cockatrice's .txt: `SB: 2 Name`; deckstats.net: `//Main`, `//Sideboard` and `SB:` lines.
    cockatrice, problems = read("// Deck file for Cockatrice\n4 Osiris\nSB: 2 Cloudglider\n")
    assert problems == [] and cockatrice == [
        (4, "Osiris", None, False),
        (2, "Cloudglider", None, True),
    ]
    deckstats, problems = read("//Main\n4 Osiris\n\n//Sideboard\nSB: 1 Iamur\n2 Cloudglider\n")
    assert problems == []
    assert deckstats == [
        (4, "Osiris", "main", False),
        (1, "Iamur", None, True),
        (2, "Cloudglider", None, True),
    ]
    counted, problems = read("// Mainboard (4 cards)\n4 Osiris\n// Sideboard (2 cards)\n2 Iamur\n")
    assert problems == [] and counted == [(4, "Osiris", "main", False), (2, "Iamur", None, True)]


def test_a_sideboard_header_with_a_colon_in_capitals_as_moxfield_and_tappedout_write_it():
    lines, problems = read("1 Osiris\n1 Iamur\n\nSIDEBOARD:\n1 Cloudglider\n")
    assert problems == [] and [ln[3] for ln in lines] == [False, False, True]


def test_a_maybe_board_by_any_of_its_names_is_kept_with_the_planned_cards():
    # Archidekt's and TappedOut's "Maybeboard", Moxfield's "Considering".
    for header in ("Maybeboard", "Maybeboard:", "Considering", "// Maybeboard", "Maybe (3):"):
        lines, problems = read(f"Deck\n4 Osiris\n{header}\n3 Iamur\nDeck\n1 Cloudglider\n")
        assert problems == [], header
        assert lines == [
            (4, "Osiris", "main", False),
            (3, "Iamur", None, True),
            (1, "Cloudglider", "main", False),
        ], header


@pytest.mark.parametrize(
    "header",
    ["Deck", "Deck:", "Deck (30):", "Deck (30)", "Main: 30", "MAIN:", "Mainboard", "Maindeck"],
)
def test_the_main_zones_header_is_read_with_or_without_a_colon_and_with_a_count(header):
    lines, problems = read(f"{header}\n4 Osiris\n")
    assert problems == [] and lines == [(4, "Osiris", "main", False)]


def test_a_games_own_zone_headers_keep_working_without_a_colon_and_with_a_count():
    lines, problems = parse_text("Nest (2)\n1 The Angel\n1 King\nSigils: 1\n1 The Aegis\n", FATE)
    assert problems == []
    assert [(ln.name, ln.zone) for ln in lines] == [
        ("The Angel", "nest"),
        ("King", "nest"),
        ("The Aegis", "sigils"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "3 Osiris",
        "3x Osiris",
        "3X Osiris",
        "3 x Osiris",
        "x3 Osiris",
        "Osiris x3",
        "Osiris (3)",
        "- 3 Osiris",
        "* 3x Osiris",
        "3 Osiris // the finisher",
        "3 Osiris # the finisher",
        "3 Osiris //",
        "\t3\tOsiris\t",
    ],
)
def test_every_way_of_writing_a_quantity_and_a_note_reads_the_same_card(line):
    assert read(line + "\n") == ([(3, "Osiris", None, False)], [])


def test_a_byte_order_mark_never_hides_the_first_card_nor_one_after_a_crlf():
    assert read("\ufeff3 Osiris\r\n2 Iamur\r\n")[0] == [
        (3, "Osiris", None, False),
        (2, "Iamur", None, False),
    ]
    # Two files joined (or a converted line end) leave the second one's mark mid-text.
    assert read("3 Osiris\r\n\ufeff2 Iamur\r\n")[0][1] == (2, "Iamur", None, False)
    assert read("\ufeffDeck\n3 Osiris\n")[0] == [(3, "Osiris", "main", False)]


def test_a_trailing_note_is_also_kept_as_written_so_a_split_cards_name_is_never_lost():
    # Moxfield writes a two-faced card as `1 Front // Back (SET) 7`.
    [line], problems = parse_text("1 Front // Back (SET) 7\n", ORION)
    assert problems == [] and (line.name, line.set_code) == ("Front", None)
    assert line.literal is not None
    assert (line.literal.name, line.literal.set_code, line.literal.number) == (
        "Front // Back",
        "SET",
        "7",
    )
    # `#` starts a note only with white space after it: `Card #5` is a name.
    [numbered], _ = parse_text("2 Card #5\n", ORION)
    assert (numbered.name, numbered.literal) == ("Card #5", None)


def test_unknown_sections_are_listed_by_line_and_their_cards_never_merged():
    lines, [problem] = read("Deck\n4 Osiris\nCommander\n1 Iamur\nTokens:\n1 Cloudglider\n")
    # An Arena `Commander` header is not a section of this game: a bare word is a card line
    # (an unknown card later, on its line); `Tokens:` is a section header it does not have.
    assert lines == [
        (4, "Osiris", "main", False),
        (1, "Commander", "main", False),
        (1, "Iamur", "main", False),
    ]
    assert problem.line == 5 and "unknown section 'Tokens' (left out of the deck: line 6)" in str(
        problem
    )
    assert "Deck, and Sideboard or Maybeboard for planned cards" in problem.message


def test_sb_alone_heads_a_sideboard_and_a_bulleted_note_is_a_comment():
    lines, problems = read("4 Osiris\nSB:\n2 Iamur\n- # two more to come\n* // and one\n")
    assert problems == [] and lines == [(4, "Osiris", None, False), (2, "Iamur", None, True)]


# --- the rule never misreads a real card's name --------------------------------------------


def fixture_names():
    root = Path(__file__).resolve().parents[2] / "fixtures"
    for path in sorted(root.glob("*/*.json")):
        for card in json.loads(path.read_text(encoding="utf-8")).get("cards", []):
            yield path.parent.name, card["name"]


@pytest.mark.parametrize("written", ["{}", "3 {}", "3x {}", "x3 {}", "{} x3", "- 3 {}", "SB: 3 {}"])
def test_every_card_name_in_the_fixtures_reads_back_exactly_however_it_is_written(written):
    names = list(fixture_names())
    assert len(names) > 500
    for slug, name in names:
        [line], problems = parse_text(written.format(name) + "\n", get_engine(slug))
        assert problems == [] and line.name == name, (slug, name)
        [noted], _ = parse_text(written.format(name) + " // note\n", get_engine(slug))
        assert noted.name == name, (slug, name)


def test_no_card_in_the_fixtures_is_named_like_a_section_or_has_a_set_code_of_digits_alone():
    # A bare line naming a section is its header, and `(3)` is a count because a set code
    # always has a letter: both rules hold for every card and set the fixtures have.
    root = Path(__file__).resolve().parents[2] / "fixtures"
    for slug, name in fixture_names():
        assert zone_for_header(get_engine(slug), name, exact=True) is None, name
        assert name.casefold() != "about", name
    for path in root.glob("*/*.json"):
        for card_set in json.loads(path.read_text(encoding="utf-8")).get("sets", []):
            assert not card_set["code"].isdigit(), card_set


def test_the_sites_own_export_with_planned_headers_nowhere_reads_back_identically():
    entries = [
        ExportEntry(1, "The Angel", "nest", "FF-RB", "3"),
        ExportEntry(1, "King", "nest", "FF-RB", "2"),
        ExportEntry(1, "The Aegis", "sigils", "FF-RB", "10"),
    ]
    text = to_text(entries, FATE, title="Sideboard")  # a title naming a section stays a comment
    lines, problems = parse_text(text, FATE)
    assert problems == []
    assert sorted(
        (ln.quantity, ln.name, ln.zone, ln.set_code, ln.number) for ln in lines
    ) == sorted((e.quantity, e.name, e.zone, e.set_code, e.number) for e in entries)
    assert not any(ln.planned or ln.literal for ln in lines)


def test_the_parse_is_linear_a_thousand_lines_of_every_convention_read_at_once():
    block = "Deck (30):\n3 Osiris // note\nx2 Iamur\nSideboard\nSB: 1 Cloudglider\n"
    text = block * 200
    lines, problems = parse_text(text, ORION)
    assert problems == [] and len(lines) == 600
    with pytest.raises(InputError, match="at most 1,000 lines"):
        parse_text(text + "1 Osiris\n", ORION)


def test_a_line_past_its_character_limit_is_a_problem_on_its_line_read_no_further():
    lines, [problem] = read("4 Osiris\n1 " + "Long Name " * 60 + "\n2 Iamur\n")
    assert str(problem) == "line 2: a line has at most 500 characters; this one has 601"
    assert [name for _, name, *_ in lines] == ["Osiris", "Iamur"]


def test_white_space_runs_are_one_space_so_a_huge_gap_is_read_at_once():
    # main's pattern rescanned such a run from every position: 40 s for this one line.
    assert read("3" + " " * 99_990 + "Osiris\t\t(ORI-SMP)   7\n")[0] == [(3, "Osiris", None, False)]
    [line], _ = parse_text("3  Colonial \u00a0Marine\n", ORION)
    assert line.name == "Colonial Marine"


def test_an_mtg_arena_exports_about_block_names_the_deck_and_holds_no_card():
    text = "About\nName Alien swarm\n\nDeck\n4 Osiris\n\nSideboard\n2 Iamur\n"
    assert read(text) == ([(4, "Osiris", "main", False), (2, "Iamur", None, True)], [])
    _, [problem] = read("About\nName Alien swarm\n3 Osiris\nDeck\n4 Osiris\n")
    assert str(problem) == "line 3: only the deck's `Name ...` is read under About"


# Every break str.splitlines knows ("\r\n" is one); a list joined by any of them, with a
# byte-order mark after each break, reads as the same list joined by "\n".
BREAKS = ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("brk", BREAKS, ids=[f"U+{ord(b[-1]):04X}" for b in BREAKS])
@pytest.mark.parametrize(
    "rows",
    [
        # Headers, a sideboard and a maybe-board, comments and a trailing note.
        [
            "Deck (7):",
            "4 Osiris // the finisher",
            "3x Iamur (ORI-RB) 8",
            "",
            "Sideboard",
            "SB: 2 Cloudglider",
            "// Maybeboard (1 cards)",
            "Heliokraken x1",
        ],
        # MTGO's shape: the deck, one blank line, then the sideboard without a header.
        ["4 Osiris", "3 Iamur", "", "2 Cloudglider", "1 Heliokraken"],
        # Arena's About block, then an unknown section whose cards are left out.
        ["About", "Name Swarm", "", "Deck", "4 Osiris", "Tokens:", "1 Iamur"],
    ],
    ids=["headers", "mtgo", "about"],
)
def test_every_line_break_with_a_byte_order_mark_after_it_reads_as_a_newline(rows, brk):
    expected = parse_text("\n".join(rows) + "\n", ORION)
    assert parse_text(brk.join(rows) + brk, ORION) == expected
    marked = "\ufeff" + "".join(row + brk + "\ufeff" for row in rows)
    assert parse_text(marked, ORION) == expected
