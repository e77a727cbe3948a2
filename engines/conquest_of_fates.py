"""Conquest of Fates: factions of Units worth Conquest Value, plus at most one Celestial."""

from engines.base import CardTypeSpec, FaceLayout, GameEngine, StatField, StatKind, Zone
from engines.rules import CardLimit, Format, FormatSetting, OneFaction, Severity, ZoneSize

RULEBOOK = "conquest-of-fates.txt"

FORMATS = (
    Format(
        slug="standard",
        name="Standard",
        description="One faction's deck: at most one Celestial and one Apex unit. The rulebook "
        "gives no deck size, so a site setting holds it.",
        needs_faction=True,
        settings=(
            FormatSetting(
                "deck_size",
                "Deck size",
                None,
                "The rulebook leaves deck building to guidelines it does not print (Setup: "
                "'as long as it follows our deckbuilding guidelines'). Empty: size not checked.",
            ),
        ),
        rules=(
            ZoneSize(
                source="Setup: 'choose their deck ... as long as it follows our "
                "deckbuilding guidelines' (no size given; set by the site)",
                setting="deck_size",
                code="deck_size",
            ),
            ZoneSize(
                source="Battles: each of the 3 battles begins with a supply drop of 7 cards",
                minimum=21,
                code="deck_size",
                severity=Severity.WARNING,
                label="the deck (three supply drops draw 21)",
            ),
            CardLimit(
                source="Your Cards, Celestials: 'Your deck may also contain 1 Celestial card'",
                card_type="Celestial",
                maximum=1,
            ),
            CardLimit(
                source="Terms & Clarifications, APEX: 'a special deck-building "
                "restriction of 1 per Deck'",
                keyword="Apex",
                maximum=1,
            ),
            OneFaction(
                source="Setup: 'all players need to select their faction - and choose their deck'",
                neutral_allowed=False,
            ),
        ),
    ),
)

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
    formats=FORMATS,
    chart_stat="cq",
)
