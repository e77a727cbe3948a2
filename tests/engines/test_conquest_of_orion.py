"""Conquest of Orion's formats, checked against decks built to the rulebook's numbers."""

import pytest

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
