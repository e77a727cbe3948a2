"""Fate Foretold's formats: the Nest, its Sigils, and Tokens kept out of both."""

import pytest

from engines import get_engine
from engines.rules import ZoneSize
from tests.engines.deck_building import card, cards, codes, problems

FATE = "fate-foretold"


def nest(n=60):
    return cards(n, card_type="Nest Card", zone="nest", factions=["Heart"])


def sigils(*names):
    return [card(name, "Sigil", zone="sigils", factions=["Heart", "Soul"]) for name in names]


SIX = ("King", "Queen", "Sigil 3", "Sigil 4", "Sigil 5", "Sigil 6")


@pytest.mark.parametrize("fmt", ["nest", "speed-run"])
def test_a_nest_of_sixty_unique_cards_with_six_different_sigils_outside_is_legal(fmt):
    assert problems(FATE, fmt, nest() + sigils(*SIX)) == []


def test_a_nest_of_fifty_nine_cards_is_illegal():
    found = problems(FATE, "nest", nest(59))
    assert codes(found) == ["deck_size"] and "(1 short)" in found[0].message


def test_a_second_copy_of_a_card_breaks_the_nest():
    found = problems(FATE, "nest", [*nest(), card("Card 3", "Nest Card", zone="nest")])
    assert codes(found) == ["singleton"]
    assert found[0].cards == ("Card 3",)


@pytest.mark.parametrize("fmt", ["nest", "speed-run"])
def test_a_second_king_sigil_makes_the_nest_illegal(fmt):
    found = problems(FATE, fmt, nest() + sigils("King", "Queen", "King"))
    assert codes(found) == ["singleton"]
    assert found[0].cards == ("King",)
    assert found[0].message.startswith("King appears 2 times")


def test_a_sigil_listed_twice_over_is_named_too():
    twice = card("Queen", "Sigil", zone="sigils", quantity=2)
    found = problems(FATE, "nest", [*nest(), *sigils("King"), twice])
    assert codes(found) == ["singleton"] and found[0].cards == ("Queen",)


def test_more_than_six_sigils_is_illegal():
    assert codes(problems(FATE, "nest", nest() + sigils(*SIX, "Sigil 7"))) == ["zone_size"]


def test_a_sigil_inside_the_nest_is_not_allowed():
    found = problems(FATE, "nest", [*nest(), card("King", "Sigil", zone="nest")])
    assert codes(found) == ["type_not_allowed"]
    assert found[0].cards == ("King",)


def test_a_nest_card_among_the_sigils_is_not_allowed():
    found = problems(FATE, "nest", [*nest(), card("The Angel", "Nest Card", zone="sigils")])
    assert codes(found) == ["type_not_allowed"] and found[0].cards == ("The Angel",)


def test_a_token_never_lands_in_the_nest():
    # Tokens belong to no deck zone, so the deck builder files one listed without a zone in
    # the first zone, the Nest; the format must refuse it there.
    assert get_engine(FATE).card_type("Token").zone is None
    found = problems(FATE, "nest", [*nest(), card("Mark", "Token", zone="nest")])
    assert codes(found) == ["type_not_allowed"]
    assert found[0].cards == ("Mark",)
    assert "not included in the nest" in found[0].source


def test_a_token_is_not_allowed_among_the_sigils_either():
    found = problems(FATE, "nest", [*nest(), card("Mark", "Token", zone="sigils")])
    assert codes(found) == ["type_not_allowed"] and found[0].cards == ("Mark",)


def _rule_on(fmt, zone, kind):
    found = get_engine(FATE).format(fmt)
    assert found is not None
    [rule] = [r for r in found.rules if isinstance(r, kind) and r.zone == zone]
    return rule


@pytest.mark.parametrize("fmt", ["nest", "speed-run"])
def test_whether_the_sigils_count_towards_the_sixty_is_a_reading_stated_on_the_rule(fmt):
    # How to Play, 1.: "separate the six Sigils from the rest of the cards in the Nest";
    # Glossary, Sigil: "a separate type of card from the rest of those in the nest".
    rule = _rule_on(fmt, "nest", ZoneSize)
    assert "separate the six Sigils from the rest of the cards in the Nest" in rule.source
    assert "a separate type of card from the rest of those in the nest" in rule.source
    assert "Reading:" in rule.source and "the Sigils do not count towards them" in rule.source
    # The reading taken: 59 Nest cards and six Sigils are not 60.
    assert codes(problems(FATE, fmt, nest(59) + sigils(*SIX))) == ["deck_size"]


@pytest.mark.parametrize("fmt", ["nest", "speed-run"])
def test_whether_a_nest_needs_all_six_sigils_is_a_reading_stated_on_the_rule(fmt):
    # How to Play, 1.: "Shuffle the Sigils face-down and let each player choose one"; the game
    # is "made for 3 to 6 players".
    rule = _rule_on(fmt, "sigils", ZoneSize)
    assert "let each player choose one" in rule.source and "made for 3 to 6 players" in rule.source
    assert "Reading:" in rule.source and "at most six Sigils and asks for no fewer" in rule.source
    # The reading taken: three Sigils, enough for three players, pass.
    assert problems(FATE, fmt, nest() + sigils("King", "Queen", "Sigil 3")) == []
