"""Conquest for the Capital's faction deck: the faction's own 12 Battle and 8 Upgrade cards."""

from engines import get_engine
from engines.rules import CopyLimit
from tests.engines.deck_building import card, cards, codes, problems

CAPITAL = "conquest-for-the-capital"


def capital_deck(faction="Dwarves"):
    return cards(
        12, prefix="Battle", card_type="Battle", zone="battle", factions=[faction]
    ) + cards(8, prefix="Upgrade", card_type="Upgrade", zone="upgrade", factions=[faction])


def test_a_factions_twelve_battle_and_eight_upgrade_cards_are_legal():
    assert problems(CAPITAL, "faction-deck", capital_deck(), "Dwarves") == []


def test_an_eleventh_battle_card_short_is_a_zone_size_problem():
    found = problems(CAPITAL, "faction-deck", capital_deck()[1:], "Dwarves")
    assert codes(found) == ["zone_size"]
    assert "Battle deck has 11 cards" in found[0].message


def test_a_duplicate_battle_card_makes_a_capital_faction_deck_illegal():
    deck = capital_deck()
    deck[0] = card("Battle 5", "Battle", zone="battle", factions=["Dwarves"])
    found = problems(CAPITAL, "faction-deck", deck, "Dwarves")
    assert codes(found) == ["singleton"]
    assert found[0].cards == ("Battle 5",)
    assert found[0].message.startswith("Battle 5 appears 2 times")


def test_a_duplicate_upgrade_card_makes_a_capital_faction_deck_illegal():
    deck = capital_deck()[:-2]
    deck.append(card("Upgrade 0", "Upgrade", zone="upgrade", quantity=2, factions=["Dwarves"]))
    found = problems(CAPITAL, "faction-deck", deck, "Dwarves")
    assert codes(found) == ["singleton"] and found[0].cards == ("Upgrade 0",)


def test_another_factions_card_in_a_capital_deck_is_illegal():
    deck = [*capital_deck()[:-1], card("Orc Upgrade", "Upgrade", zone="upgrade", factions=["Orcs"])]
    assert codes(problems(CAPITAL, "faction-deck", deck, "Dwarves")) == ["faction_mismatch"]


def test_the_elf_special_card_whose_type_the_rulebook_does_not_give_is_kept_out_of_a_deck():
    # Game Components: "1 Elf Special Card", apart from what "Each factions comes with";
    # Faction Rules, Elves: "Begin the game with 6 units and the Elf Special card."
    deck = [*capital_deck("Elves"), card("Elf Special Card", "", zone="battle", factions=["Elves"])]
    found = problems(CAPITAL, "faction-deck", deck, "Elves")
    assert "card_not_allowed" in codes(found)
    assert "Elf Special Card" in next(p for p in found if p.code == "card_not_allowed").cards


def test_capital_declares_no_elf_special_card_type_the_rulebook_never_names():
    assert get_engine(CAPITAL).card_type("Elf Special") is None


def test_each_card_once_in_the_battle_and_upgrade_decks_is_a_reading_stated_in_its_source():
    # Game Components: "12 Battle Cards", "8 Upgrade Cards": the rulebook never says "once".
    fmt = get_engine(CAPITAL).format("faction-deck")
    assert fmt is not None
    once = [r for r in fmt.rules if isinstance(r, CopyLimit)]
    assert [r.zone for r in once] == ["battle", "upgrade"]
    for rule in once:
        assert "Reading: the rulebook does not say that each card is printed once" in rule.source
