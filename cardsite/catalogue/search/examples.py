"""Worked examples for the syntax page. A test runs each one: it must parse, warn nothing and
find at least one card in the loaded fixtures, so the documentation cannot drift from the code.
The COLLECTION examples need a signed-in viewer: their test runs them for a user owning three
copies of one printing."""

from typing import NamedTuple


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

BY_GAME = {
    "conquest-of-fates": [
        Example("is:apex", "Apex units (at most one per deck)"),
        Example("t:celestial", "Celestials"),
        Example("cq>=6 -is:apex", "units worth 6 CQ or more that are not Apex"),
        Example("is:lightspeed order:cq dir:desc", "Lightspeed units, highest CQ first"),
    ],
    "conquest-of-orion": [
        Example("f:humans tier<=2", "Human cards you can play by Tier 2"),
        Example("kw:guardian", "cards with Guardian"),
        Example("dmg>=4 hp>=5", "units dealing 4 or more damage with 5 or more health"),
        Example("r>=silver red<=1", "Silver or Gold cards costing at most 1 Red"),
        Example("t:fast", "Fast abilities"),
    ],
    "fate-foretold": [
        Example("f:heart", "cards of the Heart suit"),
        Example("t:sigil", "Sigils (kept outside the Nest)"),
        Example("t:token", "Tokens (kept outside the game until a card creates them)"),
        Example('"horse" or famine or war', "the Four Horses of the Apocalypse"),
    ],
    "conquest-for-the-capital": [
        Example("f:dwarves t:battle atk>=2", "Dwarf Battle cards with at least +2 Attack"),
        Example("kw:removal", "Battle cards with the Removal keyword"),
        Example("t:upgrade stars=3", "three-star Upgrades"),
        Example("timing:passive", "passive Upgrades"),
    ],
    "conquest-alpha-tactics": [
        Example("f:romulan t:ship", "Romulan ships"),
        Example(
            "is:s cp>=7",
            "Scoring Effect cards with combat power 7 or more (is:p, is:o, is:x, is:n)",
        ),
        Example(
            "vp>=3 order:vp dir:desc", "target cards worth 3 or more victory points, best first"
        ),
        Example("planet:federation", "blue Federation planets"),
        Example("t:planet -is:sample", "the cards the rulebook calls planets"),
    ],
}
