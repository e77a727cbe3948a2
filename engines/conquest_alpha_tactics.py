"""Star Trek - Conquest Alpha: Tactics: identical 33-card faction decks and 24 target cards."""

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
from engines.conquest_alpha_tactics_goldfish import (
    GOLDFISH_POLICY,
    goldfish,
    goldfish_reference,
    odds,
)
from engines.hands import HandRules
from engines.rules import CardsNotAllowed, DeckCard, Format, OneFaction, TypesNotAllowed, ZoneSize
from engines.table import Clear, Counter, Deal, Table, TableZone, Tally, TurnStep, ZoneKind

RULEBOOK = "star-trek-conquest-alpha-tactics.txt"


_PLAYER_CARD = "4 Card Anatomy: Player Card, 1. Card Type"
_TARGET_CARD = "4 Card Anatomy: Target Card, 4. Card Type"

_PLAYER_TYPES = ("Ship", "Tech", "Weapon", "Action", "Troops")
_TARGET_TYPES = ("Planet", "Sector", "Quadrant", "Combat Zone")
_THREE_PLAYER_REMOVED = frozenset({"Cestus 3", "Vulcan", "P'Jem", "Tellar Prime"})


def _blue_but_earth(card: DeckCard) -> bool:
    # 8.2: "Federation planets are all blue planets"; 9.3 keeps Earth.
    return card.stats.get("planet_type") == "federation" and card.name != "Earth"


# 8.1 Types of Card Effects: "There are five types of effects on player cards": a card that
# has one is a player card, whatever else the rulebook leaves out about it.
_EFFECT_TYPES = frozenset(
    {"Permanent Effect", "Special Effect", "Scoring Effect", "One-time Effect", "No Effect"}
)


# Player cards the rulebook names with neither a type nor an effect type, known as player
# cards only by what it says players do with them: an inference, stated on the rule.
_PLACED_BY_PLAYERS = frozenset({"Teleporter"})


def _player_card_by_kind(card: DeckCard) -> bool:
    # With _PLACED_BY_PLAYERS, by name: every player card.
    return card.card_type in _PLAYER_TYPES or bool(_EFFECT_TYPES.intersection(card.keywords))


def _targets(slug: str, name: str, size: int, source: str, *extra: CardsNotAllowed) -> Format:
    return Format(
        slug=slug,
        name=name,
        description=f"The target card pile: {size} target cards.",
        rules=(
            ZoneSize(
                source=source,
                zone="targets",
                exactly=size,
                code="deck_size",
                label="the target deck",
            ),
            # By type where it is given, else by effect type: the rulebook names player cards
            # (the Delta Flyer, Surak) without a type or a faction, and they are no targets.
            CardsNotAllowed(
                source="5 Game Setup: 'Shuffle the target cards and place them as a target card "
                "pile'; 4 Card Anatomy, Note: 'The card types of the player cards (Ship, Tech, "
                "Weapon, Action, Troops)'; 8.1 Types of Card Effects: 'There are five types "
                "of effects on player cards'. Inferred: 8.2, Note: 'The Teleporter can be "
                "placed over a blockade', and 6 Round Overview: players 'place their hand cards "
                "face down under the four target cards', so the Teleporter is a player card",
                excluded=_player_card_by_kind,
                names=_PLACED_BY_PLAYERS,
                what="player cards (a Ship, Tech, Weapon, Action or Troops card, a card "
                "with an effect type, or the Teleporter, which players place)",
            ),
            *extra,
        ),
    )


FORMATS = (
    Format(
        slug="faction-deck",
        name="Faction deck",
        description="One faction's 33 player cards.",
        needs_faction=True,
        rules=(
            ZoneSize(
                source="3 Game Components: 132 Player Cards (33 per faction)",
                zone="main",
                exactly=33,
                code="deck_size",
                label="the faction deck",
            ),
            OneFaction(
                source="5 Game Setup: 'Each player chooses a faction and takes the "
                "corresponding deck of 33 cards'",
                neutral_allowed=False,
            ),
            TypesNotAllowed(
                source="5 Game Setup: target cards form a separate pile", types=_TARGET_TYPES
            ),
        ),
    ),
    _targets("targets", "Target deck", 24, "3 Game Components: 24 Target Cards"),
    _targets(
        "targets-short-2p",
        "Short Game target deck, 2 players",
        16,
        "9.3 Short Game: 'The target card pile thus consists of only 16 instead of 24'",
        CardsNotAllowed(
            source="9.3 Short Game: 'All blue target cards except the planet "
            "Earth are removed from the pile'",
            excluded=_blue_but_earth,
            what="blue target cards other than Earth",
        ),
    ),
    _targets(
        "targets-short-3p",
        "Short Game target deck, 3 players",
        20,
        "9.3 Short Game: 4 of the 24 target cards are removed for 3 players",
        CardsNotAllowed(
            source="9.3 Short Game: 'The following cards are removed from the "
            "target card pile: Cestus 3, Vulcan, P'Jem, Tellar Prime'",
            names=_THREE_PLAYER_REMOVED,
            what="Cestus 3, Vulcan, P'Jem and Tellar Prime",
        ),
    ),
)


def _untyped_zone(factions: tuple[str, ...], keywords: tuple[str, ...] = (), name: str = "") -> str:
    # Where the rulebook names a card without its type, whether it is a player card or a
    # target card is still known: player cards make up a faction's deck ("3 Game Components":
    # each faction's 33 cards), only they have an effect type (8.1), and the ones known by
    # what players do with them are named (_PLACED_BY_PLAYERS, as the target decks refuse
    # them); target cards form one pile of no faction.
    player = factions or _EFFECT_TYPES.intersection(keywords) or name in _PLACED_BY_PLAYERS
    return "main" if player else "targets"


ENGINE = GameEngine(
    slug="conquest-alpha-tactics",
    name="Star Trek - Conquest Alpha: Tactics",
    rulebook=RULEBOOK,
    stats=(
        StatField(
            "combat_power",
            "Combat Power",
            StatKind.INTEGER,
            "Base combat power of a player card (4 Card Anatomy, 3. Combat Power).",
            aliases=("cp", "power"),
            minimum=0,
        ),
        StatField(
            "victory_points",
            "Victory Points",
            StatKind.INTEGER,
            "Victory points of a target card (4 Card Anatomy, Target Card 2).",
            aliases=("vp",),
            minimum=0,
        ),
        StatField(
            "quadrant",
            "Quadrant",
            StatKind.CHOICE,
            "For planets: Alpha or Beta Quadrant (4 Card Anatomy, Target Card 3).",
            aliases=("quadrant",),
            choices=("alpha", "beta"),
        ),
        StatField(
            "planet_type",
            "Planet type",
            StatKind.CHOICE,
            "Federation planets are blue; Imperial planets are yellow, green and red "
            "(4 Card Anatomy, Note; 8.2 Scoring Effects).",
            aliases=("planet",),
            choices=("federation", "imperial"),
        ),
    ),
    card_types=(
        CardTypeSpec("Ship", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Tech", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Weapon", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Action", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Troops", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Planet", zone="targets", source=_TARGET_CARD),
        CardTypeSpec("Sector", zone="targets", source=_TARGET_CARD),
        CardTypeSpec("Quadrant", zone="targets", source=_TARGET_CARD),
        CardTypeSpec("Combat Zone", zone="targets", source=_TARGET_CARD),
    ),
    zones=(
        Zone("main", "Faction deck", "A faction's 33 player cards (3 Game Components)."),
        Zone(
            "targets",
            "Target cards",
            "The 24 target cards, 4 laid out each round (6 Round Overview).",
        ),
    ),
    # 4 Card Anatomy: Combat Power (player cards) or Victory Points (target cards) up top,
    # the faction abbreviation and the effect type letter (P/S/O/X/N) as badges.
    face=FaceLayout(
        corner_stats=("combat_power", "victory_points"),
        tag_stats=("planet_type", "quadrant"),
        stat_symbols=(
            ("combat_power", "CP"),
            ("victory_points", "VP"),
            ("planet_type", "planet"),
            ("quadrant", "Quadrant"),
        ),
        stat_colours=(("victory_points", "#C9960C"),),
        badge_keyword_kinds=("effect_type",),
        faction_badge=True,
        # The site's proxy back (not the publisher's): orange chevrons on slate.
        back=CardBack(colours=("#1B2431", "#F07A4A"), pattern="chevrons"),
    ),
    formats=FORMATS,
    chart_stat="combat_power",
    # 4 Card Anatomy: a player card's one number, and a target card's.
    key_stats=("combat_power", "victory_points"),
    charts=(
        curve("Cards by Combat Power", "combat_power", axis="Combat Power"),
        by_type(),
        by_faction(),
    ),
)


# The engine, with its goldfish procedure (engines/conquest_alpha_tactics_goldfish.py).
_RULES = HandRules(
    opening=4,
    zone="main",
    turn_name="round",
    per_turn=4,
    refill=True,
    reshuffle_discards=True,
    source="Setup: each player draws four cards; Rules for Playing and Drawing: after "
    "playing or discarding, draw back up to four; shuffle the discard pile when the draw "
    "pile is empty",
)

_ROWS = tuple(f"row-{n}" for n in range(1, 5))
_ROW = (
    "6 Round Overview: four target cards begin four rows; 6.1: when a card is placed face down "
    "in a row, the card immediately above it is revealed; face-down cards may not be viewed "
    "again, not even by the player who placed them"
)

TABLE = Table(
    zones=(
        TableZone(
            "draw",
            "Draw pile",
            ZoneKind.PILE,
            "5 Game Setup: Draw Pile, kept face down",
            holds=("main",),
        ),
        TableZone("hand", "Hand", ZoneKind.HAND, "5 Game Setup: each player draws four cards"),
        *(
            TableZone(
                slug,
                f"Row {slug[-1]}",
                ZoneKind.AREA,
                _ROW,
                face_up=False,
                peek=False,
                reveal_above=True,
                group="Rows",
            )
            for slug in _ROWS
        ),
        TableZone(
            "target-pile",
            "Target card pile",
            ZoneKind.PILE,
            "5 Game Setup: shuffle the target cards and place them as a target card pile",
            holds=("targets",),
        ),
        TableZone(
            "won",
            "Target Card Area",
            ZoneKind.AREA,
            "5 Game Setup: conquered target cards, face up",
        ),
        TableZone(
            "discard",
            "Discard pile",
            ZoneKind.PILE,
            "5 Game Setup: Discard Pile, kept face up",
            face_up=True,
        ),
        TableZone(
            "aside",
            "Targets set aside",
            ZoneKind.AREA,
            "Assumption (solo playtest): a target left in a row after scoring, which the "
            "rulebook gives to another player, is set aside",
        ),
    ),
    deck="draw",
    hand="hand",
    discard="discard",
    rules=_RULES,
    opening_name="Game setup",
    opening_source="5 Game Setup: shuffle your deck and the target cards; draw four cards",
    refill_after_play=True,
    discard_name="Pass and discard",
    steps=(
        TurnStep(
            "Deployment Phase",
            "6 Round Overview: four target cards are laid out face up as the beginning of four "
            "rows; 6.1: play one card face down into any row, or pass and discard",
            deals=(Deal(1, "target-pile", _ROWS, face_up=True),),
        ),
        TurnStep(
            "Reveal Phase",
            "6.2 Reveal Phase: all cards still face down in the four rows are revealed",
            reveal=_ROWS,
        ),
        TurnStep(
            "Scoring Phase",
            "6.3 Scoring Phase: conquered target cards go to the Target Card Area; 7: the most "
            "victory points wins",
        ),
        TurnStep(
            "Start of a New Round",
            "6.4: laid-out cards go to the personal discard piles; players keep their hands",
            clear=(
                Clear(_ROWS, "discard", deck_zones=("main",)),
                Clear(_ROWS, "aside", deck_zones=("targets",)),
            ),
            tally=(Tally("vp", "victory_points", ("won",), add=False),),
            end_of_turn=True,
        ),
    ),
    counters=(
        Counter(
            "vp",
            "Victory points",
            "7 End of the Game: victory points of conquered targets, plus bonuses",
        ),
    ),
)

ENGINE = replace(
    ENGINE,
    goldfish=goldfish,
    goldfish_reference=goldfish_reference,
    goldfish_policy=GOLDFISH_POLICY,
    # Measured 2026-11-24 (tests/benchmarks/bench_goldfish.py, the sample set's legal deck,
    # default policy, one core): 142,900 vectorised games a second beside 19,000 default
    # Conquest of Fates games (the unit) in the same run: 7.5 times cheaper, rounded up.
    goldfish_cost=0.15,
    goldfish_charts=(
        ResultChart(
            "mean_combat_power_per_round",
            "Combat Power placed, by round (mean per game)",
            "Round",
            "Combat Power",
            spread="mean_combat_power_per_round_sd",
        ),
        ResultChart("opening_hand_by_type", "{part} cards in the opening hand", "{part} cards"),
        ResultChart(
            "combat_power_per_round", "Combat Power placed in round {part}", "Combat Power"
        ),
    ),
    goldfish_summary=(
        SummaryFigure(
            "combat_power_per_round.*.mean",
            "Round {part}: Combat Power placed",
            "mean",
            spread="combat_power_per_round.*.sd",
        ),
        SummaryFigure("opening_hand_by_type.*", "{part} cards in the opening hand", "mean"),
        SummaryFigure(
            "opening_hand_has_type.*",
            "At least one {part} card in the opening hand",
            "share",
            exact="opening_hand_has_type.*",
        ),
    ),
    odds=odds,
    untyped_zone=_untyped_zone,
    hand=_RULES,
    table=TABLE,
)
