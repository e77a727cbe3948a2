"""Fate Foretold: a communal Nest of unique cards in four suits; Sigils and Tokens stay outside."""

from engines.base import CardTypeSpec, FaceLayout, GameEngine, Zone

RULEBOOK = "fate-foretold.txt"

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
)
