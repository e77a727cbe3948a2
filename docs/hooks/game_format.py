"""The game format reference (reference/game-format.md), written at build time from
engines/game.schema.json so that the page a game author reads is the schema the loader checks.

The rendering knows JSON Schema, not our format: any schema's $defs, properties, types, enums,
required keys, descriptions, nested objects and arrays, and oneOf/anyOf alternatives told
apart by a constant `kind` (or another constant key) become Markdown tables. Until the schema
exists the page says so in one line, so the site builds either way."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

SCHEMA = Path(__file__).resolve().parents[2] / "engines" / "game.schema.json"
PAGE = "reference/game-format.md"
TITLE = "Game format"
MISSING = (
    "`engines/game.schema.json` does not exist yet: this reference is generated from it "
    "when it does."
)

Schema = dict[str, Any]

# Keywords that narrow a value, in the words the tables use for them.
CONSTRAINTS = (
    ("default", "default {}"),
    ("minimum", "at least {}"),
    ("exclusiveMinimum", "more than {}"),
    ("maximum", "at most {}"),
    ("exclusiveMaximum", "less than {}"),
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minItems", "min. items {}"),
    ("maxItems", "max. items {}"),
    ("uniqueItems", "items unique: {}"),
    ("pattern", "matches {}"),
    ("format", "format {}"),
)


def anchor(name: str) -> str:
    """An id of our own for each definition: stable, and free of the heading's markup."""
    return "def-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def cell(text: str) -> str:
    """Text safe in a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def code(value: Any) -> str:
    return f"`{json.dumps(value) if not isinstance(value, str) else value}`"


def plain(value: Any) -> str:
    """A number as itself; anything else (a default, a pattern) as code."""
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    return str(value) if is_number else code(value)


def ref_name(schema: Schema) -> str | None:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return ref.removeprefix("#/$defs/")
    return None


def alternatives(schema: Schema) -> list[Schema] | None:
    found = schema.get("oneOf", schema.get("anyOf"))
    return found if isinstance(found, list) else None


def type_of(schema: Schema) -> str:
    """A value's type in a few words, linking any definition it refers to."""
    name = ref_name(schema)
    if name is not None:
        return f"[`{name}`](#{anchor(name)})"
    if "const" in schema:
        return code(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(code(v) for v in schema["enum"])
    options = alternatives(schema)
    if options is not None:
        return "one of: " + "; ".join(type_of(option) for option in options)
    kind = schema.get("type")
    if kind == "array" or (kind is None and "items" in schema):
        items = schema.get("items")
        return "array of " + (type_of(items) if isinstance(items, dict) else "anything")
    if kind == "object" or (kind is None and "properties" in schema):
        values = schema.get("additionalProperties")
        if "properties" not in schema and isinstance(values, dict):
            return "map of string to " + type_of(values)
        return "object"
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind) if kind else "anything"


def constraints(schema: Schema) -> str:
    said = [words.format(plain(schema[key])) for key, words in CONSTRAINTS if key in schema]
    return "; ".join(said)


def nested(schema: Schema) -> Schema | None:
    """The inline object (or alternatives) a property holds, itself or as array items, which
    gets a table of its own; a reference is described under its definition instead."""
    inner = schema.get("items") if isinstance(schema.get("items"), dict) else schema
    if ref_name(inner) is not None:
        return None
    if "properties" in inner or alternatives(inner) is not None:
        return inner
    values = inner.get("additionalProperties")
    if (
        "properties" not in inner
        and isinstance(values, dict)
        and ref_name(values) is None
        and ("properties" in values or alternatives(values) is not None)
    ):
        return values
    return None


def discriminator(options: list[Schema], defs: Schema) -> str | None:
    """The key every alternative fixes to a constant (`kind` first), if there is one."""
    resolved = [defs.get(ref_name(o) or "", o) if ref_name(o) else o for o in options]
    shared: set[str] | None = None
    for option in resolved:
        fixed = {
            key
            for key, prop in option.get("properties", {}).items()
            if isinstance(prop, dict) and ("const" in prop or len(prop.get("enum", [])) == 1)
        }
        shared = fixed if shared is None else shared & fixed
    if not shared:
        return None
    return "kind" if "kind" in shared else sorted(shared)[0]


def constant(option: Schema, key: str, defs: Schema) -> Any:
    target = defs.get(ref_name(option) or "", option) if ref_name(option) else option
    prop = target["properties"][key]
    return prop["const"] if "const" in prop else prop["enum"][0]


def describe(schema: Schema, path: str, level: int, defs: Schema) -> list[str]:
    """A schema's description, then its table (properties, or alternatives), then a section
    for each inline object inside it."""
    out: list[str] = []
    if schema.get("description"):
        out += [schema["description"], ""]
    options = alternatives(schema)
    if options is not None:
        out += describe_alternatives(options, path, level, defs)
    elif "properties" in schema:
        out += describe_object(schema, path, level, defs)
    else:
        extra = constraints(schema)
        out += [f"Type: {type_of(schema)}" + (f" ({extra})" if extra else "") + ".", ""]
    return out


def describe_object(schema: Schema, path: str, level: int, defs: Schema) -> list[str]:
    required = set(schema.get("required", []))
    out = [
        "| key | type | required | constraints | description |",
        "|---|---|---|---|---|",
    ]
    inner: list[tuple[str, Schema]] = []
    for key, prop in schema["properties"].items():
        prop = prop if isinstance(prop, dict) else {}
        below = nested(prop)
        where = f"{path}.{key}" if path else key
        if below is not None:
            where += "[]" if below is prop.get("items") else ""
            where += "{}" if below is prop.get("additionalProperties") else ""
            inner.append((where, below))
        kind = type_of(prop) + (f" ([below](#{anchor(where)}))" if below is not None else "")
        out.append(
            f"| `{key}` | {cell(kind)} | {'yes' if key in required else 'no'} "
            f"| {cell(constraints(prop))} | {cell(prop.get('description', ''))} |"
        )
    if schema.get("additionalProperties") is False:
        out += ["", "No other keys are allowed."]
    out.append("")
    for where, below in inner:
        out += [f"{'#' * level} `{where}` {{#{anchor(where)}}}", ""]
        out += describe(below, where, min(level + 1, 6), defs)
    return out


def describe_alternatives(options: list[Schema], path: str, level: int, defs: Schema) -> list[str]:
    key = discriminator(options, defs)
    out: list[str] = []
    inline: list[tuple[str, Schema]] = []
    if key is None:
        out += ["One of:", ""]
        out += [f"- {type_of(option)}" for option in options]
        out.append("")
        return out
    out += [f"Told apart by `{key}`:", "", f"| `{key}` | what it is |", "|---|---|"]
    for option in options:
        value = constant(option, key, defs)
        if ref_name(option) is not None:
            what = type_of(option)
        else:
            where = f"{path} ({key} {value})".strip()
            inline.append((where, option))
            what = f"[below](#{anchor(where)})"
        text = option.get("description", "") if ref_name(option) is None else ""
        out.append(f"| {code(value)} | {cell(what + (': ' + text if text else ''))} |")
    out.append("")
    for where, option in inline:
        body = {k: v for k, v in option.items() if k != "description"}
        out += [f"{'#' * level} `{where}` {{#{anchor(where)}}}", ""]
        out += describe(body, path, min(level + 1, 6), defs)
    return out


def render(schema: Schema, title: str = TITLE) -> str:
    """The whole reference page for a JSON Schema, as Markdown."""
    defs: Schema = schema.get("$defs", {})
    out = [f"# {schema.get('title', title)}", ""]
    out += ["Generated from `engines/game.schema.json`: edit the schema, not this page.", ""]
    root = {k: v for k, v in schema.items() if k not in ("$defs", "title")}
    out += ["## The document", ""]
    out += describe(root, "", 3, defs)
    for name, definition in defs.items():
        out += [f"## `{name}` {{#{anchor(name)}}}", ""]
        out += describe(definition, name, 3, defs)
    return "\n".join(out).rstrip() + "\n"


def page_for(path: Path) -> str:
    if not path.exists():
        return f"# {TITLE}\n\n{MISSING}\n"
    return render(json.loads(path.read_text(encoding="utf-8")))


def on_files(files: Files, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, PAGE, content=page_for(SCHEMA)))
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    # `make docs-serve` rebuilds when the schema changes, as it does for a page.
    server.watch(str(SCHEMA.parent))
    return server
