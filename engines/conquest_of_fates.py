"""Conquest of Fates: factions of Units worth Conquest Value, plus at most one Celestial."""

from engines.base import CardTypeSpec, FaceLayout, GameEngine, StatField, StatKind, Zone

RULEBOOK = "conquest-of-fates.txt"

ENGINE = GameEngine(
    slug="conquest-of-fates",
    name="Conquest of Fates",
    rulebook=RULEBOOK,
    stats=(
        StatField(
            key="cq",
            label="Conquest Value",
            kind=StatKind.INTEGER,
            aliases=("cq", "conquest"),
            help="Base CQ printed on the card (Core Rules, Your Cards: D - Conquest Value).",
        ),
    ),
    card_types=(
        CardTypeSpec(
            "Unit",
            zone="main",
            source="Core Rules, Your Cards: Units",
            description="The primary cards players deploy; each has a Conquest Value (CQ).",
        ),
        CardTypeSpec(
            "Celestial",
            zone="main",
            source="Core Rules, Your Cards: Celestials",
            description="Remnants of stars and other cosmic bodies; a deck may contain 1.",
        ),
    ),
    zones=(Zone("main", "Supply Deck", "Your deck, drawn from in 7-card supply drops."),),
    # Your Cards A-I: faction, name, artwork, CQ, attributes, ability trigger, special ability,
    # proxy QR code, card and set info.
    face=FaceLayout(
        corner_stats=("cq",),
        stat_symbols=(("cq", "CQ"),),
        lead_keyword_kinds=("trigger",),
    ),
)
