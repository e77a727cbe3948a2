import subprocess
import sys
from dataclasses import replace

import pytest

from engines import ENGINES, get_engine
from engines.base import ChartKind, by_type, curve, slugify

GAMES = [
    "conquest-alpha-tactics",
    "conquest-for-the-capital",
    "conquest-of-fates",
    "conquest-of-orion",
    "fate-foretold",
]


def test_every_game_module_is_discovered_under_its_slug():
    assert sorted(ENGINES) == GAMES


def test_an_unknown_game_is_refused_with_the_known_ones_listed():
    with pytest.raises(KeyError, match="known games: conquest-alpha-tactics"):
        get_engine("magic")


def test_engines_import_nothing_from_django():
    code = (
        "import engines, sys; "
        "print(any(m.split('.')[0] in {'django', 'rest_framework'} for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("game", "keys"),
    [
        ("conquest-of-fates", ["cq"]),
        (
            "conquest-of-orion",
            [
                "cost_blue",
                "cost_gold",
                "cost_red",
                "tier",
                "damage",
                "health",
                "shields",
                "regeneration",
            ],
        ),
        ("conquest-for-the-capital", ["attack", "defence", "stars", "timing"]),
        ("conquest-alpha-tactics", ["combat_power", "victory_points", "quadrant", "planet_type"]),
        ("fate-foretold", []),
    ],
)
def test_each_game_declares_the_stat_keys_players_use(game, keys):
    assert [s.key for s in get_engine(game).stats] == keys


def test_valid_stats_have_no_problems():
    assert get_engine("conquest-of-orion").validate_stats({"damage": 4, "health": 5}) == []


def test_an_unknown_stat_is_rejected_naming_the_field():
    [error] = get_engine("conquest-of-fates").validate_stats({"atk": 3})
    assert error.field == "atk"
    assert "unknown stat" in error.message
    assert str(error).startswith("stats.atk:")


def test_a_stat_of_the_wrong_type_is_rejected_naming_the_field():
    [error] = get_engine("conquest-of-fates").validate_stats({"cq": "three"})
    assert (error.field, error.message) == ("cq", "expected a whole number, got 'three'")


def test_true_is_not_a_number_even_though_python_says_so():
    assert get_engine("conquest-of-orion").validate_stats({"tier": True})[0].field == "tier"


def test_a_capital_upgrade_has_one_to_three_stars():
    engine = get_engine("conquest-for-the-capital")
    assert engine.validate_stats({"stars": 3}) == []
    assert "at most 3" in engine.validate_stats({"stars": 4})[0].message
    assert "at least 1" in engine.validate_stats({"stars": 0})[0].message


def test_a_choice_stat_accepts_only_its_choices():
    engine = get_engine("conquest-for-the-capital")
    assert engine.validate_stats({"timing": "passive"}) == []
    assert "active, passive" in engine.validate_stats({"timing": "sometimes"})[0].message


def test_an_orion_planet_is_never_put_in_a_deck():
    assert get_engine("conquest-of-orion").card_type("Planet").zone is None
    assert get_engine("conquest-of-orion").card_type("Satellite").zone == "main"


def test_fate_sigils_have_their_own_zone_outside_the_nest():
    engine = get_engine("fate-foretold")
    assert engine.card_type("Sigil").zone == "sigils"
    assert engine.card_type("Nest Card").zone == "nest"
    assert engine.card_type("Token").zone is None


def test_tactics_targets_and_player_cards_go_to_different_zones():
    engine = get_engine("conquest-alpha-tactics")
    assert {engine.card_type(t).zone for t in ("Planet", "Sector", "Quadrant", "Combat Zone")} == {
        "targets"
    }
    assert {engine.card_type(t).zone for t in ("Ship", "Tech", "Weapon", "Action", "Troops")} == {
        "main"
    }


def test_slugs_fold_accents_and_apostrophes():
    assert slugify("D'Deridex") == "dderidex"
    assert slugify("Death, the Pale Horse") == "death-the-pale-horse"
    assert slugify("Café Noir") == "cafe-noir"


def test_each_game_charts_its_main_numbers_then_its_types_and_factions():
    curves = {
        slug: [c.stats for c in e.charts if c.kind is ChartKind.CURVE]
        for slug, e in ENGINES.items()
    }
    assert curves == {
        "conquest-of-fates": [("cq",)],
        "conquest-of-orion": [("cost_blue", "cost_gold", "cost_red"), ("tier",)],
        "fate-foretold": [],
        "conquest-alpha-tactics": [("combat_power",)],
        "conquest-for-the-capital": [("attack", "defence")],
    }
    for engine in ENGINES.values():
        assert [c.kind for c in engine.charts][-2:] == [ChartKind.TYPES, ChartKind.FACTIONS]
    assert get_engine("fate-foretold").charts[-1].title == "Cards by suit"
    assert get_engine("conquest-of-orion").charts[-1].title == "Cards by race"


def test_a_chart_of_a_stat_that_is_not_a_whole_number_is_refused():
    engine = get_engine("conquest-for-the-capital")
    with pytest.raises(ValueError, match="timing is no number"):
        replace(engine, charts=(curve("Timing", "timing"),))
    with pytest.raises(ValueError, match="share a title"):
        replace(engine, charts=(by_type(), by_type()))


def test_each_game_names_one_main_number_the_builder_groups_by():
    assert {slug: e.chart_stat for slug, e in ENGINES.items()} == {
        "conquest-of-fates": "cq",
        "conquest-of-orion": "tier",
        "fate-foretold": None,
        "conquest-alpha-tactics": "combat_power",
        "conquest-for-the-capital": "attack",
    }


def test_each_game_names_the_key_stats_a_compact_row_shows():
    assert {slug: e.key_stats for slug, e in ENGINES.items()} == {
        "conquest-of-fates": ("cq",),
        "conquest-of-orion": ("cost_blue", "cost_gold", "cost_red", "tier"),
        "fate-foretold": (),
        "conquest-alpha-tactics": ("combat_power", "victory_points"),
        "conquest-for-the-capital": ("attack", "defence", "stars"),
    }


def test_a_key_stat_the_game_does_not_have_is_refused_when_the_engine_is_built():
    with pytest.raises(ValueError, match="unknown stats \\['mana'\\]"):
        replace(get_engine("conquest-of-fates"), key_stats=("cq", "mana"))
