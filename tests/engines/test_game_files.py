"""Each game is declared in fixtures/<slug>/engine.toml: the file builds the engine the game's
Python module declared, and a broken file is refused naming the file, the path and why."""

import json
import pickle
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

import engines
from engines.gamefile import SCHEMA_PATH, GameFileError, engine_from_definition, load_engine_file
from tests.engines.game_files import FIXTURES, golden, snapshot

GAMES = [
    "conquest-alpha-tactics",
    "conquest-for-the-capital",
    "conquest-of-fates",
    "conquest-of-orion",
    "fate-foretold",
]


def engine_file(slug: str) -> Path:
    return FIXTURES / slug / "engine.toml"


def definition(slug: str) -> dict:
    with engine_file(slug).open("rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_file_builds_the_engine_its_python_module_declared(slug):
    assert snapshot(load_engine_file(engine_file(slug))) == golden(slug)


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_file_validates_against_the_schema(slug):
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(definition(slug))


def test_the_schema_is_valid_and_describes_every_property():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    undescribed = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                if "description" not in value:
                    undescribed.append(f"{where}.{key}")
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for n, value in enumerate(node):
                walk(value, f"{where}[{n}]")

    walk(schema, "")
    assert undescribed == []


def test_the_schema_knows_every_rule_of_the_vocabulary():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    kinds = {ref["$ref"].removeprefix("#/$defs/rule_") for ref in schema["$defs"]["rule"]["oneOf"]}
    assert kinds == {"zone_size", "copy_limit", "one_faction", "card_limit", "types_not_allowed",
                     "cards_not_allowed", "not_empty"}  # fmt: skip


def refused(definition: dict) -> GameFileError:
    with pytest.raises(GameFileError) as caught:
        engine_from_definition(definition, file="engine.toml")
    return caught.value


def test_a_chart_of_an_unknown_stat_is_refused_naming_its_path():
    broken = definition("conquest-of-orion")
    broken["charts"][1]["stats"] = ["tier", "speed"]
    error = refused(broken)
    assert (error.file, error.path) == ("engine.toml", "charts[1].stats[1]")
    assert "unknown stat 'speed'" in error.reason
    assert str(error).startswith("engine.toml: charts[1].stats[1]: unknown stat 'speed'")


def test_a_chart_of_a_choice_stat_is_refused():
    broken = definition("conquest-alpha-tactics")
    broken["charts"][0]["stats"] = ["quadrant"]
    assert refused(broken).path == "charts[0].stats[0]"


def test_a_rule_naming_an_unknown_zone_is_refused_naming_its_path():
    broken = definition("conquest-for-the-capital")
    broken["formats"][0]["rules"][1]["zone"] = "upgrades"
    error = refused(broken)
    assert error.path == "formats[0].rules[1].zone"
    assert error.reason == "unknown zone 'upgrades'; known: battle, upgrade"


def test_a_rule_naming_an_unknown_card_type_is_refused():
    broken = definition("conquest-of-orion")
    broken["formats"][1]["rules"][2]["types"] = ["Planet", "Moon"]
    error = refused(broken)
    assert error.path == "formats[1].rules[2].types[1]"
    assert "unknown card type 'Moon'" in error.reason


def test_a_card_type_in_an_unknown_zone_is_refused():
    broken = definition("fate-foretold")
    broken["card_types"][0]["zone"] = "deck"
    assert refused(broken).path == "card_types[0].zone"


def test_a_table_step_naming_an_unknown_table_zone_is_refused():
    broken = definition("conquest-of-fates")
    broken["table"]["steps"][0]["deals"][0]["to"] = ["hands"]
    error = refused(broken)
    assert error.path == "table.steps[0].deals[0].to[0]"
    assert "unknown table zone 'hands'" in error.reason


def test_a_tally_of_an_unknown_counter_is_refused():
    broken = definition("conquest-alpha-tactics")
    broken["table"]["steps"][3]["tally"][0]["counter"] = "points"
    assert refused(broken).path == "table.steps[3].tally[0].counter"


def test_a_filter_with_an_unknown_key_is_refused():
    broken = definition("conquest-alpha-tactics")
    broken["formats"][2]["rules"][2]["filter"] = "colour:blue -!Earth"
    error = refused(broken)
    assert error.path == "formats[2].rules[2].filter"
    assert "unknown filter key 'colour'" in error.reason


def test_a_rule_of_an_unknown_setting_is_refused():
    broken = definition("conquest-of-fates")
    broken["formats"][0]["rules"][0]["setting"] = "size"
    assert refused(broken).path == "formats[0].rules[0].setting"


def test_a_schema_violation_is_refused_with_the_path_in_the_file():
    broken = definition("conquest-of-fates")
    broken["formats"][1]["rules"][0]["exactly"] = "twenty"
    error = refused(broken)
    assert error.path == "formats[1].rules[0].exactly"
    assert "'twenty' is not of type 'integer'" in error.reason


def test_a_rule_of_an_unknown_kind_is_refused():
    broken = definition("fate-foretold")
    broken["formats"][0]["rules"][0]["kind"] = "deck_size"
    error = refused(broken)
    assert error.path == "formats[0].rules[0].kind"
    assert "unknown rule kind" in error.reason


def test_a_rule_without_a_source_is_refused():
    broken = definition("conquest-for-the-capital")
    del broken["formats"][0]["rules"][3]["source"]
    error = refused(broken)
    assert error.path == "formats[0].rules[3]"
    assert "'source' is a required property" in error.reason


def test_a_stat_of_an_unknown_kind_is_refused():
    broken = definition("conquest-of-fates")
    broken["stats"][0]["kind"] = "float"
    assert refused(broken).path == "stats[0].kind"


def test_bad_toml_syntax_is_refused_with_its_line(tmp_path):
    path = tmp_path / "engine.toml"
    path.write_text('slug = "x"\nname = \n', encoding="utf-8")
    with pytest.raises(GameFileError) as caught:
        load_engine_file(path)
    assert caught.value.file == str(path)
    assert caught.value.path == "line 2, column 8"
    assert caught.value.reason.startswith("not valid TOML")


def test_a_copy_of_a_game_file_loads_with_its_own_slug(tmp_path):
    folder = tmp_path / "copied-game"
    shutil.copytree(FIXTURES / "conquest-of-fates", folder)
    text = (folder / "engine.toml").read_text(encoding="utf-8")
    (folder / "engine.toml").write_text(
        text.replace('slug = "conquest-of-fates"', 'slug = "copied-game"', 1), encoding="utf-8"
    )
    engine = load_engine_file(folder / "engine.toml")
    assert engine.slug == "copied-game"
    assert engine.formats == engines.get_engine("conquest-of-fates").formats


@pytest.mark.parametrize("slug", GAMES)
def test_the_site_serves_each_game_from_its_file_with_its_simulation_attached(slug):
    served = engines.get_engine(slug)
    assert snapshot(served) == golden(slug)
    assert served.goldfish is not None and served.odds is not None
    assert served.goldfish_summary and served.goldfish_cost < 1


def test_rules_with_a_card_filter_survive_the_checks_cache(tmp_path):
    # Check results, rules included, are pickled into the cache.
    fmt = engines.get_engine("conquest-alpha-tactics").format("targets-short-2p")
    assert pickle.loads(pickle.dumps(fmt)) == fmt


def test_games_are_read_from_the_folder_given(tmp_path):
    shutil.copytree(FIXTURES / "fate-foretold", tmp_path / "fate-foretold")
    assert list(engines.load_engines(tmp_path)) == ["fate-foretold"]
