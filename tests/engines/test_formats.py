"""Every rule of every format, with legal and illegal decks built to the rulebooks' numbers."""

import pytest

from engines import ENGINES, get_engine
from engines.rules import Deck, DeckCard, Severity, infer_faction


def card(name, card_type="Unit", zone="main", quantity=1, factions=(), keywords=(), **stats):
    return DeckCard(
        key=name,
        name=name,
        card_type=card_type,
        zone=zone,
        quantity=quantity,
        factions=tuple(factions),
        keywords=tuple(keywords),
        stats=stats,
    )


def cards(n, prefix="Card", **kwargs):
    return [card(f"{prefix} {i}", **kwargs) for i in range(n)]


def problems(game, fmt, deck_cards, faction=None, settings=None):
    return get_engine(game).format(fmt).validate(Deck(tuple(deck_cards), faction), settings)


def codes(found, severity=Severity.ERROR):
    return sorted(p.code for p in found if p.severity == severity)


def test_every_game_declares_the_formats_the_site_offers():
    assert {slug: [f.slug for f in e.formats] for slug, e in ENGINES.items()} == {
        "conquest-of-fates": ["standard"],
        "conquest-of-orion": ["constructed", "limited"],
        "fate-foretold": ["nest", "speed-run"],
        "conquest-for-the-capital": ["faction-deck"],
        "conquest-alpha-tactics": [
            "faction-deck",
            "targets",
            "targets-short-2p",
            "targets-short-3p",
        ],
    }


def test_every_rule_names_its_rulebook_source_and_describes_itself():
    for engine in ENGINES.values():
        for fmt in engine.formats:
            for rule in fmt.rules:
                assert rule.source, (engine.slug, fmt.slug, rule)
                assert rule.as_dict()["description"]


# --- Conquest of Fates ---------------------------------------------------------------------

FATES = "conquest-of-fates"


def fates_deck(n=30, **extra):
    deck = cards(n - 2, factions=["Choir"], cq=2)
    deck.append(card("Star", "Celestial", factions=["Choir"]))
    deck.append(card("Top Unit", keywords=["Apex"], factions=["Choir"], cq=8))
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


def test_a_second_apex_unit_makes_the_deck_illegal():
    found = problems(
        FATES,
        "standard",
        [*fates_deck(), card("Rival", keywords=["Apex"], factions=["Choir"])],
        "Choir",
    )
    assert codes(found) == ["attribute_limit"]


def test_a_unit_of_another_faction_makes_a_fates_deck_illegal():
    found = problems(FATES, "standard", [*fates_deck(), card("Spy", factions=["Tithe"])], "Choir")
    assert codes(found) == ["faction_mismatch"]
    assert "Spy" in found[0].message


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


# --- Conquest of Orion ---------------------------------------------------------------------

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


def test_a_planet_is_never_allowed_in_an_orion_deck():
    deck = [*cards(49, factions=["Humans"]), card("Ice Planet", "Planet")]
    found = problems(ORION, "constructed", deck, "Humans")
    assert codes(found) == ["type_not_allowed"]
    assert found[0].cards == ("Ice Planet",)


# --- Fate Foretold -------------------------------------------------------------------------

FATE = "fate-foretold"


def nest(n=60):
    return cards(n, card_type="Nest Card", zone="nest", factions=["Heart"])


@pytest.mark.parametrize("fmt", ["nest", "speed-run"])
def test_a_nest_of_sixty_unique_cards_with_sigils_outside_is_legal(fmt):
    sigils = cards(6, prefix="Sigil", card_type="Sigil", zone="sigils", factions=["Heart", "Soul"])
    assert problems(FATE, fmt, nest() + sigils) == []


def test_a_nest_of_fifty_nine_cards_is_illegal():
    found = problems(FATE, "nest", nest(59))
    assert codes(found) == ["deck_size"] and "(1 short)" in found[0].message


def test_a_second_copy_of_a_card_breaks_the_nest():
    found = problems(FATE, "nest", [*nest(), card("Card 3", "Nest Card", zone="nest")])
    assert codes(found) == ["singleton"]
    assert found[0].cards == ("Card 3",)


def test_a_sigil_or_token_inside_the_nest_is_not_allowed():
    found = problems(
        FATE,
        "nest",
        [*nest(), card("King", "Sigil", zone="nest"), card("Mark", "Token", zone="nest")],
    )
    assert codes(found) == ["type_not_allowed"]
    assert found[0].cards == ("King", "Mark")


def test_more_than_six_sigils_is_illegal():
    sigils = cards(7, prefix="Sigil", card_type="Sigil", zone="sigils")
    assert codes(problems(FATE, "nest", nest() + sigils)) == ["zone_size"]


# --- Conquest for the Capital --------------------------------------------------------------

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


def test_another_factions_card_in_a_capital_deck_is_illegal():
    deck = [*capital_deck()[:-1], card("Orc Upgrade", "Upgrade", zone="upgrade", factions=["Orcs"])]
    assert codes(problems(CAPITAL, "faction-deck", deck, "Dwarves")) == ["faction_mismatch"]


def test_the_elf_special_card_is_not_part_of_a_deck():
    deck = [
        *capital_deck("Elves"),
        card("Elf Special Card", "Elf Special", zone="battle", factions=["Elves"]),
    ]
    assert "type_not_allowed" in codes(problems(CAPITAL, "faction-deck", deck, "Elves"))


# --- Star Trek Tactics ---------------------------------------------------------------------

TACTICS = "conquest-alpha-tactics"


def test_a_factions_thirty_three_cards_are_legal():
    assert (
        problems(
            TACTICS, "faction-deck", cards(33, card_type="Ship", factions=["Romulan"]), "Romulan"
        )
        == []
    )


def test_a_thirty_four_card_faction_deck_is_illegal():
    found = problems(
        TACTICS, "faction-deck", cards(34, card_type="Ship", factions=["Romulan"]), "Romulan"
    )
    assert codes(found) == ["deck_size"]


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
    assert codes(problems(TACTICS, "targets", deck)) == ["type_not_allowed"]


# --- shared ---------------------------------------------------------------------------------


def test_the_faction_is_inferred_from_the_cards_when_not_given():
    deck = cards(40, factions=["Humans"]) + cards(10, prefix="Raceless")
    assert infer_faction(deck) == "Humans"
    assert infer_faction(cards(3)) is None


def test_without_a_faction_a_deck_mixing_two_is_a_mismatch():
    deck = cards(25, factions=["Humans"]) + cards(25, prefix="Alien", factions=["Aliens"])
    assert codes(problems(ORION, "constructed", deck)) == ["faction_mismatch"]


def test_errors_are_listed_before_warnings():
    found = problems(
        FATES, "standard", [*fates_deck(19), card("Nova", "Celestial", factions=["Choir"])], "Choir"
    )
    assert [p.severity for p in found] == [Severity.ERROR, Severity.WARNING]


def test_a_copy_limit_above_one_reports_copy_limit_with_the_excess():
    from engines.rules import CopyLimit

    rule = CopyLimit(source="a test rule", maximum=3)
    deck = Deck((card("Grunt", quantity=2), card("Grunt", quantity=2), card("Other", quantity=3)))
    [problem] = rule.check(deck, {})
    assert (problem.code, problem.cards) == ("copy_limit", ("Grunt",))
    assert "Grunt appears 4 times" in problem.message and "(1 too many)" in problem.message
