"""Fate Foretold: a communal Nest of unique cards in four suits; Sigils and Tokens stay outside."""

from engines.base import CardTypeSpec, FaceLayout, GameEngine, Zone
from engines.rules import CopyLimit, Format, TypesNotAllowed, ZoneSize

RULEBOOK = "fate-foretold.txt"

_NEST_RULES = (
    ZoneSize(
        source="How to Play, 1. Getting Started: 'a complete Nest (deck) of at least 60 "
        "unique Fate Foretold cards'",
        zone="nest",
        minimum=60,
        code="deck_size",
        label="the Nest",
    ),
    CopyLimit(
        source="How to Play, 1.: 'A Nest can only have one copy of each card in it'",
        maximum=1,
        zone="nest",
    ),
    TypesNotAllowed(
        source="How to Play, 1.: 'separate the six Sigils from the rest of the cards "
        "in the Nest' and 'separate the Nest (the deck) from the two Tokens'",
        types=("Sigil", "Token"),
        zone="nest",
    ),
    TypesNotAllowed(
        source="Glossary, Sigil: 'a horizontally formatted card that is not included in the nest'",
        types=("Nest Card", "Token"),
        zone="sigils",
    ),
    ZoneSize(
        source="How to Play, 1.: 'separate the six Sigils'",
        zone="sigils",
        maximum=6,
        label="the Sigils",
    ),
)

FORMATS = (
    Format(
        slug="nest",
        name="Nest",
        description="The communal Nest: at least 60 cards, each once; Sigils and Tokens "
        "kept outside it.",
        rules=_NEST_RULES,
    ),
    Format(
        slug="speed-run",
        name="Speed Run",
        description="The Nest for Speed Run, which needs 4 or 3 aligned cards instead of 5 "
        "(Alternate Ways to Play); the Nest is built the same way.",
        rules=_NEST_RULES,
    ),
)

ENGINE = GameEngine(
    slug="fate-foretold",
    name="Fate Foretold",
    rulebook=RULEBOOK,
    # Fate Foretold cards carry no numeric stats: suits are factions, the rest is rules text.
    stats=(),
    card_types=(
        CardTypeSpec(
            "Nest Card",
            zone="nest",
            source="Glossary of Terms: Card, Nest",
            description="A card of the Nest, each with a unique name.",
        ),
        CardTypeSpec(
            "Sigil",
            zone="sigils",
            source="Glossary of Terms: Sigil",
            description="A horizontal card kept outside the Nest; it aligns two suits.",
        ),
        CardTypeSpec(
            "Token",
            zone=None,
            source="Glossary of Terms: Token",
            description="A visual reminder created by a card; not part of the Nest.",
        ),
    ),
    zones=(
        Zone("nest", "Nest", "The communal deck: at least 60 unique cards (How to Play, 1)."),
        Zone("sigils", "Sigils", "Separated from the Nest before play; one per player."),
    ),
    # Suits are told apart by colour and symbol; a Sigil is a horizontal card (Glossary: Sigil).
    face=FaceLayout(landscape_types=("Sigil",), faction_badge=True),
    formats=FORMATS,
)
