"""Worked examples for the syntax page. A test runs each one: it must parse, warn nothing and
find at least one card in the loaded fixtures, so the documentation cannot drift from the code.
The COLLECTION examples need a signed-in viewer: their test runs them for a user owning three
copies of one printing."""

from typing import NamedTuple

from engines import ENGINES


class Example(NamedTuple):
    query: str
    meaning: str


GENERAL = [
    Example("deridex", "names containing “deridex”, ignoring case, accents and apostrophes"),
    Example('"pale horse"', "names containing the phrase"),
    Example('!"The Insight"', "exactly that name"),
    Example("o:draw", "rules text with a word starting “draw” (draw, draws, drawn)"),
    Example('o:"draw a card"', "rules text with that phrase"),
    Example("is:sample", "cards from unofficial sample sets (is:official for the others)"),
    Example("game:orion t:planet", "planets in Conquest of Orion"),
    Example("t:planet or t:satellite", "either"),
    Example("-is:sample t:unit", "units from the rulebooks only"),
]

# `own` reads the signed-in viewer's collection (and their pool's); anonymously it is dropped.
COLLECTION = [
    Example("is:owned", "every printing you own, with your pool's copies if you pooled"),
    Example("own>=3", "printings you hold three or more copies of"),
    Example("own=0 game:orion r>=silver", "Silver and Gold Conquest of Orion cards you lack"),
    Example("-is:owned t:planet", "planets you do not own yet"),
]

# Each game's own, from its engine.toml's `examples`: kept up to date as games are loaded.
BY_GAME: dict[str, list[Example]] = ENGINES.derived(
    lambda: {
        slug: [Example(e.query, e.meaning) for e in engine.examples]
        for slug, engine in ENGINES.items()
    }
)
