"""Every game's goldfish procedure told in words (engines/procedure/describe.py), from the
procedure its goldfish.toml declares: what is dealt and placed, what is left out, and what the
± beside a mean is taken over."""

import tomllib
from pathlib import Path

import pytest

from engines import ENGINES
from engines.procedure import describe as describe_module
from engines.procedure import load_goldfish
from engines.procedure.definition import read_procedure
from engines.procedure.describe import describe

GAMES = sorted(ENGINES)


def described(slug, policy=None):
    labels = {s.key: s.label for s in ENGINES[slug].stats}
    return describe(load_goldfish(slug).procedure, policy, labels)


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_says_how_a_game_starts_what_each_turn_does_and_what_it_leaves_out(slug):
    d = described(slug)
    assert d.setup.startswith("To start: shuffle the ")
    assert d.turn.startswith("Each ") and "draw" in d.turn
    assert d.ignores.startswith("Not simulated: an opponent")
    assert all(s.endswith(".") for s in d.sentences)


@pytest.mark.parametrize("slug", GAMES)
def test_no_description_names_its_game_or_leaves_a_raw_key(slug):
    text = " ".join(described(slug).sentences)
    assert ENGINES[slug].name not in text
    assert "_" not in text and "{" not in text


@pytest.mark.parametrize(
    ("slug", "says"),
    [
        (
            "conquest-alpha-tactics",
            "place 8 cards from the hand on the table, by highest Combat Power, "
            "drawing back up to 4 after each",
        ),
        (
            "conquest-for-the-capital",
            "keep one (cards saying “up to 6” first, then by highest Star rating)",
        ),
        ("conquest-of-fates", "from battle 2, draw 7 cards from the main pile"),
        (
            "conquest-of-orion",
            "draw 4 cards from the main pile; "
            "put the hand's cards needing a Tier requirement above 1 on the bottom",
        ),
        ("fate-foretold", "keep at most 5 cards in play and 5 in hand"),
    ],
)
def test_each_game_is_told_in_its_procedures_own_numbers_and_stats(slug, says):
    assert says in " ".join(described(slug).sentences)


def test_a_count_set_by_a_knob_is_told_with_the_knobs_value():
    assert "place 5 cards" in described("conquest-alpha-tactics", {"plays_per_round": 5}).turn
    assert "for 3 rounds" in described("conquest-alpha-tactics", {"rounds": 3}).turn


def test_a_procedure_that_plays_no_card_says_its_figures_are_the_earliest_possible():
    assert described("conquest-of-orion").plays.startswith("No card is played")
    assert described("conquest-alpha-tactics").plays == ""


def test_only_the_phrases_a_card_test_reads_are_named_as_text_that_counts():
    assert "“up to 6”" in described("conquest-for-the-capital").ignores
    assert "“" not in described("conquest-of-fates").ignores


@pytest.mark.parametrize("slug", GAMES)
def test_every_figure_shown_with_a_spread_says_what_its_spread_is_taken_over(slug):
    procedure = load_goldfish(slug).procedure
    with_spread = [f for f in procedure.summary if f.fields.get("spread")]
    notes = described(slug).spreads
    assert len(notes) == len(with_spread)
    assert all(n.over and "{" not in n.label for n in notes)


def test_a_per_turn_spread_is_over_the_games_and_a_per_card_one_over_the_games_it_played_in():
    overs = {n.label: n.over for n in described("conquest-of-orion").spreads}
    assert overs["Turn …: playable cards in hand"] == "the games, one total per game for that turn"
    assert overs["…: first turn playable (in hand, Tier reached, cost payable)"] == (
        "the games in which that card became playable"
    )


def test_a_game_that_can_end_early_is_played_for_up_to_its_turns():
    assert described("fate-foretold").turn.startswith("Each turn, for up to 40 turns: ")
    assert described("conquest-of-orion").turn.startswith("Each turn, for 10 turns: ")


def test_a_procedure_of_no_game_is_told_too_with_its_raw_stat_names_when_none_are_labelled():
    text = (Path(describe_module.__file__).with_name("unit.toml")).read_text(encoding="utf-8")
    d = describe(read_procedure(tomllib.loads(text)))
    assert d.setup == "To start: shuffle the main pile; draw 7 cards from the main pile."
    assert d.turn.startswith("Each turn, for 3 turns: from turn 2, draw 7 cards from the main pile")
