"""Playtesting by hand: every game's table, replayed from (deck, seed, actions)."""

import pytest

from engines import ENGINES, get_engine
from engines.playtest import MAX_ACTIONS, ActionError, playtest
from tests.engines.deck_building import card, cards

ORION = "conquest-of-orion"
FATES = "conquest-of-fates"
CAPITAL = "conquest-for-the-capital"
TACTICS = "conquest-alpha-tactics"
FORETOLD = "fate-foretold"


def orion_deck():
    return cards(50, factions=["Terran"])


def fates_deck():
    return [*cards(39, cq=2), card("Star", "Celestial", cq=0)]


def capital_deck():
    return cards(12, prefix="Battle", card_type="Battle", zone="battle") + cards(
        8, prefix="Upgrade", card_type="Upgrade", zone="upgrade"
    )


def tactics_deck():
    targets = [card(f"Target {i}", "Sector", zone="targets", victory_points=i) for i in range(8)]
    return cards(33, card_type="Ship", factions=["Romulan"]) + targets


def foretold_deck():
    sigils = [card(f"Sigil {i}", "Sigil", zone="sigils") for i in range(6)]
    return cards(60, card_type="Nest Card", zone="nest") + sigils


DECKS = {
    ORION: orion_deck,
    FATES: fates_deck,
    CAPITAL: capital_deck,
    TACTICS: tactics_deck,
    FORETOLD: foretold_deck,
}


def play(game, actions=(), seed=1):
    return playtest(get_engine(game), DECKS[game](), seed=seed, actions=list(actions))


def ids(result, zone):
    return [v.id for v in result.state.zones[zone]]


def names(result, zone):
    return [v.card.name if v.card else None for v in result.state.zones[zone]]


def test_every_game_declares_a_table_holding_each_of_its_deck_zones():
    for engine in ENGINES.values():
        held = {z for zone in engine.table.zones for z in zone.holds}
        assert held == {z.slug for z in engine.zones}, engine.slug


@pytest.mark.parametrize("game", DECKS)
def test_the_same_deck_seed_and_actions_give_the_same_table(game):
    actions = [{"do": "draw"}, {"do": "shuffle", "zone": get_engine(game).table.deck}]
    assert play(game, actions) == play(game, actions)
    assert names(play(game, seed=2), "hand") != names(play(game, seed=1), "hand")


@pytest.mark.parametrize("game", DECKS)
def test_every_card_keeps_its_id_through_a_session(game):
    result = play(game)
    card_id = ids(result, "hand")[0]
    moved = play(game, [{"do": "discard", "card": card_id}] if game != CAPITAL else [])
    every = [v.id for zone in moved.state.zones.values() for v in zone]
    assert card_id in every and len(every) == len(set(every))


@pytest.mark.parametrize("game", DECKS)
def test_the_opening_deals_the_games_opening_hand(game):
    result = play(game)
    assert len(result.state.zones["hand"]) == get_engine(game).hand.opening
    assert result.state.step == get_engine(game).table.opening_name


@pytest.mark.parametrize("game", DECKS)
def test_a_face_down_pile_hides_its_cards_from_the_player(game):
    table = get_engine(game).table
    deck = play(game).state.zones[table.deck]
    assert deck and all(v.card is None and not v.face_up for v in deck)


def test_orions_exchange_puts_the_chosen_cards_on_the_bottom_and_draws_that_many():
    before = play(ORION)
    out = ids(before, "hand")[:2]
    after = play(ORION, [{"do": "mulligan", "cards": out}])
    assert ids(after, "deck")[-2:] == out
    assert ids(after, "hand")[:2] == ids(before, "hand")[2:] and len(ids(after, "hand")) == 4


def test_the_mulligan_is_taken_once_in_the_opening_only():
    with pytest.raises(ActionError) as once:
        play(ORION, [{"do": "mulligan", "cards": []}, {"do": "mulligan", "cards": []}])
    assert once.value.index == 1
    with pytest.raises(ActionError) as late:
        play(FATES, [{"do": "next"}, {"do": "mulligan"}])
    assert late.value.index == 1 and "opening" in late.value.message


def test_a_game_without_a_mulligan_refuses_one():
    with pytest.raises(ActionError, match="no mulligan"):
        play(CAPITAL, [{"do": "mulligan"}])


def test_fates_mulligan_shuffles_the_hand_back_and_draws_a_new_supply_drop():
    after = play(FATES, [{"do": "mulligan"}])
    assert len(ids(after, "hand")) == 7 and len(ids(after, "supply")) == 33
    assert not any(a["do"] == "mulligan" for a in after.legal_actions if "do" in a)


def test_orions_turn_readies_the_galaxy_and_draws_a_card():
    hand = ids(play(ORION), "hand")
    moves = [{"do": "next"}, {"do": "move", "card": hand[0], "to": "galaxy"}]
    moves += [{"do": "exhaust", "card": hand[0]}]
    exhausted = play(ORION, moves)
    assert exhausted.state.zones["galaxy"][0].exhausted
    assert len(ids(exhausted, "hand")) == 4  # four, one drawn at the turn's beginning, one played
    steps = len(get_engine(ORION).table.steps)
    next_turn = play(ORION, moves + [{"do": "next"}] * steps)
    assert next_turn.state.turn == 2 and next_turn.state.step == "Beginning of turn"
    assert not next_turn.state.zones["galaxy"][0].exhausted
    assert len(ids(next_turn, "hand")) == 5


def test_exhausting_a_card_where_the_game_has_no_exhaust_is_refused():
    hand = ids(play(FATES), "hand")
    with pytest.raises(ActionError, match="not exhausted") as error:
        play(
            FATES,
            [{"do": "move", "card": hand[0], "to": "extra"}, {"do": "exhaust", "card": hand[0]}],
        )
    assert error.value.index == 1


def test_fates_first_battle_does_not_draw_a_second_supply_drop_but_the_next_one_does():
    first = play(FATES, [{"do": "next"}])
    assert len(ids(first, "hand")) == 7
    steps = len(get_engine(FATES).table.steps)
    second = play(FATES, [{"do": "next"}] * (steps + 1))
    # The seven kept from battle 1 and seven more: discard down to ten at once.
    assert second.state.turn == 2 and len(ids(second, "hand")) == 14
    assert second.state.pending == "Discard 4 to the hand limit"


def test_fates_hand_limit_must_be_discarded_to_at_once():
    result = play(FATES, [{"do": "draw"}] * 4)
    assert len(ids(result, "hand")) == 11 and result.state.pending
    assert {tuple(a["moves"]) for a in result.legal_actions} == {("discard",)}
    with pytest.raises(ActionError) as error:
        play(FATES, [{"do": "draw"}] * 4 + [{"do": "next"}])
    assert error.value.index == 4 and "discard" in error.value.message
    card_id = ids(result, "hand")[0]
    done = play(FATES, [{"do": "draw"}] * 4 + [{"do": "discard", "card": card_id}])
    assert ids(done, "discard") == [card_id] and done.state.pending is None


def test_a_location_holds_one_unit_placed_face_down_and_the_deployment_reveals_it():
    hand = ids(play(FATES), "hand")
    placed = [{"do": "next"}] * 3 + [{"do": "move", "card": hand[0], "to": "location-1"}]
    result = play(FATES, placed)
    assert result.state.zones["location-1"][0].face_up is False
    assert result.state.zones["location-1"][0].card is not None  # the owner knows it
    with pytest.raises(ActionError, match="full") as error:
        play(FATES, [*placed, {"do": "move", "card": hand[1], "to": "location-1"}])
    assert error.value.index == 4
    deployed = play(FATES, [*placed, {"do": "next"}])
    assert deployed.state.zones["location-1"][0].face_up


def test_fates_tallying_adds_the_face_up_units_cq_and_the_clean_up_empties_the_battle_zone():
    hand = ids(play(FATES), "hand")
    setup = [{"do": "next"}] * 3 + [{"do": "move", "card": hand[0], "to": "location-1"}]
    setup += [{"do": "move", "card": hand[1], "to": "extra", "face_up": True}]
    tallied = play(FATES, setup + [{"do": "next"}] * 5)
    assert tallied.state.step == "Tallying" and tallied.state.counters["cq"] == 4
    cleaned = play(FATES, setup + [{"do": "next"}] * 6)
    assert ids(cleaned, "discard") == [hand[0], hand[1]] or set(ids(cleaned, "discard")) == {
        hand[0],
        hand[1],
    }
    assert not ids(cleaned, "location-1") and not ids(cleaned, "extra")


def test_capital_refills_the_battle_hand_to_four_in_the_deployment_phase():
    hand = ids(play(CAPITAL), "hand")
    used = [{"do": "move", "card": hand[0], "to": "in-battle"}, {"do": "discard", "card": hand[1]}]
    steps = len(get_engine(CAPITAL).table.steps)
    before = play(CAPITAL, [{"do": "next"}, *used])
    assert len(ids(before, "hand")) == 2
    upgrade = play(CAPITAL, [{"do": "next"}] + used + [{"do": "next"}] * (steps - 2))
    assert upgrade.state.step == "Upgrade Phase" and len(ids(upgrade, "upgrade-draw")) == 3
    with pytest.raises(ActionError, match="Choose 1"):
        play(CAPITAL, [{"do": "next"}] + used + [{"do": "next"}] * (steps - 1))
    keep = ids(upgrade, "upgrade-draw")[1]
    rest = [i for i in ids(upgrade, "upgrade-draw") if i != keep]
    chosen = [{"do": "choose", "cards": [keep]}, {"do": "next"}, {"do": "next"}]
    turn_two = play(CAPITAL, [{"do": "next"}] + used + [{"do": "next"}] * (steps - 2) + chosen)
    assert ids(turn_two, "upgrades") == [keep] and ids(turn_two, "upgrade-deck")[-2:] == rest
    assert turn_two.state.turn == 2 and len(ids(turn_two, "hand")) == 4
    assert set(ids(turn_two, "used")) == {hand[0], hand[1]}


def test_tactics_draws_back_up_to_four_whenever_a_card_leaves_the_hand():
    opening = play(TACTICS, [{"do": "next"}])
    assert [len(ids(opening, f"row-{n}")) for n in range(1, 5)] == [1, 1, 1, 1]
    hand = ids(opening, "hand")
    played = play(TACTICS, [{"do": "next"}, {"do": "move", "card": hand[0], "to": "row-2"}])
    assert len(ids(played, "hand")) == 4
    assert played.state.zones["row-2"][1].card is None  # not even its owner may look again


def test_a_tactics_card_placed_under_a_face_down_one_reveals_it():
    hand = ids(play(TACTICS, [{"do": "next"}]), "hand")
    first = [{"do": "next"}, {"do": "move", "card": hand[0], "to": "row-1"}]
    second_card = ids(play(TACTICS, first), "hand")[0]
    result = play(TACTICS, [*first, {"do": "move", "card": second_card, "to": "row-1"}])
    row = result.state.zones["row-1"]
    assert [v.face_up for v in row] == [True, True, False]
    assert (
        row[1].card is not None
        and row[1].card.name == names(play(TACTICS, [{"do": "next"}]), "hand")[0]
    )


def test_tactics_victory_points_are_those_of_the_conquered_targets():
    opening = play(TACTICS, [{"do": "next"}])
    target = opening.state.zones["row-1"][0]
    won = [{"do": "next"}, {"do": "move", "card": target.id, "to": "won"}, *[{"do": "next"}] * 3]
    result = play(TACTICS, won)
    assert result.state.counters["vp"] == target.card.stats["victory_points"]
    assert all(not ids(result, f"row-{n}") for n in range(1, 5))
    assert len(ids(result, "aside")) == 3


def test_fate_foretold_waits_for_the_sigil_to_be_chosen():
    opening = play(FORETOLD)
    assert opening.state.pending and opening.state.pending.startswith("Choose 1")
    with pytest.raises(ActionError, match="Choose 1"):
        play(FORETOLD, [{"do": "next"}])
    sigil = ids(opening, "sigils")[3]
    chosen = play(FORETOLD, [{"do": "choose", "cards": [sigil]}, {"do": "next"}, {"do": "next"}])
    assert ids(chosen, "sigil") == [sigil] and chosen.state.zones["sigil"][0].face_up
    assert len(ids(chosen, "aside")) == 5 and len(ids(chosen, "hand")) == 4


def test_fate_foretold_ends_a_turn_only_within_its_hand_and_field_limits():
    hand = ids(play(FORETOLD), "hand")
    sigil = ids(play(FORETOLD), "sigils")[0]
    to_end = [
        {"do": "choose", "cards": [sigil]},
        *[{"do": "next"}] * 4,
        {"do": "draw"},
        {"do": "draw"},
    ]
    with pytest.raises(ActionError, match="hand limit") as error:
        play(FORETOLD, [*to_end, {"do": "next"}])
    assert error.value.index == len(to_end)
    buried = play(FORETOLD, [*to_end, {"do": "discard", "card": hand[0]}, {"do": "next"}])
    assert ids(buried, "nest")[-1] == hand[0]  # Fates Never Fade: to the bottom of the Nest
    assert buried.state.turn == 2


def test_moving_flipping_and_shuffling_by_hand():
    hand = ids(play(ORION), "hand")
    result = play(
        ORION,
        [
            {"do": "move", "card": hand[0], "to": "deck", "at": "bottom"},
            {"do": "move", "card": hand[1], "to": "galaxy", "face_up": False},
            {"do": "flip", "card": hand[1]},
            {"do": "shuffle", "zone": "deck"},
            {"do": "count", "counter": "blue", "by": 9},
        ],
    )
    assert result.state.zones["galaxy"][0].face_up
    assert hand[0] in ids(result, "deck") and result.state.counters["blue"] == 6
    assert len(result.log) == 7  # the planets put out, the opening hand, then five moves


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"do": "teleport"}, "not an action"),
        ({"do": "move", "card": 9999, "to": "galaxy"}, "no card 9999"),
        ({"do": "move", "card": True, "to": "galaxy"}, "whole number"),
        ({"do": "move", "card": 1, "to": "nowhere"}, None),
        ({"do": "draw", "n": 10**9}, "from 1 to"),
        ({"do": "count", "counter": "blue", "by": "3"}, "whole number"),
        ({"do": "shuffle", "zone": "galaxy"}, "not a pile"),
        ({"do": "choose", "cards": [1]}, "nothing to choose"),
        ("draw", "object"),
    ],
)
def test_a_malformed_or_illegal_action_is_refused_naming_its_index(action, message):
    with pytest.raises(ActionError) as error:
        play(ORION, [{"do": "draw"}, action])
    assert error.value.index == 1 and str(error.value).startswith("actions[1]")
    if message:
        assert message in error.value.message


def test_only_the_top_of_a_pile_can_be_taken_by_hand():
    deck = ids(play(ORION), "deck")
    with pytest.raises(ActionError, match="not the top"):
        play(ORION, [{"do": "move", "card": deck[3], "to": "hand"}])
    assert ids(play(ORION, [{"do": "move", "card": deck[0], "to": "hand"}]), "hand")[-1] == deck[0]


def test_too_many_actions_or_a_seed_out_of_range_are_refused():
    with pytest.raises(ActionError, match=f"at most {MAX_ACTIONS}"):
        play(ORION, [{"do": "shuffle", "zone": "deck"}] * (MAX_ACTIONS + 1))
    for seed in (-1, 2**32, True):
        with pytest.raises(ActionError, match="seed"):
            play(ORION, seed=seed)


def test_an_empty_deck_is_reshuffled_from_the_discards_where_the_game_says_so():
    hand = ids(play(CAPITAL), "hand")
    discards = [{"do": "discard", "card": i} for i in hand] + [{"do": "draw", "n": 12}]
    result = play(CAPITAL, discards)
    assert len(ids(result, "hand")) == 12 and not ids(result, "used")
    assert any("Shuffled the discards" in line for line in result.log)


def test_a_draw_from_an_empty_deck_simply_does_not_happen_in_fates():
    result = play(FATES, [{"do": "draw", "n": 99}])
    assert len(ids(result, "supply")) == 0 and result.state.pending


# --- Rulebook steps and rows (issue 25) ------------------------------------------------------


def steps_until(result_of, name, limit=20):
    """The actions of `next` that bring a table from its opening to the step called `name`."""
    actions = []
    for _ in range(limit):
        actions.append({"do": "next"})
        if result_of(actions).state.step == name:
            return actions
    raise AssertionError(f"no step {name!r} within {limit}")


def test_orion_starts_with_its_four_common_planets_in_the_planet_row():
    # §1.3 Game Start: "each player is given four common planets - two Ice Planets, one Rock
    # Planet, and one Lava Planet. Each player puts those planets in front of him or her in
    # the planet row."
    result = play(ORION)
    assert names(result, "planets") == ["Ice Planet", "Ice Planet", "Rock Planet", "Lava Planet"]
    assert all(v.face_up for v in result.state.zones["planets"])
    assert [v.card.card_type for v in result.state.zones["planets"]] == ["Planet"] * 4
    # Planets "cannot be part of your deck" (§1.8.2): the deck keeps its 50, less the hand.
    assert len(result.state.zones["deck"]) + len(result.state.zones["hand"]) == 50


def test_orion_takes_its_starting_planets_from_the_catalogue_when_given():
    catalogue_ice = card("Ice Planet", "Planet", zone="", damage=2)
    result = playtest(
        get_engine(ORION), orion_deck(), seed=1, outside={"Ice Planet": catalogue_ice}
    )
    assert result.state.zones["planets"][0].card == catalogue_ice
    assert result.state.zones["planets"][2].card.name == "Rock Planet"


def test_orions_unique_planets_row_starts_empty_as_the_rulebook_lists_none():
    # §1.3: "five unique planets from it are selected at random": the rulebook has no list.
    assert names(play(ORION), "neutral") == []


def test_orions_post_combat_step_comes_between_combat_and_post_combat_economy():
    # §1.10 Turn Structure: "Post-Combat step: After combat is completed, you retreat with
    # each unit you attacked with that survived combat onto a planet you control."
    steps = [s.name for s in get_engine(ORION).table.steps]
    combat = steps.index("Combat phase")
    assert steps[combat + 1 : combat + 3] == ["Post-Combat step", "Post-Combat Economy phase"]
    post_combat = get_engine(ORION).table.steps[combat + 1]
    assert "you retreat with each unit you attacked with" in post_combat.source
    to_it = steps_until(lambda a: play(ORION, a), "Post-Combat step")
    assert play(ORION, to_it).state.turn == 1


def test_orions_planets_ready_at_the_beginning_of_the_turn_as_cards_in_the_galaxy_do():
    # §1.10: "you ready all your cards in the galaxy"; planets attack and exhaust (§1.11).
    planet = ids(play(ORION), "planets")[0]
    exhausted = [{"do": "exhaust", "card": planet}]
    assert play(ORION, exhausted).state.zones["planets"][0].exhausted
    next_turn = exhausted + steps_until(
        lambda a: play(ORION, exhausted + a), "Beginning of turn", limit=12
    )
    assert not play(ORION, next_turn).state.zones["planets"][0].exhausted


def foretold_in_convergence():
    """Sigil chosen, then the hand shuffled face down into the Convergence stack."""
    opening = play(FORETOLD)
    actions = [{"do": "choose", "cards": [ids(opening, "sigils")[0]]}]
    actions += [
        {"do": "move", "card": c, "to": "convergence", "face_up": False}
        for c in ids(opening, "hand")
    ]
    return [*actions, {"do": "shuffle", "zone": "convergence"}]


def test_fate_foretolds_convergence_turn_takes_its_four_steps_instead_of_the_normal_ones():
    # Convergence of Fate: "During your turn, if you still remain in Convergence, follow
    # these steps instead of the normal steps of a turn: Step 1: Check ... Step 2: Reveal ...
    # Step 3: Play ... Step 4: End"
    entered = foretold_in_convergence()
    taken = []
    actions = list(entered)
    for _ in range(4):
        actions.append({"do": "next"})
        taken.append(play(FORETOLD, actions).state.step)
    assert taken == [
        "Convergence, Step 1: Check",
        "Convergence, Step 2: Reveal",
        "Convergence, Step 3: Play",
        "Convergence, Step 4: End",
    ]
    # No draw in the Convergence turn: "Reveal a card either from the top of the Nest or from
    # your own stack of face-down cards."
    assert play(FORETOLD, actions).state.zones["hand"] == ()


def test_fate_foretolds_convergence_stack_is_face_down_and_not_looked_at():
    # "For as long as your remain in Convergence, you may not look at or rearrange these cards"
    stack = play(FORETOLD, foretold_in_convergence()).state.zones["convergence"]
    assert len(stack) == 3 and all(v.card is None and not v.face_up for v in stack)


def test_leaving_the_convergence_returns_fate_foretold_to_the_normal_turn():
    # "If at any time your highest alignment drops below 5, the Convergence ends. When this
    # happens, ... pick up your hand."
    entered = foretold_in_convergence()
    stack = ids(play(FORETOLD, entered), "convergence")
    picked_up = [*entered, *[{"do": "move", "card": c, "to": "hand"} for c in stack]]
    assert play(FORETOLD, [*picked_up, {"do": "next"}]).state.step == "Step 1: Check"


def test_a_convergence_entered_mid_turn_begins_with_the_next_turn():
    # The normal turn in which alignment is reached goes on to its own Step 4: End.
    opening = play(FORETOLD)
    actions = [{"do": "choose", "cards": [ids(opening, "sigils")[0]]}, *[{"do": "next"}] * 3]
    hand = ids(play(FORETOLD, actions), "hand")
    actions += [{"do": "move", "card": c, "to": "convergence", "face_up": False} for c in hand]
    assert play(FORETOLD, [*actions, {"do": "next"}]).state.step == "Step 4: End"
    following = play(FORETOLD, [*actions, {"do": "next"}, {"do": "next"}]).state
    assert (following.turn, following.step) == (2, "Convergence, Step 1: Check")


def test_a_second_deck_fills_its_zone_beside_the_deck_played():
    # A faction deck alone has no targets: the table's second deck brings them.
    faction = cards(33, card_type="Ship", factions=["Romulan"])
    targets = [card(f"Target {i}", "Sector", zone="targets", victory_points=i) for i in range(24)]
    alone = playtest(get_engine(TACTICS), faction, seed=3)
    assert alone.state.zones["target-pile"] == ()
    both = playtest(get_engine(TACTICS), faction, seed=3, second=targets)
    assert len(both.state.zones["target-pile"]) == 24
    assert len(both.state.zones["draw"]) == len(alone.state.zones["draw"])
    # The first Deployment Phase lays out four targets, whose points can then be scored.
    laid = playtest(get_engine(TACTICS), faction, seed=3, actions=[{"do": "next"}], second=targets)
    rows = [laid.state.zones[f"row-{n}"] for n in range(1, 5)]
    assert all(len(row) == 1 and row[0].card.name.startswith("Target") for row in rows)


def test_a_second_deck_is_the_same_shuffle_for_the_same_seed():
    faction = cards(33, card_type="Ship", factions=["Romulan"])
    targets = [card(f"Target {i}", "Sector", zone="targets", victory_points=i) for i in range(24)]
    runs = [playtest(get_engine(TACTICS), faction, seed=9, second=targets) for _ in range(2)]
    assert runs[0].state == runs[1].state


def test_a_full_slot_refuses_a_card_naming_its_capacity():
    result = play(FATES)
    hand = ids(result, "hand")
    moves = [{"do": "move", "card": c, "to": "location-1"} for c in hand[:2]]
    with pytest.raises(ActionError, match="Location 1 is full: it holds at most 1 card"):
        play(FATES, moves)
