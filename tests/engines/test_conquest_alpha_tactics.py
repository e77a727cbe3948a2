"""Star Trek - Conquest Alpha: Tactics: the faction deck and the target decks, full and short.

The Short Game rules name official target cards (Earth, Vulcan...), so these decks do too."""

from tests.engines.deck_building import card, cards, codes, problems

TACTICS = "conquest-alpha-tactics"


def test_a_factions_thirty_three_cards_are_legal():
    deck = cards(33, card_type="Ship", factions=["Romulan"])
    assert problems(TACTICS, "faction-deck", deck, "Romulan") == []


def test_a_thirty_four_card_faction_deck_is_illegal():
    deck = cards(34, card_type="Ship", factions=["Romulan"])
    assert codes(problems(TACTICS, "faction-deck", deck, "Romulan")) == ["deck_size"]


def test_a_target_card_in_a_faction_deck_is_not_allowed():
    deck = [
        *cards(32, card_type="Ship", factions=["Romulan"]),
        card("Earth", "Planet", factions=["Romulan"]),
    ]
    assert codes(problems(TACTICS, "faction-deck", deck, "Romulan")) == ["type_not_allowed"]


def targets(n, blue=0):
    deck = [card("Earth", "Planet", zone="targets", planet_type="federation")]
    deck += [
        card(f"Blue {i}", "Planet", zone="targets", planet_type="federation") for i in range(blue)
    ]
    deck += [card(f"Target {i}", "Sector", zone="targets") for i in range(n - 1 - blue)]
    return deck


def test_a_target_deck_of_twenty_four_is_legal():
    assert problems(TACTICS, "targets", targets(24, blue=8)) == []


def test_the_two_player_short_game_keeps_earth_and_no_other_blue_target():
    assert problems(TACTICS, "targets-short-2p", targets(16)) == []
    found = problems(TACTICS, "targets-short-2p", targets(16, blue=1))
    assert codes(found) == ["card_not_allowed"]
    assert found[0].cards == ("Blue 0",)


def test_the_three_player_short_game_removes_four_named_targets():
    assert problems(TACTICS, "targets-short-3p", targets(20)) == []
    deck = [*targets(19), card("Vulcan", "Planet", zone="targets")]
    found = problems(TACTICS, "targets-short-3p", deck)
    assert codes(found) == ["card_not_allowed"] and found[0].cards == ("Vulcan",)


def test_a_player_card_in_a_target_deck_is_not_allowed():
    deck = [*targets(23), card("Galaxy", "Ship", zone="targets")]
    assert codes(problems(TACTICS, "targets", deck)) == ["card_not_allowed"]


def test_a_card_with_an_effect_type_but_no_type_or_faction_is_no_target():
    # 8.1 Types of Card Effects: "There are five types of effects on player cards". The
    # rulebook names the Delta Flyer (Permanent Effect) without a type or a faction.
    delta_flyer = card("Delta Flyer", "", zone="targets", keywords=["Permanent Effect"])
    found = problems(TACTICS, "targets", [*targets(23), delta_flyer])
    assert codes(found) == ["card_not_allowed"]
    assert found[0].cards == ("Delta Flyer",)
    assert "8.1 Types of Card Effects" in found[0].source


def test_surak_the_galaxys_counterpart_and_the_teleporter_are_refused_from_a_target_deck():
    # 9.1: "Galaxy / Surak / Vor'Cha / D'Deridex", one player card in four decks. 8.2, Note:
    # "The Teleporter can be placed over a blockade"; 6 Round Overview: players "place their
    # hand cards face down under the four target cards". Target cards are laid out, never
    # placed, so the Teleporter is a player card, by inference, which the rule says.
    surak = card("Surak", "", zone="targets", keywords=["Scoring Effect"])
    teleporter = card("Teleporter", "", zone="targets")
    found = problems(TACTICS, "targets", [*targets(22), surak, teleporter])
    assert codes(found) == ["card_not_allowed"]
    assert set(found[0].cards) == {"Surak", "Teleporter"}
    assert "Inferred: 8.2, Note: 'The Teleporter can be placed over a blockade'" in found[0].source


def test_the_short_game_target_decks_refuse_player_cards_too():
    for fmt, size in (("targets-short-2p", 16), ("targets-short-3p", 20)):
        flyer = card("Delta Flyer", "", zone="targets", keywords=["Permanent Effect"])
        deck = [card(f"Sector {i}", "Sector", zone="targets") for i in range(size - 1)]
        assert "card_not_allowed" in codes(problems(TACTICS, fmt, [*deck, flyer]))


def test_a_card_whose_type_is_not_stated_goes_in_its_factions_deck_or_the_target_pile():
    from engines import get_engine

    engine = get_engine("conquest-alpha-tactics")
    assert engine.zone_for(None, ("Starfleet",)) == "main"
    assert engine.zone_for(None, ()) == "targets"
    assert engine.zone_for("Planet", ()) == "targets"
    # 8.1: an effect type marks a player card, even one whose faction is not given.
    assert engine.zone_for(None, (), ("Permanent Effect",)) == "main"
