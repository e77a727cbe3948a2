"""Conquest of Fates: factions of Units worth Conquest Value, plus at most one Celestial."""

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
from engines.conquest_of_fates_goldfish import (
    GOLDFISH_POLICY,
    HAND_LIMIT,
    SUPPLY_DROP,
    goldfish,
    goldfish_reference,
    odds,
)
from engines.hands import HandRules, Mulligan
from engines.rules import (
    CardLimit,
    Format,
    FormatSetting,
    OneFaction,
    Rule,
    Severity,
    TypesNotAllowed,
    ZoneSize,
)
from engines.table import Clear, Counter, Deal, Table, TableZone, TurnStep, ZoneKind
from engines.table import Tally as TableTally  # engines.vectorised has a Tally of its own

RULEBOOK = "conquest-of-fates.txt"

_DECK_SIZE = FormatSetting(
    "deck_size",
    "Deck size",
    None,
    "The rulebook leaves deck building to guidelines it does not print (Setup: "
    "'as long as it follows our deckbuilding guidelines'). Empty: size not checked.",
)

_GUIDELINES = (
    "Setup: 'all players need to select their faction - and choose their deck. You can create "
    "your own deck, as long as it follows our deckbuilding guidelines ... To learn more about "
    "building your own deck go to our website COF.GG'"
)


def _rules(celestials: Rule) -> tuple[Rule, ...]:
    return (
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
        celestials,
        # Both readings fit the words; the stricter one is checked, and the source says so.
        CardLimit(
            source="Terms & Clarifications, APEX: 'Apex units have a special deck-building "
            "restriction of 1 per Deck'. Reading: the words allow one Apex unit in all or one "
            "copy of each Apex card; the site takes the first, one Apex unit in total",
            keyword="Apex",
            maximum=1,
        ),
        # Players pick a faction, but no printed rule keeps other factions' cards out of
        # their deck, so a mixed deck is worth a mention and no more.
        OneFaction(
            source=_GUIDELINES,
            neutral_allowed=False,
            severity=Severity.WARNING,
            note="This is only a warning: the rulebook does not limit a deck to one faction; "
            "it refers deck-building to the publisher's guidelines, which it does not print.",
        ),
    )


FORMATS = (
    Format(
        slug="standard",
        name="Standard",
        description="A deck of at most one Celestial and one Apex unit. The rulebook gives no "
        "deck size, so a site setting holds it, and does not confine a deck to one faction, "
        "so mixing factions is only a warning.",
        needs_faction=True,
        settings=(_DECK_SIZE,),
        rules=_rules(
            CardLimit(
                source="Your Cards, Celestials: 'Your deck may also contain 1 Celestial card'",
                card_type="Celestial",
                maximum=1,
            )
        ),
    ),
    Format(
        slug="homeworld",
        name="Homeworld",
        description="Every player starts with a Celestial in play, so the deck holds none; "
        "otherwise as Standard (Multiplayer Gameplay Configurations: Homeworld).",
        needs_faction=True,
        settings=(_DECK_SIZE,),
        rules=_rules(
            TypesNotAllowed(
                source="Multiplayer Gameplay Configurations, Homeworld: 'All players start the "
                "game with a Celestial Body in their Celestial Zone ... Players may not include "
                "additional Celestial bodies in their deck.'",
                types=("Celestial",),
            )
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
        # The site's proxy back (not the publisher's): gold stars on indigo, a galaxy.
        back=CardBack(colours=("#1E2250", "#E3B448"), pattern="stars"),
    ),
    formats=FORMATS,
    chart_stat="cq",
    key_stats=("cq",),
    charts=(
        curve("Cards by Conquest Value", "cq", axis="Conquest Value (CQ)"),
        by_type(),
        by_faction(),
    ),
)


# The engine, with its goldfish procedure (engines/conquest_of_fates_goldfish.py).
_RULES = HandRules(
    opening=SUPPLY_DROP,
    per_turn=SUPPLY_DROP,
    turn_name="battle",
    hand_limit=HAND_LIMIT,
    mulligan=Mulligan.REDRAW,
    source="Core Rules, 1. Supply Drop (7 cards each battle); Maximum Hand Size (10, "
    "discard at once); Mulligans (first supply drop only, once); Running Out of Cards "
    "(draws simply do not happen)",
)

_LOCATIONS = "Game area and zones: seven numbered locations; 'You may not place more than 1 unit "
_LOCATIONS += "in each location'"
_FORWARD = tuple(f"location-{n}" for n in range(1, 5))
_REAR = tuple(f"location-{n}" for n in range(5, 8))


def _skirmish(name: str, locations: tuple[str, ...]) -> tuple[TurnStep, ...]:
    where = f"{name} (locations {locations[0][-1]}-{locations[-1][-1]})"
    return (
        TurnStep(f"{name}: Celestial Phase", f"{where}: deploy a Celestial or pass"),
        TurnStep(f"{name}: Placement Phase", f"{where}: place units from your hand face-down"),
        TurnStep(
            f"{name}: Deployment Phase",
            f"{where}: reveal and deploy all face-down units, in numerical order",
            reveal=locations,
        ),
    )


TABLE = Table(
    zones=(
        TableZone(
            "supply",
            "Supply Deck",
            ZoneKind.PILE,
            "Game area and zones: your deck is placed here, face-down",
            holds=("main",),
        ),
        TableZone("hand", "Hand", ZoneKind.HAND, "1. Supply Drop: your starting hand"),
        *(
            TableZone(
                slug,
                f"Location {slug[-1]}",
                ZoneKind.SLOT,
                _LOCATIONS,
                face_up=False,
                capacity=1,
                group="Forward Skirmish" if slug in _FORWARD else "Rear Skirmish",
            )
            for slug in (*_FORWARD, *_REAR)
        ),
        TableZone(
            "celestial",
            "Celestial Zone",
            ZoneKind.AREA,
            "Game area and zones: Celestials are placed here directly and remain across battles",
            group="Battle Zone",
        ),
        TableZone(
            "extra",
            "Extra Locations",
            ZoneKind.AREA,
            "Game area and zones: units placed by abilities or deployed at Lightspeed",
            group="Battle Zone",
        ),
        TableZone(
            "void",
            "The Void",
            ZoneKind.AREA,
            "Game area and zones: removed from the game until all battles are complete",
        ),
        TableZone(
            "discard",
            "Discard Pile",
            ZoneKind.PILE,
            "Game area and zones: destroyed, discarded, depleted or cleaned up cards, face-up",
            face_up=True,
        ),
    ),
    deck="supply",
    hand="hand",
    discard="discard",
    rules=_RULES,
    opening_name="First supply drop",
    opening_source="1. Supply Drop; Mulligans: only during your first supply drop, once",
    steps=(
        TurnStep(
            "Supply Drop",
            "1. Supply Drop: at the start of each battle, draw 7 cards",
            deals=(Deal(SUPPLY_DROP, "supply", ("hand",)),),
            # The first battle's supply drop is the opening, where the mulligan is taken.
            deals_on_first_turn=False,
        ),
        *_skirmish("Forward Skirmish", _FORWARD),
        *_skirmish("Rear Skirmish", _REAR),
        TurnStep(
            "Tallying",
            "4. Tallying: add the CQ of your face-up units across the Battle Zone, including "
            "the Extra Locations, to your Conquest Pool",
            tally=(TableTally("cq", "cq", (*_FORWARD, *_REAR, "extra")),),
        ),
        TurnStep(
            "Clean Up",
            "5. Clean Up: send all units in your Battle Zone (including extra locations) to "
            "your Discard Pile; Celestials remain",
            clear=(Clear((*_FORWARD, *_REAR, "extra"), "discard"),),
            end_of_turn=True,
        ),
    ),
    counters=(Counter("cq", "Conquest Pool (CQ)", "Setup: each Conquest Pool starts at 0"),),
)

ENGINE = replace(
    ENGINE,
    goldfish=goldfish,
    goldfish_reference=goldfish_reference,
    goldfish_policy=GOLDFISH_POLICY,
    goldfish_charts=(
        ResultChart("total_cq", "CQ tallied over a game", "CQ over the game"),
        ResultChart("cq_per_battle", "CQ tallied in battle {part}", "CQ in the battle"),
    ),
    goldfish_summary=(
        SummaryFigure("total_cq.mean", "Mean CQ over a game", "mean", spread="total_cq.sd"),
        SummaryFigure("total_cq.p10", "CQ over a game: the worst tenth of games reach"),
        SummaryFigure("total_cq.median", "CQ over a game: median"),
        SummaryFigure("total_cq.p90", "CQ over a game: the best tenth of games reach"),
        SummaryFigure(
            "cq_per_battle.*.mean", "Battle {part}: mean CQ", "mean", spread="cq_per_battle.*.sd"
        ),
        SummaryFigure(
            "mulligan_rate", "Mulligan rate (first supply drop)", "share", exact="mulligan_rate"
        ),
        SummaryFigure(
            "celestial_by_battle.*",
            "A Celestial drawn by battle {part}",
            "share",
            exact="celestial_by_battle.*",
        ),
    ),
    # Costs are counted in games of this game's reference loop (GameEngine.goldfish_cost).
    # Vectorised, a game costs about a thirteenth of one: 670,000 to 718,000 games a second
    # on one core against 34,500 to 46,000 for the loop (2026-11-24, the 26-card sample deck,
    # tests/benchmarks/bench_goldfish.py), rounded up.
    goldfish_cost=0.08,
    hand=_RULES,
    table=TABLE,
    odds=odds,
)
