"""Conquest of Orion: one race, Blue/Gold/Red costs, Tier requirements, planets outside the deck."""

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
from engines.conquest_of_orion_goldfish import GOLDFISH_POLICY, goldfish, goldfish_reference, odds
from engines.hands import HandRules, Mulligan
from engines.rules import CardsNotAllowed, Format, OneFaction, TypesNotAllowed, ZoneSize
from engines.table import Counter, Deal, Starting, Table, TableZone, TurnStep, ZoneKind

RULEBOOK = "conquest-of-orion.txt"

_COST_HELP = "Resource cost in {colour} (§1.1 Parts of a Card, 3. Resource Cost)."


def _orion_format(slug: str, name: str, size: int, kind: str) -> Format:
    return Format(
        slug=slug,
        name=name,
        description=f"Exactly {size} cards in {kind} formats, of one race plus cards with no "
        "race; planets never, satellites allowed.",
        needs_faction=True,
        rules=(
            ZoneSize(
                source=f"§1.6 Deck and Hand: 'exactly {size} cards in {kind} formats'",
                exactly=size,
                code="deck_size",
            ),
            OneFaction(
                source="§1.6: 'you must limit yourself to one race'; §1.1, 5. Race Icon: "
                "'Cards without a race icon can be played in any deck'",
                neutral_allowed=True,
                label="race",
            ),
            TypesNotAllowed(
                source="§1.8.2 Planets: 'They cannot be part of your deck'",
                types=("Planet",),
            ),
            # By name: §1.16 gives the Archive card no type ("Coming Soon").
            CardsNotAllowed(
                source="§1.5 Resources: 'Resources are tracked on the Archive card, of which a "
                "copy is given to each player'",
                names=frozenset({"Archive card"}),
                what="the Archive card, of which a copy is given to each player",
            ),
        ),
    )


FORMATS = (
    _orion_format("constructed", "Constructed", 50, "Constructed"),
    _orion_format("limited", "Limited", 30, "Limited"),
)

ENGINE = GameEngine(
    slug="conquest-of-orion",
    name="Conquest of Orion",
    rulebook=RULEBOOK,
    stats=(
        StatField(
            "cost_blue",
            "Blue cost",
            StatKind.INTEGER,
            _COST_HELP.format(colour="Blue"),
            aliases=("blue",),
            minimum=0,
        ),
        StatField(
            "cost_gold",
            "Gold cost",
            StatKind.INTEGER,
            _COST_HELP.format(colour="Gold"),
            aliases=("gold",),
            minimum=0,
        ),
        StatField(
            "cost_red",
            "Red cost",
            StatKind.INTEGER,
            _COST_HELP.format(colour="Red"),
            aliases=("red",),
            minimum=0,
        ),
        StatField(
            "tier",
            "Tier requirement",
            StatKind.INTEGER,
            "Tier you must be at to play the card (§1.1, 4. Tier requirement; §1.7).",
            aliases=("tier",),
            minimum=1,
        ),
        StatField(
            "damage",
            "Damage",
            StatKind.INTEGER,
            "Damage dealt when it attacks (§1.12, the meteor icon).",
            aliases=("dmg", "damage"),
            minimum=0,
        ),
        StatField(
            "health",
            "Health",
            StatKind.INTEGER,
            "Lethal damage threshold (§1.12, the health icon).",
            aliases=("hp", "health"),
            minimum=0,
        ),
        StatField(
            "shields",
            "Shields",
            StatKind.INTEGER,
            "Damage prevented each turn (§1.12, the shield icon).",
            aliases=("shields", "sh"),
            minimum=0,
        ),
        StatField(
            "regeneration",
            "Regeneration",
            StatKind.INTEGER,
            "Damage removed at the beginning of your turn (§1.12, the regeneration icon).",
            aliases=("regen", "regeneration"),
            minimum=0,
        ),
    ),
    card_types=(
        CardTypeSpec(
            "Unit",
            zone="main",
            source="§1.8.1 Units",
            description="Played on planets; assault and defend.",
        ),
        CardTypeSpec(
            "Planet",
            zone=None,
            source="§1.8.2 Planets",
            description="Resource generators; they cannot be part of your deck.",
        ),
        CardTypeSpec(
            "Ability",
            zone="main",
            source="§1.8.3 Abilities",
            description="One-shot effects; the subtype Fast may be played at any time.",
        ),
        CardTypeSpec(
            "Achievement",
            zone="main",
            source="§1.8.4 Achievements",
            description="Like abilities, but they stay in play with an ongoing effect.",
        ),
        CardTypeSpec(
            "Attachment",
            zone="main",
            source="§1.8.5 Attachments",
            description="Attach to a unit or planet (unit and planet attachments).",
        ),
        CardTypeSpec(
            "Satellite",
            zone="main",
            source="§1.8.6 Satellites",
            description="The sixth card type: in your deck, but treated as planets in play.",
        ),
    ),
    zones=(Zone("main", "Deck", "Exactly 50 cards in Constructed, 30 in Limited (§1.6)."),),
    # §1.1 Parts of a Card: costs and Tier up top, unit stats along the bottom, left to right.
    face=FaceLayout(
        corner_stats=("cost_blue", "cost_gold", "cost_red", "tier"),
        footer_stats=("damage", "health", "shields", "regeneration"),
        stat_symbols=(
            ("cost_blue", "BLUE"),
            ("cost_gold", "GOLD"),
            ("cost_red", "RED"),
            ("tier", "TIER"),
            ("damage", "DMG"),
            ("health", "HP"),
            ("shields", "SHLD"),
            ("regeneration", "REGEN"),
        ),
        stat_colours=(
            ("cost_blue", "#2F6FD6"),
            ("cost_gold", "#C9960C"),
            ("cost_red", "#C0392B"),
            ("tier", "#3D4450"),
            ("damage", "#B8433A"),
            ("health", "#2E8B57"),
            ("shields", "#2F6FD6"),
            ("regeneration", "#1E9E9E"),
        ),
        # The site's proxy back (not the publisher's): cyan orbits on deep teal.
        back=CardBack(colours=("#0D3B47", "#5FD0DF"), pattern="rings"),
    ),
    formats=FORMATS,
    chart_stat="tier",
    # §1.1: what a card costs (three resources) and the Tier it needs are read before playing it.
    key_stats=("cost_blue", "cost_gold", "cost_red", "tier"),
    # A card needs Blue, Gold and Red (§1.1, 3. Cost) and a Tier (§1.7): a curve of each. The
    # sample cards print 0 in the colours they do not use, so a 0 is no bar.
    charts=(
        curve("Cost curve", "cost_blue", "cost_gold", "cost_red", axis="Cost", skip_zero=True),
        curve("Cards by Tier", "tier", axis="Tier requirement"),
        by_type(),
        by_faction("Cards by race", axis="Race"),
    ),
)


# The engine, with its goldfish procedure (engines/conquest_of_orion_goldfish.py).
_RULES = HandRules(
    opening=4,
    per_turn=1,
    mulligan=Mulligan.EXCHANGE,
    source="§1.3 Game Start: draw four, then exchange any number by putting them on the "
    "bottom and drawing that many; §1.6: each turn begins with drawing a card",
)
_RESOURCE = "§1.5 Resources: gained at the beginning of each turn; at most six of each type"

TABLE = Table(
    zones=(
        TableZone("deck", "Deck", ZoneKind.PILE, "§1.2 Terminology: Deck", holds=("main",)),
        TableZone("hand", "Hand", ZoneKind.HAND, "§1.2 Terminology: Hand"),
        TableZone(
            "planets",
            "Planet row",
            ZoneKind.AREA,
            "§1.3 Game Start: 'Each player puts those planets in front of him or her in the "
            "planet row'; §1.8.6: satellites are put in the planet row",
            exhaust=True,
        ),
        TableZone(
            "neutral",
            "Unique planets (neutral)",
            ZoneKind.AREA,
            "§1.3 Game Start: 'five unique planets from it are selected at random and put into "
            "play between the two players'; the rulebook lists no pile of unique planets (it "
            "names only Iamur), so the row starts empty",
        ),
        TableZone(
            "galaxy",
            "Galaxy",
            ZoneKind.AREA,
            "§1.2 Terminology: Galaxy, the in-play zone; §1.9 Ready and Exhausted",
            exhaust=True,
        ),
        TableZone(
            "graveyard",
            "Graveyard",
            ZoneKind.PILE,
            "§1.2 Terminology: Graveyard, where destroyed and discarded cards go",
            face_up=True,
        ),
        TableZone(
            "removed",
            "Removed from existence",
            ZoneKind.AREA,
            "§1.2 Terminology: Remove from existence, another discard pile",
        ),
    ),
    deck="deck",
    hand="hand",
    discard="graveyard",
    rules=_RULES,
    opening_name="Game start",
    opening_source=_RULES.source,
    starting=(
        Starting(
            "planets",
            ("Ice Planet", "Ice Planet", "Rock Planet", "Lava Planet"),
            "§1.3 Game Start: 'each player is given four common planets - two Ice Planets, one "
            "Rock Planet, and one Lava Planet'",
            card_type="Planet",
        ),
    ),
    steps=(
        TurnStep(
            "Beginning of turn",
            "§1.10: ready all your cards in the galaxy, draw a card, gain resources",
            ready=("galaxy", "planets"),
            deals=(Deal(1, "deck", ("hand",)),),
        ),
        TurnStep("Economy phase", "§1.10: play cards from your hand; conquer planets"),
        TurnStep("Assaulter's step", "§1.10: assault your opponent's planets"),
        TurnStep("Defender's step", "§1.10: the opponent defends or retreats"),
        TurnStep("Pre-Combat step", "§1.10: fast abilities"),
        TurnStep("Combat phase", "§1.10: units and planets attack each other"),
        TurnStep(
            "Post-Combat step",
            "§1.10: 'After combat is completed, you retreat with each unit you attacked with "
            "that survived combat onto a planet you control.'",
        ),
        TurnStep("Post-Combat Economy phase", "§1.10: identical to the economy phase"),
        TurnStep("Post-Combat Movement phase", "§1.10: the opponent moves units"),
        TurnStep(
            "End of turn", "§1.10: effects that last until end of turn wear off", end_of_turn=True
        ),
    ),
    counters=(
        Counter("blue", "Blue", _RESOURCE, maximum=6),
        Counter("gold", "Gold", _RESOURCE, maximum=6),
        Counter("red", "Red", _RESOURCE, maximum=6),
        Counter("tier", "Tier", "§1.7 Tier: you start at Tier 1", start=1, minimum=1),
    ),
)

ENGINE = replace(
    ENGINE,
    goldfish=goldfish,
    goldfish_reference=goldfish_reference,
    goldfish_policy=GOLDFISH_POLICY,
    # Measured 2026-11-24 (tests/benchmarks/bench_goldfish.py, the sample set's legal deck,
    # default policy, one core): 199,700 vectorised games a second beside 19,000 default
    # Conquest of Fates games (the unit) in the same run: 10.5 times cheaper, rounded up.
    goldfish_cost=0.1,
    goldfish_charts=(
        ResultChart(
            "playable_cards_per_turn",
            "Playable cards in hand, by turn (mean per game)",
            "Turn",
            "Playable cards in hand",
            spread="playable_cards_per_turn_sd",
        ),
        ResultChart(
            "any_playable_by_turn",
            "Games with a playable card in hand, by turn",
            "Turn",
            "Share of games",
            share=True,
        ),
    ),
    goldfish_summary=(
        SummaryFigure("turns", "Turns simulated", "count"),
        SummaryFigure(
            "playable_per_turn.*.mean",
            "Turn {part}: playable cards in hand",
            "mean",
            spread="playable_per_turn.*.sd",
        ),
        SummaryFigure(
            "any_playable_by_turn.*", "Turn {part}: games with a playable card in hand", "share"
        ),
        SummaryFigure(
            "cards.*.mean_first_turn",
            "{part}: first turn playable (in hand, Tier reached, cost payable)",
            "mean",
            spread="cards.*.sd_first_turn",
        ),
        SummaryFigure(
            "cards.*.in_opening_hand",
            "{part}: in the opening hand, after the exchange",
            "share",
            exact="cards.*.in_opening_hand",
        ),
        SummaryFigure(
            "cards.*.in_hand_by_last_turn",
            "{part}: in hand by the last turn",
            "share",
            exact="cards.*.in_hand_by_last_turn",
        ),
    ),
    odds=odds,
    unaligned_label="No race",
    # The official cards are the rulebook's, which never gives a card's race icon.
    official_factions_not_given="race not given",
    hand=_RULES,
    table=TABLE,
)
