"""Conquest of Fates' formats, checked against decks built to the rulebook's numbers."""

import pytest

from engines import get_engine
from engines.rules import Severity
from tests.engines.deck_building import card, cards, codes, problems

FATES = "conquest-of-fates"
NO_FACTION_LIMIT = "the rulebook does not limit a deck to one faction"


def fates_deck(n=30, celestial=True):
    deck = cards(n - (2 if celestial else 1), factions=["Choir"], cq=2)
    deck.append(card("Top Unit", keywords=["Apex"], factions=["Choir"], cq=8))
    if celestial:
        deck.append(card("Star", "Celestial", factions=["Choir"]))
    return deck


def test_a_fates_deck_with_one_celestial_and_one_apex_is_legal():
    assert problems(FATES, "standard", fates_deck(), "Choir") == []


def test_a_second_celestial_makes_the_deck_illegal():
    found = problems(
        FATES, "standard", [*fates_deck(), card("Nova", "Celestial", factions=["Choir"])], "Choir"
    )
    [problem] = found
    assert problem.code == "type_limit"
    assert problem.cards == ("Nova", "Star")
    assert "2 Celestial cards" in problem.message and "1 too many" in problem.message


@pytest.mark.parametrize("fmt", ["standard", "homeworld"])
def test_a_second_apex_unit_makes_the_deck_illegal(fmt):
    deck = fates_deck(celestial=fmt == "standard")
    found = problems(FATES, fmt, [*deck, card("Rival", keywords=["Apex"], factions=["Choir"])])
    assert codes(found) == ["attribute_limit"]


@pytest.mark.parametrize("fmt", ["standard", "homeworld"])
def test_the_apex_limit_states_its_reading_of_one_per_deck_as_one_apex_unit_in_all(fmt):
    # Terms & Clarifications, APEX: "Apex units have a / special deck-building restriction
    # of 1 per Deck." One Apex unit in all, or one copy of each: the rule says which it takes.
    engine_format = get_engine(FATES).format(fmt)
    assert engine_format is not None
    [apex] = [r for r in engine_format.rules if r.as_dict()["params"].get("keyword") == "Apex"]
    assert "special deck-building restriction of 1 per Deck" in apex.source
    assert "Reading:" in apex.source and "one Apex unit in total" in apex.source
    deck = fates_deck(celestial=fmt == "standard")
    two_different = [*deck, card("Rival", keywords=["Apex"], factions=["Choir"])]
    assert codes(problems(FATES, fmt, two_different, "Choir")) == ["attribute_limit"]


def test_one_faction_in_conquest_of_fates_is_only_a_warning():
    found = problems(FATES, "standard", [*fates_deck(), card("Spy", factions=["Tithe"])], "Choir")
    assert codes(found) == []
    assert codes(found, Severity.WARNING) == ["faction_mismatch"]
    [warning] = found
    assert "Spy" in warning.message
    assert NO_FACTION_LIMIT in warning.message
    assert "publisher's guidelines, which it does not print" in warning.message


def test_a_deck_mixing_factions_without_a_chosen_one_is_also_only_a_warning():
    deck = cards(15, factions=["Choir"]) + cards(15, prefix="Other", factions=["Tithe"])
    found = problems(FATES, "standard", deck)
    assert codes(found) == [] and codes(found, Severity.WARNING) == ["faction_mismatch"]
    assert NO_FACTION_LIMIT in found[0].message


def test_fewer_cards_than_three_supply_drops_is_a_warning_not_an_error():
    found = problems(FATES, "standard", fates_deck(20), "Choir")
    assert codes(found) == []
    assert codes(found, Severity.WARNING) == ["deck_size"]
    assert "at least 21 (1 short)" in found[0].message


def test_the_fates_deck_size_is_a_setting_unchecked_until_set():
    assert problems(FATES, "standard", fates_deck(30), "Choir") == []
    found = problems(FATES, "standard", fates_deck(30), "Choir", settings={"deck_size": 40})
    assert codes(found) == ["deck_size"]
    assert "exactly 40 (10 short)" in found[0].message


def test_an_empty_fates_deck_is_illegal_though_the_rulebook_gives_no_deck_size():
    assert codes(problems(FATES, "standard", [], "Choir")) == ["empty_deck"]


# --- Homeworld -----------------------------------------------------------------------------


def test_a_homeworld_deck_without_a_celestial_is_legal():
    assert problems(FATES, "homeworld", fates_deck(celestial=False), "Choir") == []


def test_a_homeworld_deck_may_hold_no_celestial():
    found = problems(FATES, "homeworld", fates_deck(), "Choir")
    assert codes(found) == ["type_not_allowed"]
    assert found[0].cards == ("Star",)
    assert "Players may not include additional Celestial bodies" in found[0].source


def test_homeworld_keeps_the_standard_deck_size_setting_and_supply_drop_warning():
    homeworld = get_engine(FATES).format("homeworld")
    assert [s.key for s in homeworld.settings] == ["deck_size"]
    found = problems(FATES, "homeworld", fates_deck(20, celestial=False), "Choir")
    assert codes(found) == [] and codes(found, Severity.WARNING) == ["deck_size"]
    sized = problems(
        FATES, "homeworld", fates_deck(30, celestial=False), "Choir", settings={"deck_size": 31}
    )
    assert codes(sized) == ["deck_size"]


def test_mixing_factions_in_a_homeworld_deck_is_only_a_warning():
    deck = [*fates_deck(celestial=False), card("Spy", factions=["Tithe"])]
    found = problems(FATES, "homeworld", deck, "Choir")
    assert codes(found) == [] and codes(found, Severity.WARNING) == ["faction_mismatch"]
