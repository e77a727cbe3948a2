"""Conquest for the Capital: each faction's 12 Battle cards and 8 Upgrade cards."""

from dataclasses import replace

from engines.base import (
    CardBack,
    CardTypeSpec,
    FaceLayout,
    GameEngine,
    ResultChart,
    StatField,
    StatKind,
    SummaryFigure,
    Zone,
    by_faction,
    by_type,
    curve,
)
from engines.conquest_for_the_capital_goldfish import (
    GOLDFISH_POLICY,
    goldfish,
    goldfish_reference,
    odds,
)
from engines.hands import HandRules
from engines.rules import CardsNotAllowed, CopyLimit, Format, OneFaction, ZoneSize
from engines.table import Choice, Clear, Deal, Table, TableZone, TurnStep, ZoneKind

RULEBOOK = "conquest-for-the-capital.txt"

_ONCE_READING = (
    "Reading: the rulebook does not say that each card is printed once; the site reads a "
    "faction's '12 Battle Cards' and '8 Upgrade Cards' as that many different cards, so a "
    "card named twice is one the faction does not have"
)


FORMATS = (
    Format(
        slug="faction-deck",
        name="Faction deck",
        description="A faction's 12 Battle cards and 8 Upgrade cards, all of that faction, "
        "each card once.",
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
            # The rulebook never says each card is printed once: the check is the site's
            # reading of "12 Battle Cards" as twelve different cards, and says so.
            CopyLimit(
                source="Game Components: 'Each factions comes with ... 12 Battle Cards'; Board "
                "Setup, 1: 'Each player takes their faction's units, battle and upgrade cards'. "
                f"{_ONCE_READING}",
                maximum=1,
                zone="battle",
            ),
            CopyLimit(
                source="Game Components: 'Each factions comes with ... 8 Upgrade Cards'; Board "
                "Setup, 1: 'Each player takes their faction's units, battle and upgrade cards'. "
                f"{_ONCE_READING}",
                maximum=1,
                zone="upgrade",
            ),
            OneFaction(
                source="Board Setup, 1: 'Each player takes their faction's units, battle "
                "and upgrade cards'",
                neutral_allowed=False,
            ),
            # By name: the rulebook gives the card no type (it is listed among the Game
            # Components beside the tokens, not among a faction's Battle and Upgrade cards).
            CardsNotAllowed(
                source="Game Components: '1 Elf Special Card', listed apart from what 'Each "
                "factions comes with' (12 Battle Cards, 8 Upgrade Cards); Faction Rules, Elves: "
                "'Begin the game with 6 units and the Elf Special card'",
                names=frozenset({"Elf Special Card"}),
                what="the Elf Special Card, which the Elves begin the game with",
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
        # The site's proxy back (not the publisher's): amber tiles on oxblood.
        back=CardBack(colours=("#4B1F1A", "#E8A93A"), pattern="hexes"),
    ),
    formats=FORMATS,
    chart_stat="attack",
    # Battle Cards' bonuses and Upgrade Cards' star rating: what tells two cards apart.
    key_stats=("attack", "defence", "stars"),
    # A Battle card adds Attack and Defence to one battle (Battle Cards): side by side.
    charts=(
        curve("Battle bonuses", "attack", "defence", axis="Bonus"),
        by_type(),
        by_faction(),
    ),
)


# The engine, with its goldfish procedure (engines/conquest_for_the_capital_goldfish.py).
_RULES = HandRules(
    opening=4,
    zone="battle",
    per_turn=4,
    refill=True,
    reshuffle_discards=True,
    source="Setup 12: draw 4 Battle Cards; Deployment Phase: draw Battle Cards until you "
    "have 4; reshuffle the used Battle Cards if you run out",
)

_BATTLE_CARDS = "Battle Cards: place all used Battle Cards in a discard pile"
_PHASES = "Turn Order"

TABLE = Table(
    zones=(
        TableZone(
            "battle-deck",
            "Battle deck",
            ZoneKind.PILE,
            "Board Setup 2: each player shuffles their battle and upgrade deck",
            holds=("battle",),
        ),
        TableZone("hand", "Battle hand", ZoneKind.HAND, "Board Setup 12: draw 4 Battle Cards"),
        TableZone(
            "in-battle",
            "Battle card in play",
            ZoneKind.AREA,
            "Battle Cards: use one of your Battle Cards in a battle; reveal simultaneously",
        ),
        TableZone("used", "Used Battle Cards", ZoneKind.PILE, _BATTLE_CARDS, face_up=True),
        TableZone(
            "upgrade-deck",
            "Upgrade deck",
            ZoneKind.PILE,
            "Board Setup 2: each player shuffles their battle and upgrade deck",
            holds=("upgrade",),
        ),
        TableZone(
            "upgrade-draw",
            "Upgrade cards drawn",
            ZoneKind.AREA,
            "Upgrade Cards: each faction draws 3 upgrade cards and chooses 1 to keep",
        ),
        TableZone(
            "upgrades",
            "Upgrades",
            ZoneKind.AREA,
            "Upgrade Cards: an active or a passive effect",
        ),
    ),
    deck="battle-deck",
    hand="hand",
    discard="used",
    rules=_RULES,
    opening_name="Board setup",
    opening_source="Board Setup 2 and 12: shuffle the battle and upgrade decks, draw 4",
    steps=(
        TurnStep(
            "Deployment Phase",
            "Battle Cards: during the Deployment Phase, draw Battle Cards until you have 4",
            deals=(Deal(4, "battle-deck", ("hand",), refill=True),),
        ),
        TurnStep("Orders Phase", _PHASES),
        TurnStep("Movement Phase 1", _PHASES),
        TurnStep("Redistribution Phase 1", _PHASES),
        TurnStep("Battle Phase 1", _PHASES),
        TurnStep("Movement Phase 2", _BATTLE_CARDS, clear=(Clear(("in-battle",), "used"),)),
        TurnStep("Redistribution Phase 2", _PHASES),
        TurnStep("Battle Phase 2", _PHASES),
        TurnStep("Retreat Phase", _BATTLE_CARDS, clear=(Clear(("in-battle",), "used"),)),
        TurnStep(
            "Upgrade Phase",
            "Upgrade Cards: draw 3 upgrade cards and choose 1 to keep; put the remaining "
            "cards on the bottom of your upgrade deck",
            deals=(Deal(3, "upgrade-deck", ("upgrade-draw",)),),
        ),
        TurnStep("Rotate First Player", _PHASES, end_of_turn=True),
    ),
    choices=(
        Choice(
            "upgrade-draw",
            1,
            "upgrades",
            "upgrade-deck",
            "Upgrade Cards: choose 1 to keep; the rest go on the bottom of the upgrade deck",
        ),
    ),
)

ENGINE = replace(
    ENGINE,
    goldfish=goldfish,
    goldfish_reference=goldfish_reference,
    goldfish_policy=GOLDFISH_POLICY,
    # Measured 2026-11-24 (tests/benchmarks/bench_goldfish.py, the sample set's legal deck,
    # default policy, one core): 176,800 vectorised games a second beside 19,000 default
    # Conquest of Fates games (the unit) in the same run: 9.3 times cheaper, rounded up.
    goldfish_cost=0.12,
    goldfish_charts=(
        ResultChart(
            "bonus_per_turn",
            "Attack plus Defence played, by turn (mean per game)",
            "Turn",
            "Attack + Defence",
            spread="bonus_per_turn_sd",
        ),
        ResultChart("attack", "Attack bonus of the Battle cards played", "Attack", "Cards played"),
        ResultChart(
            "defence", "Defence bonus of the Battle cards played", "Defence", "Cards played"
        ),
    ),
    goldfish_summary=(
        SummaryFigure(
            "attack.mean", "Attack bonus of a Battle card played", "mean", spread="attack.sd"
        ),
        SummaryFigure(
            "defence.mean", "Defence bonus of a Battle card played", "mean", spread="defence.sd"
        ),
        SummaryFigure(
            "bonus_per_turn.*.mean",
            "Turn {part}: Attack plus Defence played",
            "mean",
            spread="bonus_per_turn.*.sd",
        ),
        SummaryFigure(
            "hand_of_six_by_turn.*",
            "Hand of six Battle cards by turn {part}",
            "share",
            exact="hand_of_six_by_turn.*",
        ),
    ),
    odds=odds,
    hand=_RULES,
    table=TABLE,
)
