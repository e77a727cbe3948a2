"""Conquest of Fates: factions of Units worth Conquest Value, plus at most one Celestial."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from engines.base import (
    CardTypeSpec,
    FaceLayout,
    GameEngine,
    HandOdds,
    ResultChart,
    StatField,
    StatKind,
    Zone,
    by_faction,
    by_type,
    curve,
)
from engines.goldfish import (
    PolicyParam,
    copies,
    counted,
    describe,
    histogram,
    resolve_policy,
    rng_for,
)
from engines.hands import HandRules, Mulligan
from engines.odds import at_least
from engines.rules import (
    CardLimit,
    DeckCard,
    Format,
    FormatSetting,
    OneFaction,
    Rule,
    Severity,
    TypesNotAllowed,
    ZoneSize,
)
from engines.table import Clear, Counter, Deal, Table, TableZone, Tally, TurnStep, ZoneKind

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
        CardLimit(
            source="Terms & Clarifications, APEX: 'a special deck-building "
            "restriction of 1 per Deck'",
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


# --- goldfish ------------------------------------------------------------------------------

SUPPLY_DROP, HAND_LIMIT, FORWARD, REAR = 7, 10, 4, 3
GOLDFISH_POLICY = (
    PolicyParam(
        "mulligan_below_units",
        3,
        "Mulligan the first supply drop when it holds fewer "
        "units than this (Intermediate Rules, Mulligans: once, first drop only).",
        minimum=0,
        # Past the drop's size every drop is mulliganed: allowed, to test the mulligan.
        maximum=SUPPLY_DROP + 1,
    ),
    PolicyParam("battles", 3, "Battles per game (game overview: 3 battles).", 1, 3, work=True),
)


def _cq(card: DeckCard) -> int | None:
    value = card.stats.get("cq")
    return value if card.card_type == "Unit" and isinstance(value, int) else None


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """Solo battles: each supply drop draws 7 (draws simply stop when the deck runs out), the
    hand carries over, and is discarded down to 10, lowest CQ first. One Celestial in hand is
    deployed (it stays, and sets no CQ here). Units go face-down one per location, the
    highest CQ first, into locations 1-4 then 5-7, and their face-up CQ is tallied."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = copies(cards)
    per_battle: list[list[int]] = [[] for _ in range(p["battles"])]
    totals, mulligans = [], 0
    for _ in counted(runs, progress):
        deck = library[:]
        rng.shuffle(deck)
        hand = deck[:SUPPLY_DROP]
        del deck[:SUPPLY_DROP]
        if sum(_cq(c) is not None for c in hand) < p["mulligan_below_units"]:
            deck += hand
            rng.shuffle(deck)
            hand = deck[:SUPPLY_DROP]
            del deck[:SUPPLY_DROP]
            mulligans += 1
        celestial = next((c for c in hand if c.card_type == "Celestial"), None)
        if celestial is not None:
            hand.remove(celestial)
        total = 0
        for battle in range(p["battles"]):
            if battle:
                hand += deck[:SUPPLY_DROP]
                del deck[:SUPPLY_DROP]
            hand.sort(key=lambda c: -1 if (value := _cq(c)) is None else value, reverse=True)
            del hand[HAND_LIMIT:]
            units = [c for c in hand if _cq(c) is not None][: FORWARD + REAR]
            for unit in units:
                hand.remove(unit)
            cq = sum(_cq(u) or 0 for u in units)
            per_battle[battle].append(cq)
            total += cq
        totals.append(total)
    return {
        "summary": {
            "total_cq": describe(totals),
            "cq_per_battle": [describe(b) for b in per_battle],
            "mulligan_rate": round(mulligans / runs, 6),
        },
        "charts": {
            "total_cq": histogram(totals),
            "cq_per_battle": [histogram(b) for b in per_battle],
        },
    }


def odds(cards: Sequence[DeckCard], policy: Mapping[str, object]) -> list[HandOdds]:
    """The exact chance that the first supply drop is mulliganed under the policy, to set
    beside the simulated rate."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    size = sum(c.quantity for c in cards)
    if size < SUPPLY_DROP:
        return []
    units = sum(c.quantity for c in cards if _cq(c) is not None)
    need = p["mulligan_below_units"]
    return [
        HandOdds(
            f"a first supply drop with fewer than {need} units",
            1 - float(at_least(size, units, SUPPLY_DROP, need)),
            "mulligan_rate",
        )
    ]


# The engine, with its goldfish procedure (defined above, after the rules it plays by).
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
            tally=(Tally("cq", "cq", (*_FORWARD, *_REAR, "extra")),),
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
    goldfish_policy=GOLDFISH_POLICY,
    goldfish_charts=(
        ResultChart("total_cq", "CQ tallied over a game", "Total CQ"),
        ResultChart("cq_per_battle", "CQ tallied in battle {part}", "CQ"),
    ),
    hand=_RULES,
    table=TABLE,
    odds=odds,
)
