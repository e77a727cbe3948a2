"""Conquest of Orion's formats, checked against decks built to the rulebook's numbers."""

import pytest

from engines import get_engine
from engines.rules import DeckCard, Severity
from tests.engines.deck_building import card, cards, codes, problems

ORION = "conquest-of-orion"


@pytest.mark.parametrize(("fmt", "size"), [("constructed", 50), ("limited", 30)])
def test_an_orion_deck_of_exactly_the_format_size_of_one_race_plus_raceless_cards_is_legal(
    fmt, size
):
    deck = (
        cards(size - 10, factions=["Humans"])
        + cards(9, prefix="Raceless")
        + [card("Moon", "Satellite")]
    )
    assert problems(ORION, fmt, deck, "Humans") == []


@pytest.mark.parametrize(("fmt", "size"), [("constructed", 50), ("limited", 30)])
def test_an_orion_deck_one_card_off_the_size_is_illegal(fmt, size):
    short = problems(ORION, fmt, cards(size - 1, factions=["Humans"]), "Humans")
    over = problems(ORION, fmt, cards(size + 1, factions=["Humans"]), "Humans")
    assert codes(short) == codes(over) == ["deck_size"]
    assert "(1 short)" in short[0].message and "(1 too many)" in over[0].message


def test_a_second_race_makes_an_orion_deck_illegal():
    deck = cards(48, factions=["Humans"]) + cards(2, prefix="Alien", factions=["Aliens"])
    found = problems(ORION, "constructed", deck, "Humans")
    assert codes(found) == ["faction_mismatch"]
    assert "2 cards not of the deck's race Humans" in found[0].message


def test_without_a_race_given_a_deck_mixing_two_is_a_mismatch():
    deck = cards(25, factions=["Humans"]) + cards(25, prefix="Alien", factions=["Aliens"])
    assert codes(problems(ORION, "constructed", deck)) == ["faction_mismatch"]


def test_a_planet_is_never_allowed_in_an_orion_deck():
    deck = [*cards(49, factions=["Humans"]), card("Ice Planet", "Planet")]
    found = problems(ORION, "constructed", deck, "Humans")
    assert codes(found) == ["type_not_allowed"]
    assert found[0].cards == ("Ice Planet",)


def race_not_given(name):
    """A card as the rulebook names it: its race icon is not given (the Osiris of §1.8.1)."""
    return DeckCard(name, name, "Unit", "main", 1, unstated=("factions",))


def test_a_card_whose_race_is_not_given_is_named_in_a_warning_never_passed_silently():
    # §1.1, 5. Race Icon: "Cards without a race icon can be played in any deck." A card whose
    # race the rulebook does not give is not known to be one of them.
    deck = [*cards(49, factions=["Humans"]), race_not_given("Osiris")]
    found = problems(ORION, "constructed", deck, "Humans")
    assert codes(found) == []  # still legal: the rule cannot say it breaks the one-race rule
    [warning] = [p for p in found if p.code == "faction_not_given"]
    assert warning.severity == Severity.WARNING and warning.cards == ("Osiris",)
    assert warning.message == (
        "Osiris: its race is not given, so the one-race rule cannot be checked for it."
    )


def test_a_card_of_no_race_still_passes_without_a_word():
    # §1.1, 5. Race Icon: "Cards without a race icon can be played in any deck."
    deck = [*cards(49, factions=["Humans"]), card("Raceless Scout")]
    assert problems(ORION, "constructed", deck, "Humans") == []


def test_a_race_not_given_is_warned_of_even_when_the_deck_names_no_race():
    deck = [*cards(49, factions=["Humans"]), race_not_given("Osiris")]
    assert [p.code for p in problems(ORION, "constructed", deck)] == ["faction_not_given"]


def test_the_archive_card_whose_type_is_not_given_is_kept_out_of_a_deck_by_name():
    # §1.5 Resources: "Resources are tracked on the Archive card, of which a copy is given to
    # each player." §1.16 Archive Card gives no type: "Coming Soon".
    deck = [*cards(49, factions=["Humans"]), card("Archive card", "")]
    found = problems(ORION, "constructed", deck, "Humans")
    assert codes(found) == ["card_not_allowed"] and found[0].cards == ("Archive card",)
    assert get_engine(ORION).card_type("Archive") is None


def test_an_official_orion_card_listing_no_race_has_its_race_not_given():
    engine = get_engine(ORION)
    assert engine.factions_not_given(official=True, factions=())
    assert not engine.factions_not_given(official=False, factions=())  # sample: no race
    assert not engine.factions_not_given(official=True, factions=("Humans",))
    # No other game reads an official card's empty factions so.
    assert not get_engine("conquest-of-fates").factions_not_given(official=True, factions=())
