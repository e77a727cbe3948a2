"""Each game is declared in fixtures/<slug>/engine.toml: the file builds the engine the game's
Python module declared, and a broken file is refused naming the file, the path and why."""

import json
import pickle
import re
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

import engines
from engines import rules
from engines.gamefile import (
    RULE_KINDS,
    SCHEMA_PATH,
    GameFileError,
    engine_from_definition,
    load_engine_file,
)
from tests.engines.game_files import FIXTURES, GOLDEN, golden, snapshot

GAMES = sorted(path.parent.name for path in FIXTURES.glob("*/engine.toml"))
# The games that were Python modules once, whose engines were snapshot before the port: a game
# brought as data from the start has no module to be held to.
PORTED = sorted(path.stem for path in GOLDEN.glob("*.json"))


def engine_file(slug: str) -> Path:
    return FIXTURES / slug / "engine.toml"


def definition(slug: str) -> dict:
    with engine_file(slug).open("rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("slug", PORTED)
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


def test_the_schema_and_the_loader_know_every_rule_of_the_vocabulary():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    kinds = {ref["$ref"].removeprefix("#/$defs/rule_") for ref in schema["$defs"]["rule"]["oneOf"]}
    vocabulary = {
        value
        for value in vars(rules).values()
        if isinstance(value, type) and issubclass(value, rules.Rule) and value is not rules.Rule
    }
    assert kinds == set(RULE_KINDS)
    assert set(RULE_KINDS.values()) == vocabulary


def refused(definition: dict) -> GameFileError:
    with pytest.raises(GameFileError) as caught:
        engine_from_definition(definition, file="engine.toml")
    return caught.value


DELETE = object()
# (game, where in its file, the value put there or DELETE, the path named, the reason's words)
BROKEN = [
    pytest.param(
        "conquest-of-orion", ("charts", 1, "stats"), ["tier", "speed"],
        "charts[1].stats[1]", "unknown stat 'speed'; known: cost_blue", id="chart-unknown-stat",
    ),
    pytest.param(
        "conquest-alpha-tactics", ("charts", 0, "stats"), ["quadrant"],
        "charts[0].stats[0]", "'quadrant' is no whole-number stat", id="chart-of-a-choice-stat",
    ),
    pytest.param(
        "conquest-for-the-capital", ("formats", 0, "rules", 1, "zone"), "upgrades",
        "formats[0].rules[1].zone", "unknown zone 'upgrades'; known: battle, upgrade",
        id="rule-unknown-zone",
    ),
    pytest.param(
        "conquest-of-orion", ("formats", 1, "rules", 2, "types"), ["Planet", "Moon"],
        "formats[1].rules[2].types[1]", "unknown card type 'Moon'", id="rule-unknown-type",
    ),
    pytest.param(
        "fate-foretold", ("card_types", 0, "zone"), "deck",
        "card_types[0].zone", "unknown zone 'deck'", id="card-type-unknown-zone",
    ),
    pytest.param(
        "conquest-of-fates", ("table", "steps", 0, "deals", 0, "to"), ["hands"],
        "table.steps[0].deals[0].to[0]", "unknown table zone 'hands'", id="deal-unknown-zone",
    ),
    pytest.param(
        "conquest-alpha-tactics", ("table", "steps", 3, "tally", 0, "counter"), "points",
        "table.steps[3].tally[0].counter", "unknown counter 'points'", id="unknown-counter",
    ),
    pytest.param(
        "conquest-alpha-tactics", ("formats", 2, "rules", 2, "filter"), "colour:blue -!Earth",
        "formats[2].rules[2].filter", "unknown key “colour”", id="unknown-filter-key",
    ),
    pytest.param(
        "conquest-of-fates", ("formats", 0, "rules", 0, "setting"), "size",
        "formats[0].rules[0].setting", "unknown setting 'size'", id="unknown-setting",
    ),
    pytest.param(
        "conquest-of-fates", ("formats", 1, "rules", 0, "exactly"), "twenty",
        "formats[1].rules[0].exactly", "'twenty' is not of type 'integer'", id="schema-type",
    ),
    pytest.param(
        "fate-foretold", ("formats", 0, "rules", 0, "kind"), "deck_size",
        "formats[0].rules[0].kind", "unknown rule kind", id="unknown-rule-kind",
    ),
    pytest.param(
        "conquest-for-the-capital", ("formats", 0, "rules", 3, "source"), DELETE,
        "formats[0].rules[3]", "'source' is a required property", id="rule-without-source",
    ),
    pytest.param(
        "conquest-of-fates", ("stats", 0, "kind"), "float",
        "stats[0].kind", "'float' is not one of", id="unknown-stat-kind",
    ),
    pytest.param(
        "conquest-alpha-tactics", ("table", "second_deck", "format"), "target",
        "table.second_deck.format", "unknown format 'target'", id="second-deck-unknown-format",
    ),
    pytest.param(
        "conquest-alpha-tactics", ("table", "second_deck", "zone"), "targets",
        "table.second_deck.zone", "unknown table zone 'targets'", id="second-deck-unknown-zone",
    ),
    pytest.param(
        "conquest-alpha-tactics", ("table", "second_deck", "default"), "points>=0",
        "table.second_deck.default", "unknown key “points”", id="second-deck-unknown-filter-key",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("game", "where", "value", "path", "reason"), BROKEN)
def test_a_broken_game_file_is_refused_naming_the_file_the_path_and_the_reason(
    game, where, value, path, reason
):
    broken = definition(game)
    parent = broken
    for key in where[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    error = refused(broken)
    assert (error.file, error.path) == ("engine.toml", path)
    assert reason in error.reason
    assert str(error) == f"engine.toml: {path}: {error.reason}"


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


@pytest.mark.parametrize("slug", PORTED)
def test_the_site_serves_each_game_from_its_file_with_its_simulation_attached(slug):
    served = engines.get_engine(slug)
    assert snapshot(served) == golden(slug)
    assert served.goldfish is not None and served.odds is not None
    assert served.goldfish_summary and served.goldfish_cost < 1


def test_a_broken_goldfish_file_is_refused_naming_it_the_path_and_the_reason(tmp_path):
    from engines.gamefile import read_game_folder

    folder = tmp_path / "conquest-of-fates"
    shutil.copytree(FIXTURES / "conquest-of-fates", folder)
    definition = read_game_folder(folder)
    definition["goldfish"]["turn"][0]["do"] = "teleport"
    with pytest.raises(GameFileError) as caught:
        engines.game_engine(definition, file=str(folder / "engine.toml"))
    assert caught.value.file == str(folder / "goldfish.toml")
    assert caught.value.path.startswith("turn[0]")
    assert "teleport" in caught.value.reason


def test_rules_with_a_card_filter_survive_the_checks_cache(tmp_path):
    # Check results, rules included, are pickled into the cache.
    fmt = engines.get_engine("conquest-alpha-tactics").format("targets-short-2p")
    assert pickle.loads(pickle.dumps(fmt)) == fmt


def test_games_are_read_from_the_folder_given(tmp_path):
    shutil.copytree(FIXTURES / "fate-foretold", tmp_path / "fate-foretold")
    assert list(engines.load_engines(tmp_path)) == ["fate-foretold"]


ROOT = FIXTURES.parent
GAME_WORDS = re.compile(r"orion|fates|foretold|conquest|tactics|the capital", re.IGNORECASE)
# Still naming a game, each for a reason of its own (none now).
NOT_YET: set[str] = set()


def test_no_python_module_or_template_outside_tests_and_migrations_names_a_game():
    naming = sorted(
        str(path.relative_to(ROOT))
        for folder in ("cardsite", "decks", "engines")
        for pattern in ("*.py", "*.html")
        for path in (ROOT / folder).rglob(pattern)
        if "migrations" not in path.parts and GAME_WORDS.search(path.read_text(encoding="utf-8"))
    )
    assert [path for path in naming if path not in NOT_YET] == []


@pytest.mark.parametrize(
    ("where", "key", "value", "path"),
    [
        (("piles", "battle"), "zone", "battles", "piles.battle.zone"),
        (("cards", "draws_six"), "type", "Battel", "cards.draws_six.type"),
        (("cards", "draws_six"), "stat", "starz", "cards.draws_six.stat"),
    ],
)
def test_a_goldfish_file_naming_what_its_game_lacks_is_refused(tmp_path, where, key, value, path):
    from engines.gamefile import read_game_folder

    folder = tmp_path / "conquest-for-the-capital"
    shutil.copytree(FIXTURES / "conquest-for-the-capital", folder)
    definition = read_game_folder(folder)
    table = definition["goldfish"]
    for step in where:
        table = table[step]
    table[key] = value
    with pytest.raises(GameFileError) as caught:
        engines.game_engine(definition, file=str(folder / "engine.toml"))
    assert (caught.value.file, caught.value.path) == (str(folder / "goldfish.toml"), path)
    assert repr(value) in caught.value.reason


def test_a_stat_misspelt_in_a_goldfish_expression_is_refused(tmp_path):
    from engines.gamefile import read_game_folder

    folder = tmp_path / "conquest-for-the-capital"
    shutil.copytree(FIXTURES / "conquest-for-the-capital", folder)
    definition = read_game_folder(folder)
    definition["goldfish"]["turn"][1]["best"] = "attack + defense"
    with pytest.raises(GameFileError) as caught:
        engines.game_engine(definition, file=str(folder / "engine.toml"))
    assert caught.value.path.startswith("turn[1].best")
    assert "'defense'" in caught.value.reason
