"""Facts stated in the rulebooks, checked against the loaded fixtures.

Each test names the rulebook section it comes from. Values a rulebook does not give must be
absent, so some tests check that nothing was guessed.
"""

import pytest

from cardsite.catalogue.models import Card, CardSet, Faction, Game, Keyword, Rarity, Term

pytestmark = pytest.mark.django_db


def card(game: str, name: str) -> Card:
    return Card.objects.get(game__slug=game, card_set__is_official=True, name=name)


def keyword(game: str, name: str) -> Keyword:
    return Keyword.objects.get(game__slug=game, name=name)


# --- Conquest of Fates ---------------------------------------------------------------------


def test_fates_is_played_over_three_battles_by_two_or_more_in_twenty_to_thirty_minutes():
    game = Game.objects.get(slug="conquest-of-fates")  # game overview
    assert (game.players, game.play_time) == ("2+", "20-30 minutes")


def test_fates_apex_is_an_attribute_limited_to_one_per_deck():
    apex = keyword("conquest-of-fates", "Apex")  # Terms & Clarifications: APEX
    assert apex.kind == "attribute"
    assert "1 per Deck" in apex.reminder_text


def test_fates_has_the_attributes_and_ring_effects_the_rules_name():
    names = set(
        Keyword.objects.filter(game__slug="conquest-of-fates").values_list("name", flat=True)
    )
    assert {"Apex", "Core", "Lightspeed", "Forcefield", "Mute", "Plague", "Upload"} <= names


def test_fates_plague_sets_cq_to_minus_one_and_forcefield_protects_from_it():
    assert "CQ becomes -1" in keyword("conquest-of-fates", "Plague").reminder_text  # Ring Effects
    assert (
        "can not be destroyed, muted, or plagued"
        in keyword("conquest-of-fates", "Forcefield").reminder_text
    )


def test_fates_hand_size_is_ten_cards():
    assert (
        "maximum hand size is 10 cards"
        in Term.objects.get(game__slug="conquest-of-fates", name="Hand Size").text
    )


def test_fates_forward_skirmish_is_locations_one_to_four():
    text = Term.objects.get(game__slug="conquest-of-fates", name="Forward Skirmish Zone").text
    assert "Location 1 through Location 4" in text


def test_fates_rulebook_names_no_factions_and_no_cards_so_none_are_official():
    assert not Faction.objects.filter(game__slug="conquest-of-fates", is_official=True).exists()
    assert not Card.objects.filter(
        game__slug="conquest-of-fates", card_set__is_official=True
    ).exists()


# --- Conquest of Orion ---------------------------------------------------------------------


def test_orion_rarities_are_copper_silver_gold_in_that_order():
    # §1.1 Parts of a Card, 1. Set and Rarity Icon
    names = list(
        Rarity.objects.filter(game__slug="conquest-of-orion")
        .order_by("order")
        .values_list("name", flat=True)
    )
    assert names == ["Copper", "Silver", "Gold"]


@pytest.mark.parametrize(
    ("name", "stats"),
    [
        ("Cloudglider", {"damage": 4, "health": 5}),  # §1.12: "a 4 5 Cloudglider"
        ("Plated Voyager", {"damage": 3, "health": 12}),  # §1.12: "a 3 12 Plated Voyager"
        ("Heliokraken", {"damage": 5, "health": 3}),  # §1.12: "a 5 3 Heliokraken"
        ("Osiris", {"shields": 2}),  # §1.12: shields absorb 2 of 5 damage
        ("Forerunner", {"damage": 2}),  # §1.12: defending units deal 2 damage each
        ("Ice Planet", {"damage": 2}),  # §1.12: "as well as the planet itself"
    ],
)
def test_orion_example_units_have_exactly_the_stats_the_worked_example_gives(name, stats):
    assert card("conquest-of-orion", name).stats == stats


def test_orion_rulebook_cards_have_no_guessed_race_cost_or_tier():
    for unit in Card.objects.filter(card_set__code="ORI-RB"):
        assert not unit.factions.exists(), unit.name
        assert not {"cost_blue", "cost_gold", "cost_red", "tier"} & set(unit.stats), unit.name
    assert "does not give this card's race" in card("conquest-of-orion", "Cloudglider").notes


def test_orion_planets_are_planets_and_the_commons_are_ice_rock_and_lava():
    for name in ["Ice Planet", "Rock Planet", "Lava Planet", "Iamur"]:
        assert card("conquest-of-orion", name).card_type.name == "Planet"
        assert card("conquest-of-orion", name).card_type.zone == ""  # never in a deck (§1.8.2)


def test_orion_racial_keywords_belong_to_their_races():
    # §2.2 Racial keywords
    assert [f.name for f in keyword("conquest-of-orion", "Orbital range").factions.all()] == [
        "Humans"
    ]
    assert [f.name for f in keyword("conquest-of-orion", "Ambush").factions.all()] == ["Aliens"]
    assert keyword("conquest-of-orion", "Guardian").kind == "evergreen"
    assert keyword("conquest-of-orion", "Ambush").kind == "racial"


def test_orion_keyword_reminder_text_is_as_printed():
    assert keyword("conquest-of-orion", "Swiftness").reminder_text == (
        "This can assault planets the turn it entered the galaxy."
    )


def test_orion_races_are_kind_race():
    kinds = dict(Faction.objects.filter(game__slug="conquest-of-orion").values_list("name", "kind"))
    assert kinds["Humans"] == kinds["Aliens"] == "race"


def test_orion_archive_card_has_no_type_as_section_1_16_gives_none():
    # §1.16 Archive Card: "The Archive card is where you track your resource pool and your
    # current Tier ..." then "Coming Soon": no card type.
    archive = card("conquest-of-orion", "Archive card")
    assert archive.card_type is None
    assert "Its card type is not given" in archive.notes


def test_orion_iamurs_produces_keyword_is_marked_inferred():
    # §1.12: "Damage dealt to basic and/or unique planets (more specifically: units and
    # planets with the "produces" keyword)": Iamur's keywords are never printed.
    iamur = card("conquest-of-orion", "Iamur")
    assert [k.name for k in iamur.keywords.all()] == ["Produces"]
    assert iamur.inferred == ["keywords"]
    assert "Its produces keyword is inferred, not stated" in iamur.notes


@pytest.mark.parametrize("name", ["Torian", "Destroyer"])
def test_orion_torian_and_destroyer_are_races_only_by_inference(name):
    # §2.2 Racial keywords, its last line: "Torian and Destroyer keywords coming soon."
    race = Faction.objects.get(game__slug="conquest-of-orion", name=name)
    assert race.description.startswith("Its being a race is inferred, not stated")
    assert "Torian and Destroyer keywords coming soon." in race.description


# --- Fate Foretold -------------------------------------------------------------------------


def test_fate_is_for_three_to_six_players():
    assert Game.objects.get(slug="fate-foretold").players == "3-6"


def test_fate_has_four_suits():
    suits = Faction.objects.filter(game__slug="fate-foretold")
    assert sorted(suits.values_list("name", flat=True)) == ["Body", "Heart", "Mind", "Soul"]
    assert set(suits.values_list("kind", flat=True)) == {"suit"}


def test_fate_the_insight_has_its_printing_error_as_errata():
    insight = card("fate-foretold", "The Insight")  # Individual Card Rulings, The Insight, 2
    [errata] = insight.errata.all()
    assert 'Should read "another player"' in errata.text
    assert insight.rulings.count() == 2


def test_fate_the_four_horses_are_war_famine_pestilence_and_death():
    horses = Card.objects.filter(
        game__slug="fate-foretold", subtypes__name="Horse of the Apocalypse"
    )
    assert sorted(horses.values_list("name", flat=True)) == [
        "Death, the Pale Horse",
        "Famine",
        "Pestilence, the Black Horse",
        "War",
    ]


def test_fate_cancer_ruling_says_three_is_not_more_than_three():
    assert card("fate-foretold", "Cancer, the Crab").rulings.get().text == "3 is not more than 3."


def test_fate_king_and_queen_are_sigils_and_no_suit_was_guessed():
    assert card("fate-foretold", "King").card_type.name == "Sigil"
    assert card("fate-foretold", "Queen").card_type.name == "Sigil"
    assert not Card.objects.filter(card_set__code="FF-RB", factions__isnull=False).exists()


def test_fate_rule_four_is_draw_and_play_or_draw_two():
    text = Term.objects.get(game__slug="fate-foretold", name__startswith="Rule 4").text
    assert "draw 1 card and play 1 card or draw 2 cards" in text


def test_fate_foretold_gives_no_card_a_constellation_classification():
    # Individual Card Rulings, Death, the Pale Horse, 2: "the player controlling Taurus can't
    # choose any of their constellation cards to keep": the rules never say which cards.
    cards = Card.objects.filter(game__slug="fate-foretold")
    assert not cards.filter(subtypes__name="Constellation").exists()
    taurus = card("fate-foretold", "Taurus, the Bull")
    assert "the rules do not list which cards are constellation cards" in taurus.notes
    assert "no classification is recorded" in taurus.notes


def test_fate_foretold_terms_hold_the_convergence_and_its_turn():
    entering = Term.objects.get(game__slug="fate-foretold", name="Convergence of Fate").text
    assert (
        "shuffle the cards in your hand and place them face down in a single stack in front "
        "of you" in entering
    )
    turn = Term.objects.get(game__slug="fate-foretold", name="Convergence turn").text
    assert "follow these steps instead of the normal steps of a turn" in turn
    assert (
        "Step 2: Reveal: Reveal a card either from the top of the Nest or from your own "
        "stack of face-down cards." in turn
    )
    assert "Step 4: End: End your turn." in turn


# --- Conquest for the Capital --------------------------------------------------------------


def test_capital_is_for_four_players_and_four_factions():
    assert Game.objects.get(slug="conquest-for-the-capital").players == "4"
    factions = Faction.objects.filter(game__slug="conquest-for-the-capital")
    assert sorted(factions.values_list("name", flat=True)) == ["Dwarves", "Elves", "Orcs", "Undead"]


def test_capital_battle_keywords_are_replacement_counter_and_removal():
    keywords = Keyword.objects.filter(game__slug="conquest-for-the-capital")
    assert sorted(keywords.values_list("name", flat=True)) == ["Counter", "Removal", "Replacement"]
    assert set(keywords.values_list("kind", flat=True)) == {"battle"}
    assert keyword("conquest-for-the-capital", "Replacement").reminder_text == (
        "Replacement will prevent loss of units."
    )


def test_capital_undead_begin_with_seven_units():
    undead = Faction.objects.get(game__slug="conquest-for-the-capital", name="Undead")
    assert "Begin the game with 7 units" in undead.description


def test_capital_elves_begin_with_the_elf_special_card_whose_type_is_not_given():
    # Faction Rules, Elves: "Begin the game with 6 units and the Elf Special card." No type.
    elf_card = card("conquest-for-the-capital", "Elf Special Card")
    assert elf_card.card_type is None
    assert [f.name for f in elf_card.factions.all()] == ["Elves"]
    assert elf_card.stats == {} and elf_card.rules_text == ""


def test_capital_mountain_gives_the_defender_two_defence_per_invader():
    text = Term.objects.get(game__slug="conquest-for-the-capital", name="Mountain").text
    assert "+2 defence per Invader" in text


# --- Star Trek - Conquest Alpha: Tactics ---------------------------------------------------


def test_tactics_has_four_factions_with_their_abbreviations():
    # 4 Card Anatomy, 5. Faction Abbreviation
    factions = dict(
        Faction.objects.filter(game__slug="conquest-alpha-tactics").values_list(
            "name", "abbreviation"
        )
    )
    assert factions == {"Starfleet": "S", "Vulcan": "V", "Romulan": "R", "Klingon": "K"}


def test_tactics_effect_types_are_p_s_o_x_n():
    effects = dict(
        Keyword.objects.filter(game__slug="conquest-alpha-tactics", kind="effect_type").values_list(
            "abbreviation", "name"
        )
    )
    assert effects == {
        "P": "Permanent Effect",
        "S": "Scoring Effect",
        "O": "One-time Effect",
        "X": "Special Effect",
        "N": "No Effect",
    }


def test_tactics_space_mines_have_ten_combat_power_and_a_one_time_effect():
    mines = card("conquest-alpha-tactics", "Space Mines")  # 6.1 Examples 2 and 3
    assert mines.stats == {"combat_power": 10}
    assert [k.name for k in mines.keywords.all()] == ["One-time Effect"]


@pytest.mark.parametrize(
    ("name", "power"),
    [
        ("Infantry", 15),  # 6.3 Example A, 1st row
        ("Galaxy", 7),  # 6.3 Example A, 1st row
        ("Boarding Party", 8),  # 6.3 Example A, 2nd row
        ("Shuttle", 5),  # 6.3 Example A, 2nd row
        ("D'Ritdthau", 3),  # 6.3 Example A, 2nd row: "base combat power (3)"
        ("Quantum Torpedoes", 7),  # 6.3 Example A, 4th row: 40 - 33
        ("Admiral", 0),  # 6.3 Example B, 3rd row: "it is 0 for the Admiral"
    ],
)
def test_tactics_combat_powers_from_the_scoring_examples(name, power):
    assert card("conquest-alpha-tactics", name).stats["combat_power"] == power


def test_tactics_raptor_is_a_klingon_special_effect_card():
    raptor = card("conquest-alpha-tactics", "Raptor")  # 6.1 Example 3
    assert [f.name for f in raptor.factions.all()] == ["Klingon"]
    assert [k.name for k in raptor.keywords.all()] == ["Special Effect"]
    assert "combat_power" not in raptor.stats


def test_tactics_earth_is_a_blue_federation_planet_and_romulus_an_imperial_one():
    assert card("conquest-alpha-tactics", "Earth").stats["planet_type"] == "federation"  # 9.3, 8.2
    assert card("conquest-alpha-tactics", "Romulus").stats["planet_type"] == "imperial"  # 6.3 Ex. A


def test_tactics_short_game_targets_are_all_named_as_target_cards_of_no_stated_type():
    # 9.3 Short Game: the 3-player game removes these four from the target card pile, and
    # says nothing of their types
    for name in ["Cestus 3", "Vulcan", "P'Jem", "Tellar Prime"]:
        target = card("conquest-alpha-tactics", name)
        assert target.card_type is None
        assert "A target card" in target.notes


# The only types the rulebook states: "the planet „Earth“" (9.3), "an imperial planet
# (Romulus)" and "a ship (D'Ritdthau)" (6.3 Example A), "Weapons ... (e.g., Phaser)" (9.1).
STATED_TACTICS_TYPES = {
    "Earth": "Planet",
    "Romulus": "Planet",
    "D'Ritdthau": "Ship",
    "Phaser": "Weapon",
}


def test_tactics_cards_have_a_type_only_where_the_rulebook_states_it():
    types = dict(
        Card.objects.filter(card_set__code="TAC-RB").values_list("name", "card_type__name")
    )
    assert {name: t for name, t in types.items() if t is not None} == STATED_TACTICS_TYPES
    assert types["Alpha Quadrant"] is None  # its name is not a statement of its type
    assert types["Disruptor Beam"] is None  # reinforcing a ship only suggests a Weapon


def test_tactics_example_a_first_row_only_implies_a_weapon_among_its_player_cards():
    # 6.3 Example A, 1st row: the Tactical Officer counts one "Weapon" type player card among
    # the Galaxy, itself and the Romulan Infantry, without saying which it is.
    for name in ("Galaxy", "Tactical Officer", "Infantry"):
        row_card = card("conquest-alpha-tactics", name)
        assert row_card.card_type is None
        assert "implies that one of the player cards in that row" in row_card.notes
        assert "is of type Weapon" in row_card.notes


def test_tactics_starfleet_fields_a_deflector_in_example_b():
    # 6.3 Example B, 3rd row: "The Deflector tries to steal the Admiral's combat power", and
    # the Admiral there is the Romulans'
    deflector = card("conquest-alpha-tactics", "Deflector Shield")
    assert {f.name for f in deflector.factions.all()} == {"Romulan", "Starfleet"}
    assert "Starfleet fields one too" in deflector.notes
    starfleet = Card.objects.filter(card_set__code="TAC-RB", factions__name="Starfleet")
    assert starfleet.filter(name="Deflector Shield").exists()


def test_tactics_values_copied_from_the_galaxy_are_marked_inferred():
    # 9.1 names "Galaxy / Surak / Vor'Cha / D'Deridex" as one card; only the Galaxy's
    # combat power (6.3 Example A) and effect type (8.2) are given.
    assert card("conquest-alpha-tactics", "Galaxy").inferred == []
    for name in ("D'Deridex", "Surak", "Vor'Cha"):
        copy = card("conquest-alpha-tactics", name)
        assert copy.stats == {"combat_power": 7}
        assert copy.inferred == ["stats.combat_power", "keywords"]
        assert "functionally identical" in copy.notes


def test_tactics_only_cards_with_copied_or_implied_values_list_any_inferred_field():
    inferred = {
        c.name: c.inferred for c in Card.objects.filter(card_set__code="TAC-RB") if c.inferred
    }
    assert inferred == {
        "D'Deridex": ["stats.combat_power", "keywords"],
        "Surak": ["stats.combat_power", "keywords"],
        "Vor'Cha": ["stats.combat_power", "keywords"],
        "Disruptor Beam": ["keywords", "rulings"],
        "Quantum Torpedoes": ["keywords", "rulings"],
        "Deflector Shield": ["factions"],
    }


def test_tactics_quantum_torpedoes_scoring_effect_is_inferred_from_an_unnamed_note():
    # 8.2, a Scoring Effect note that names no card: "These cards bring combat power to the
    # player (3, 5, 7) even without ships in this row."
    torpedoes = card("conquest-alpha-tactics", "Quantum Torpedoes")
    assert [k.name for k in torpedoes.keywords.all()] == ["Scoring Effect"]
    assert "keywords" in torpedoes.inferred
    assert "These cards bring combat power to the player (3, 5, 7)" in torpedoes.notes


def test_tactics_the_alliances_weapon_ruling_is_inferred_where_it_is_attached():
    # 9.1: "Weapons that reinforce your own ships (e.g., Phaser): They benefit both your own
    # and allied ships." Neither card is named there, nor said to be a Weapon.
    for name in ("Quantum Torpedoes", "Disruptor Beam"):
        reinforcer = card("conquest-alpha-tactics", name)
        assert "Weapons that reinforce your own ships" in reinforcer.rulings.get().text
        assert "rulings" in reinforcer.inferred
        assert "so the ruling is inferred" in reinforcer.notes


def test_tactics_deflector_shields_starfleet_faction_is_inferred_from_example_b():
    # 6.3 Example B, 3rd row: "The Deflector tries to steal the Admiral's combat power";
    # 1st row: "the Romulans' Deflector Shield" is the one faction stated.
    deflector = card("conquest-alpha-tactics", "Deflector Shield")
    assert deflector.inferred == ["factions"]
    assert "its Starfleet faction is inferred from that example, not stated" in deflector.notes


def test_tactics_rulebook_set_does_not_claim_every_value_is_stated():
    description = CardSet.objects.get(code="TAC-RB").description
    assert "with only the values the rulebook states" not in description
    assert "inferred" in description
    assert "most card types, is left empty" in description


def test_tactics_no_target_card_victory_points_were_guessed():
    assert not Card.objects.filter(
        card_set__code="TAC-RB", stats__has_key="victory_points"
    ).exists()
