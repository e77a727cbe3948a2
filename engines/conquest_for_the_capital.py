"""Conquest for the Capital: each faction's 12 Battle cards and 8 Upgrade cards."""

from engines.base import CardTypeSpec, FaceLayout, GameEngine, StatField, StatKind, Zone
from engines.rules import Format, OneFaction, TypesNotAllowed, ZoneSize

RULEBOOK = "conquest-for-the-capital.txt"

FORMATS = (
    Format(
        slug="faction-deck",
        name="Faction deck",
        description="A faction's 12 Battle cards and 8 Upgrade cards, all of that faction.",
        needs_faction=True,
        rules=(
            ZoneSize(
                source="Game Components: each faction comes with 12 Battle Cards",
                zone="battle",
                exactly=12,
                label="the Battle deck",
            ),
            ZoneSize(
                source="Game Components: each faction comes with 8 Upgrade Cards",
                zone="upgrade",
                exactly=8,
                label="the Upgrade deck",
            ),
            OneFaction(
                source="Board Setup, 1: 'Each player takes their faction's units, battle "
                "and upgrade cards'",
                neutral_allowed=False,
            ),
            TypesNotAllowed(
                source="Faction Rules, Elves: the Elf Special card is kept by the "
                "Elf player, not shuffled into a deck",
                types=("Elf Special",),
            ),
        ),
    ),
)

ENGINE = GameEngine(
    slug="conquest-for-the-capital",
    name="Conquest for the Capital",
    rulebook=RULEBOOK,
    stats=(
        StatField(
            "attack",
            "Attack bonus",
            StatKind.INTEGER,
            "Attack a Battle card adds to one battle (Battle Cards).",
            aliases=("atk", "attack"),
            minimum=0,
        ),
        StatField(
            "defence",
            "Defence bonus",
            StatKind.INTEGER,
            "Defence a Battle card adds to one battle (Battle Cards).",
            aliases=("def", "defence", "defense"),
            minimum=0,
        ),
        StatField(
            "stars",
            "Star rating",
            StatKind.INTEGER,
            "Upgrade strength guide for new players, up to 3 stars (Upgrade Cards).",
            aliases=("stars",),
            minimum=1,
            maximum=3,
        ),
        StatField(
            "timing",
            "Timing",
            StatKind.CHOICE,
            "Upgrade effect: active happens once, passive continues each turn (Upgrade Cards).",
            aliases=("timing",),
            choices=("active", "passive"),
        ),
    ),
    card_types=(
        CardTypeSpec(
            "Battle",
            zone="battle",
            source="Battle Cards",
            description="Adds Attack, Defence and a special effect to one battle.",
        ),
        CardTypeSpec(
            "Upgrade",
            zone="upgrade",
            source="Upgrade Cards",
            description="Drawn 3, keep 1 each Upgrade Phase; active or passive.",
        ),
        CardTypeSpec(
            "Elf Special",
            zone=None,
            source="Game Components; Faction Rules: Elves",
            description="The Elf player begins the game with it; not part of a deck.",
        ),
    ),
    zones=(
        Zone("battle", "Battle deck", "A faction's 12 Battle cards (Game Components)."),
        Zone("upgrade", "Upgrade deck", "A faction's 8 Upgrade cards (Game Components)."),
    ),
    # Battle Cards: Attack and Defence bonus plus a keyword; Upgrade Cards: up to 3 stars and
    # an active or passive effect.
    face=FaceLayout(
        footer_stats=("attack", "defence"),
        star_stats=("stars",),
        tag_stats=("timing",),
        stat_symbols=(("attack", "ATTACK"), ("defence", "DEFENCE"), ("timing", "effect")),
        stat_colours=(("attack", "#B8433A"), ("defence", "#2F6FD6")),
        badge_keyword_kinds=("battle",),
    ),
    formats=FORMATS,
    chart_stat="attack",
)
