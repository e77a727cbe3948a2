"""POST /api/v1/decks/validate/ with decks built from the loaded sample sets and rulebook cards."""

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db
URL = "/api/v1/decks/validate/"


def ids(queryset):
    return [{"id": c.short_id, "quantity": 1} for c in queryset]


def check(api, game, fmt, cards=None, text=None, **extra):
    body = {"game": game, "format": fmt, **extra}
    body["cards" if text is None else "text"] = cards if text is None else text
    response = api.post(URL, body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def codes(result):
    return sorted(p["code"] for p in result["problems"] if p["severity"] == "error")


def sample(game, **filters):
    return Card.objects.filter(game__slug=game, card_set__is_official=False, **filters).order_by(
        "number_sort"
    )


def test_a_legal_orion_constructed_deck_of_one_race_and_raceless_cards(api):
    deck = list(sample("conquest-of-orion", factions__name="Humans"))[:36]
    deck += list(
        sample("conquest-of-orion", factions__isnull=True).exclude(card_type__name="Planet")
    )[:14]
    result = check(api, "conquest-of-orion", "constructed", ids(deck))
    assert result["legal"], result["problems"]
    assert result["faction"] == "Humans"  # inferred from the cards
    assert result["counts"]["total"] == 50


def test_osiris_whose_race_the_rulebook_does_not_give_is_warned_of_in_a_humans_deck(api):
    # §1.1, 5. Race Icon: "Cards without a race icon can be played in any deck." The Osiris
    # (§1.8.1) has no race given, which is not the same as having no race icon.
    osiris = Card.objects.get(card_set__code="ORI-RB", name="Osiris")
    deck = [*ids(list(sample("conquest-of-orion", factions__name="Humans"))[:36])]
    deck += ids(
        list(sample("conquest-of-orion", factions__isnull=True).exclude(card_type__name="Planet"))[
            :13
        ]
    )
    deck.append({"id": osiris.short_id, "quantity": 1})
    result = check(api, "conquest-of-orion", "constructed", deck, faction="Humans")
    warnings = [p for p in result["problems"] if p["code"] == "faction_not_given"]
    assert [(w["severity"], w["cards"]) for w in warnings] == [("warning", ["Osiris"])]
    assert warnings[0]["message"] == (
        "Osiris: its race is not given, so the one-race rule cannot be checked for it."
    )
    assert result["legal"]  # a warning: the deck is not known to break the rule


def test_a_legal_orion_limited_deck_of_thirty(api):
    deck = list(sample("conquest-of-orion", factions__name="Aliens"))[:24]
    deck += list(
        sample("conquest-of-orion", factions__isnull=True).exclude(card_type__name="Planet")
    )[:6]
    assert check(api, "conquest-of-orion", "limited", ids(deck))["legal"]


def test_a_legal_nest_of_sample_cards_with_its_sigils(api):
    nest = sample("fate-foretold", card_type__name="Nest Card")[:60]
    sigils = sample("fate-foretold", card_type__name="Sigil")
    for fmt in ("nest", "speed-run"):
        assert check(api, "fate-foretold", fmt, ids(nest) + ids(sigils))["legal"]


@pytest.mark.parametrize("faction", ["Elves", "Orcs", "Undead", "Dwarves"])
def test_each_capital_factions_twelve_battle_and_eight_upgrade_cards_are_legal(api, faction):
    result = check(
        api,
        "conquest-for-the-capital",
        "faction-deck",
        ids(sample("conquest-for-the-capital", factions__name=faction)),
    )
    assert result["legal"], result["problems"]
    assert result["counts"]["zones"] == {"battle": 12, "upgrade": 8}


@pytest.mark.parametrize("faction", ["Starfleet", "Vulcan", "Romulan", "Klingon"])
def test_each_tactics_factions_thirty_three_cards_are_legal(api, faction):
    deck = sample("conquest-alpha-tactics", factions__name=faction, card_type__zone="main")
    assert check(api, "conquest-alpha-tactics", "faction-deck", ids(deck))["legal"]


def test_the_tactics_target_decks_full_and_short(api):
    targets = list(sample("conquest-alpha-tactics", card_type__zone="targets"))
    assert check(api, "conquest-alpha-tactics", "targets", ids(targets))["legal"]
    # 9.3 keeps the rulebook's Earth, which no sample card is named after.
    earth = Card.objects.get(card_set__code="TAC-RB", name="Earth")
    two = [c for c in targets if c.stats.get("planet_type") != "federation"] + [earth]
    assert len(two) == 16
    assert check(api, "conquest-alpha-tactics", "targets-short-2p", ids(two))["legal"]
    three = targets[:20]
    assert check(api, "conquest-alpha-tactics", "targets-short-3p", ids(three))["legal"]
    vulcan = Card.objects.get(card_set__code="TAC-RB", name="Vulcan")
    result = check(api, "conquest-alpha-tactics", "targets-short-3p", ids([*three[1:], vulcan]))
    assert codes(result) == ["card_not_allowed"]
    result = check(api, "conquest-alpha-tactics", "targets-short-2p", ids(targets[:16]))
    assert "card_not_allowed" in codes(result)


def test_a_legal_conquest_of_fates_deck_keeps_one_apex_and_one_celestial(api):
    cards = sample("conquest-of-fates", factions__name="Verdant Choir of Ossara")
    units = [c for c in cards if c.card_type.name == "Unit"]
    apex = [c for c in units if c.keywords.filter(name="Apex").exists()]
    deck = (
        [c for c in units if c not in apex]
        + apex[:1]
        + [c for c in cards if c.card_type.name == "Celestial"][:1]
    )
    result = check(api, "conquest-of-fates", "standard", ids(deck))
    assert result["legal"], result["problems"]
    both_apex = check(api, "conquest-of-fates", "standard", ids(deck + apex[1:]))
    assert codes(both_apex) == ["attribute_limit"]


def test_a_text_decklist_is_checked_with_every_problem_naming_its_line(api):
    text = "Nest:\n1 The Angel\n1 The Angle\n\nSigils:\n1 King\nExtras:\n"
    result = check(api, "fate-foretold", "nest", text=text)
    by_code = {p["code"]: p for p in result["problems"]}
    assert by_code["unknown_card"]["line"] == 3
    assert "did you mean The Angel" in by_code["unknown_card"]["message"]
    assert by_code["unreadable_line"]["line"] == 7
    assert "1 short" not in by_code["deck_size"]["message"]  # 1 card of 60 found
    assert "59 short" in by_code["deck_size"]["message"]


def test_a_card_of_another_game_is_a_wrong_game_problem(api):
    result = check(api, "conquest-of-orion", "constructed", [{"name": "Galaxy", "quantity": 1}])
    [problem] = [p for p in result["problems"] if p["code"] == "wrong_game"]
    assert "Star Trek - Conquest Alpha: Tactics card" in problem["message"]


def test_a_stated_faction_is_checked_against_the_cards(api):
    aliens = ids(sample("conquest-of-orion", factions__name="Aliens")[:2])
    result = check(api, "conquest-of-orion", "limited", aliens, faction="Humans")
    assert "faction_mismatch" in codes(result)
    assert "2 cards not of the deck's race Humans" in " ".join(
        p["message"] for p in result["problems"]
    )


def test_missing_zones_are_inferred_from_card_types(api):
    cards = [{"name": "King", "quantity": 1}, {"name": "The Angel", "quantity": 1}]
    result = check(api, "fate-foretold", "nest", cards)
    assert result["counts"]["zones"] == {"sigils": 1, "nest": 1}


def test_copies_of_one_card_on_several_lines_are_added_up(api):
    result = check(api, "fate-foretold", "nest", text="1 The Angel\n1 The Angel\n")
    assert "singleton" in codes(result)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "magic", "format": "x", "cards": []}, "game"),
        ({"game": "fate-foretold", "format": "standard", "cards": []}, "format"),
        ({"game": "fate-foretold", "format": "nest"}, "non_field_errors"),
        (
            {"game": "fate-foretold", "format": "nest", "cards": [{"quantity": 0, "name": "x"}]},
            "cards",
        ),
    ],
)
def test_a_request_that_cannot_be_checked_is_a_400_naming_the_field(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_an_unknown_faction_is_a_400(api):
    response = api.post(
        URL,
        {"game": "fate-foretold", "format": "nest", "cards": [], "faction": "Spades"},
        format="json",
    )
    assert response.status_code == 400
    assert "faction" in response.json()["errors"]


def test_the_formats_endpoint_lists_rules_with_their_sources(api):
    body = api.get("/api/v1/games/conquest-of-fates/formats/").json()
    standard, homeworld = body
    assert standard["slug"] == "standard" and standard["needs_faction"] is True
    assert homeworld["slug"] == "homeworld"
    assert standard["settings"] == [
        {
            "key": "deck_size",
            "label": "Deck size",
            "value": None,
            "help": standard["settings"][0]["help"],
        }
    ]
    kinds = {r["kind"] for r in standard["rules"]}
    assert {"CardLimit", "NotEmpty", "OneFaction", "ZoneSize"} <= kinds
    assert all(r["source"] for r in standard["rules"])
    [faction] = [r for r in standard["rules"] if r["kind"] == "OneFaction"]
    assert faction["severity"] == "warning"
    assert "TypesNotAllowed" in {r["kind"] for r in homeworld["rules"]}


def test_an_admin_set_deck_size_is_enforced(api):
    from cardsite.catalogue.models import Game
    from decks.models import FormatSetting

    FormatSetting.objects.create(
        game=Game.objects.get(slug="conquest-of-fates"),
        format="standard",
        key="deck_size",
        value=40,
    )
    units = ids(
        sample("conquest-of-fates", factions__name="Hollowstar Covenant", card_type__name="Unit")[
            :20
        ]
    )
    result = check(api, "conquest-of-fates", "standard", units)
    assert any("exactly 40" in p["message"] for p in result["problems"])
    assert (
        api.get("/api/v1/games/conquest-of-fates/formats/").json()[0]["settings"][0]["value"] == 40
    )


def test_a_card_whose_type_is_not_given_is_checked_counted_and_shown(api, client):
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    assert galaxy.card_type is None
    result = check(api, "conquest-alpha-tactics", "faction-deck", ids([galaxy]))
    assert result["counts"]["types"] == {"type not given": 1}
    assert result["counts"]["zones"] == {"main": 1}
    owner = User.objects.create_user("untyped", password="x-Long-pass-9")
    deck = deck_create(
        owner=owner,
        game=galaxy.game,
        format_slug="faction-deck",
        name="Untyped",
        visibility="public",
        intake=Intake((RequestedCard(1, None, galaxy.short_id),)),
    )
    assert "Type not given" in client.get(deck.get_absolute_url()).content.decode()


def test_the_teleporter_a_player_card_by_inference_goes_in_the_faction_deck_not_the_targets(api):
    # The target decks refuse the Teleporter as a player card (8.2, Note; 6 Round Overview):
    # a list that names it without a section puts it where player cards go, as the Delta
    # Flyer's effect type does, not in the target pile that refuses it.
    teleporter = Card.objects.get(card_set__code="TAC-RB", name="Teleporter")
    assert teleporter.card_type is None and not teleporter.factions.exists()
    for listed in (ids([teleporter]), None):
        text = None if listed else "1 Teleporter\n"
        result = check(api, "conquest-alpha-tactics", "faction-deck", listed, text=text)
        assert result["counts"]["zones"] == {"main": 1}
