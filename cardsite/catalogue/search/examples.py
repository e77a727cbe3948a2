"""Worked examples for the syntax page, from the games' data: those spanning the games in
fixtures/search-examples.toml, each game's own in its engine.toml. A test runs each one: it
must parse, warn nothing and find at least one card in the loaded fixtures, so the
documentation cannot drift from the code. The COLLECTION examples need a signed-in viewer:
their test runs them for a user owning three copies of one printing."""

import tomllib
from typing import NamedTuple

from engines import ENGINES, GAMES_DIR


class Example(NamedTuple):
    query: str
    meaning: str


def _examples_across_games() -> dict[str, list[Example]]:
    # Examples that span the games name their cards and games: data, beside the games (the
    # folder the engines read, fixed for the process); a games folder without them has none.
    path = GAMES_DIR / "search-examples.toml"
    if not path.exists():
        return {}
    return {
        group: [Example(e["query"], e["meaning"]) for e in entries]
        for group, entries in tomllib.loads(path.read_text(encoding="utf-8")).items()
    }


_ACROSS = _examples_across_games()
GENERAL = _ACROSS.get("general", [])
# `own` reads the signed-in viewer's collection (and their pool's); anonymously it is dropped.
COLLECTION = _ACROSS.get("collection", [])

# Each game's own, from its engine.toml's `examples`: kept up to date as games are loaded.
BY_GAME: dict[str, list[Example]] = ENGINES.derived(
    lambda: {
        slug: [Example(e.query, e.meaning) for e in engine.examples]
        for slug, engine in ENGINES.items()
    }
)
