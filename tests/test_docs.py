"""The documentation: the README stays short and its links land, the game format reference is
rendered from any JSON Schema (docs/hooks/game_format.py, which mkdocs runs at build time), the
game authors' guide quotes its example files as they are, and the goldfish procedure's
reference names everything its reader accepts."""

import importlib.util
import json
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import get_args

import pytest

from engines import game_engine
from engines.gamefile import GameFileError, read_game_folder
from engines.procedure.cards import TEST_KEYS
from engines.procedure.definition import CHART_FIELDS, COST_CARD_KEYS, ODDS_KEYS, SUMMARY_FIELDS
from engines.procedure.vocabulary import CHART_KINDS, MEASURE_KINDS, Step

ROOT = Path(__file__).resolve().parents[1]


def load_hook(name: str) -> ModuleType:
    # docs/ is not a package: mkdocs loads a hook from its path, and so do we.
    path = ROOT / "docs" / "hooks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_hook", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = load_hook("game_format")
table_pipes = load_hook("table_pipes")

# A small format in the shape a game's would take: definitions, a nested array of objects, an
# enum, a map, and rules told apart by `kind`, one of them inline.
SCHEMA = {
    "title": "Tiny game",
    "description": "Everything a tiny game is.",
    "type": "object",
    "required": ["slug", "formats"],
    "additionalProperties": False,
    "properties": {
        "slug": {"type": "string", "pattern": "^[a-z-]+$", "description": "The game's URL name."},
        "zones": {
            "type": "array",
            "description": "Where cards go.",
            "items": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "maxLength": 40},
                    "public": {"type": "boolean", "default": False},
                },
            },
        },
        "stats": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Stat"}},
        "formats": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Format"}},
    },
    "$defs": {
        "Stat": {
            "type": "string",
            "enum": ["number", "text"],
            "description": "What a stat holds.",
        },
        "Format": {
            "type": "object",
            "required": ["rules"],
            "properties": {"rules": {"type": "array", "items": {"$ref": "#/$defs/Rule"}}},
        },
        "Rule": {
            "description": "One construction rule.",
            "oneOf": [
                {"$ref": "#/$defs/CopyLimit"},
                {
                    "type": "object",
                    "description": "The deck is exactly this size.",
                    "properties": {
                        "kind": {"const": "zone_size"},
                        "size": {"type": "integer", "minimum": 1},
                    },
                },
            ],
        },
        "CopyLimit": {
            "type": "object",
            "required": ["kind", "copies"],
            "properties": {
                "kind": {"const": "copy_limit"},
                "copies": {"type": ["integer", "null"], "maximum": 9},
            },
        },
    },
}


def row(page: str, key: str) -> str:
    return next(line for line in page.splitlines() if line.startswith(f"| `{key}` |"))


def test_the_readme_is_at_most_200_lines_and_opens_with_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    assert len(lines) <= 200
    first_screen = "\n".join(lines[:15])
    assert "make run    #" in first_screen and "make test   #" in first_screen


def test_every_relative_link_in_the_readme_names_a_file_that_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if not link.startswith(("http://", "https://"))]
    assert local
    assert [link for link in local if not (ROOT / link).exists()] == []


def test_a_schema_renders_its_title_description_and_root_keys_with_what_is_required():
    page = hook.render(SCHEMA)
    assert page.startswith("# Tiny game\n")
    assert "Everything a tiny game is." in page
    assert row(page, "slug") == (
        "| `slug` | string | yes | matches `^[a-z-]+$` | The game's URL name. |"
    )
    assert "| `zones` | array of object ([below](#def-zones)) | no |" in row(page, "zones")
    assert "No other keys are allowed." in page


def test_a_nested_array_of_objects_gets_its_own_table_with_defaults_and_bounds():
    page = hook.render(SCHEMA)
    assert "### `zones[]` {#def-zones}" in page
    assert row(page, "name") == "| `name` | string | yes | at most 40 characters |  |"
    assert row(page, "public") == "| `public` | boolean | no | default `false` |  |"


def test_references_link_to_their_definitions_and_an_enum_lists_its_values():
    page = hook.render(SCHEMA)
    assert "map of string to [`Stat`](#def-stat)" in row(page, "stats")
    assert "array of [`Format`](#def-format)" in row(page, "formats")
    assert "min. items 1" in row(page, "formats")
    assert "## `Stat` {#def-stat}" in page
    assert "Type: one of `number`, `text`." in page
    assert "| `copies` | integer or null | yes | at most 9 |  |" in page


def test_alternatives_with_a_kind_are_listed_by_kind_and_an_inline_one_is_described_below():
    page = hook.render(SCHEMA)
    rule = page[page.index("## `Rule`") : page.index("## `CopyLimit`")]
    assert "One construction rule." in rule
    assert "Told apart by `kind`:" in rule
    assert "| `copy_limit` | [`CopyLimit`](#def-copylimit) |" in rule
    inline = "[below](#def-rule-kind-zone-size): The deck is exactly this size."
    assert f"| `zone_size` | {inline} |" in rule
    assert "### `Rule (kind zone_size)` {#def-rule-kind-zone-size}" in rule
    assert "| `size` | integer | no | at least 1 |  |" in rule


def test_alternatives_without_a_shared_constant_are_listed_as_types():
    page = hook.render({"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Stat"}], "$defs": {}})
    assert "One of:\n\n- string\n- [`Stat`](#def-stat)" in page


def test_every_in_page_link_of_a_rendered_schema_lands_on_an_anchor_it_defines():
    page = hook.render(SCHEMA)
    anchors = set(re.findall(r"\{#([a-z0-9-]+)\}", page))
    assert set(re.findall(r"\]\(#([a-z0-9-]+)\)", page)) <= anchors


def test_a_schema_file_that_does_not_exist_renders_a_one_line_note(tmp_path):
    page = hook.page_for(tmp_path / "game.schema.json")
    title, note = page.strip().split("\n\n")
    assert title == "# Game format"
    assert "\n" not in note and "does not exist yet" in note


def test_a_schema_file_is_read_and_rendered(tmp_path):
    path = tmp_path / "game.schema.json"
    path.write_text(json.dumps(SCHEMA), encoding="utf-8")
    assert hook.page_for(path) == hook.render(SCHEMA)


def test_a_pipe_escaped_for_github_in_a_table_cells_code_is_a_plain_pipe_on_the_site():
    page = "\n".join(
        [
            "| `GET /x/?as=text\\|json` | a \\| b |",
            "A line `a\\|b` outside a table.",
            "",
        ]
    )
    assert table_pipes.on_page_markdown(page) == "\n".join(
        ["| `GET /x/?as=text|json` | a \\| b |", "A line `a\\|b` outside a table.", ""]
    )


# A fenced block in a page that quotes a file opens with `# From <path>` (TOML) or
# `// From <path>` (JSON); a line `# ...` or `// ...` marks lines left out.
FENCE = re.compile(r"^( *)```[a-z]*\n(.*?)^\1```", re.DOTALL | re.MULTILINE)
FROM = re.compile(r"^(?:#|//) From (\S+)$")
ELIDED = ("# ...", "// ...")


def quoted_excerpts(page: str) -> list[tuple[str, list[list[str]]]]:
    """(path, its quoted runs of lines) for each block of the page that quotes a file."""
    found = []
    for indent, body in FENCE.findall(page):
        lines = [line.removeprefix(indent) for line in body.splitlines()]
        head = FROM.match(lines[0]) if lines else None
        if head is None:
            continue
        runs: list[list[str]] = [[]]
        for line in lines[1:]:
            if line.strip() in ELIDED:
                runs.append([])
            else:
                runs[-1].append(line)
        found.append((head[1], [run for run in runs if run]))
    return found


def test_every_file_the_game_authors_guide_quotes_holds_the_lines_quoted_in_that_order():
    page = (ROOT / "docs" / "pages" / "game-authoring.md").read_text(encoding="utf-8")
    excerpts = quoted_excerpts(page)
    assert {path for path, _ in excerpts} >= {
        "tests/games/example-game/engine.toml",
        "tests/games/example-game/goldfish.toml",
        "tests/games/example-game/game.json",
        "tests/games/example-game/sample.json",
    }
    for path, runs in excerpts:
        text = (ROOT / path).read_text(encoding="utf-8")
        at = 0
        for run in runs:
            quoted = "\n".join(run) + "\n"
            found = text.find(quoted, at)
            assert found >= 0, f"{path} does not hold, after what came before:\n{quoted}"
            at = found + len(quoted)


def test_an_excerpt_is_read_in_runs_split_where_lines_are_left_out():
    page = "\n".join(
        ["```toml", "# From a.toml", "x = 1", "# ...", "y = 2", "z = 3", "```", "```", "w", "```"]
    )
    assert quoted_excerpts(page) == [("a.toml", [["x = 1"], ["y = 2", "z = 3"]])]


def test_the_goldfish_procedure_reference_names_every_verb_key_and_kind_the_reader_knows():
    page = (ROOT / "docs" / "pages" / "reference" / "goldfish-procedure.md").read_text(
        encoding="utf-8"
    )
    headings = set(re.findall(r"^### `(\w+)`$", page, re.MULTILINE))
    # Each step of the vocabulary is the verb a file's `do` names, in lower case.
    assert {step.__name__.lower() for step in get_args(Step)} <= headings
    named = set(re.findall(r"`([a-z_]+)`", page))
    charts = {chart for kinds in CHART_KINDS.values() for chart in kinds}
    everything = (
        set(MEASURE_KINDS)
        | charts
        | TEST_KEYS
        | ODDS_KEYS
        | CHART_FIELDS
        | SUMMARY_FIELDS
        | COST_CARD_KEYS
    )
    assert everything - named == set()


# The guide's broken copies of the example: (file, text replaced, replacement).
BROKEN_EXAMPLES = [
    ("engine.toml", 'zone = "deck"\nexactly = 12', 'zone = "decks"\nexactly = 12'),
    ("engine.toml", "maximum = 2\n", 'maximum = "two"\n'),
    ("engine.toml", 'types = ["Relic"]', 'types = ["Relic"]\nfilter = "t:relic"'),
    ("goldfish.toml", 'best = "glow"\nto = "table"', 'best = "glow"\nto = "hand"'),
    ("goldfish.toml", 'holds = "lantern"', 'holds = "lanterns"'),
]


@pytest.mark.parametrize(("name", "before", "after"), BROKEN_EXAMPLES)
def test_each_refusal_the_game_authors_guide_shows_is_what_the_loader_says(
    tmp_path, name, before, after
):
    folder = tmp_path / "example-game"
    shutil.copytree(ROOT / "tests" / "games" / "example-game", folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert before in text
    path.write_text(text.replace(before, after, 1), encoding="utf-8")
    with pytest.raises(GameFileError) as refused:
        game_engine(read_game_folder(folder), file=str(folder / "engine.toml"))
    error = refused.value
    page = (ROOT / "docs" / "pages" / "game-authoring.md").read_text(encoding="utf-8")
    assert f"{Path(error.file).name}: {error.path}: {error.reason}" in page
