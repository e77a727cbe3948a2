"""Conquest of Orion: one race, Blue/Gold/Red costs, Tier requirements, planets outside the deck."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from engines.base import (
    CardTypeSpec,
    FaceLayout,
    GameEngine,
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
    by_turn,
    copies,
    counted,
    describe,
    resolve_policy,
    rng_for,
    stat,
)
from engines.hands import HandRules, Mulligan
from engines.rules import DeckCard, Format, OneFaction, TypesNotAllowed, ZoneSize
from engines.table import Counter, Deal, Table, TableZone, TurnStep, ZoneKind

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
                source="§1.8.2 Planets: 'They cannot be part of your deck'; §1.16 "
                "the Archive card is given to each player",
                types=("Planet", "Archive"),
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
        CardTypeSpec(
            "Archive",
            zone=None,
            source="§1.16 Archive Card",
            description="Given to each player to track resources and Tier; not a deck card.",
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


# --- goldfish ------------------------------------------------------------------------------

RESOURCES = ("blue", "gold", "red")
# The rulebook's text lost its resource icons for planet income, innate income and the Tier
# cost (§1.3, §1.5, §1.7, §1.10), so these are parameters. Their defaults are this site's
# assumptions, not the rulebook's: one resource per starting planet (Ice blue, Rock gold,
# Lava red), one gold innately, and three gold to ascend.
GOLDFISH_POLICY = (
    PolicyParam(
        "income_blue",
        2,
        "Blue per turn from the starting planets (two Ice Planets); "
        "assumed: the rulebook's icons are missing.",
        0,
        6,
    ),
    # §1.5: no more than six of each resource can be stored, so no knob goes past six.
    PolicyParam(
        "income_gold", 2, "Gold per turn: the Rock Planet plus innate income; assumed.", 0, 6
    ),
    PolicyParam("income_red", 1, "Red per turn from the Lava Planet; assumed.", 0, 6),
    PolicyParam("tier_cost_gold", 3, "Gold paid to ascend one Tier (§1.7); assumed amount.", 0, 6),
    PolicyParam("turns", 10, "Turns simulated.", 1, 50, work=True),
    PolicyParam("first_player", True, "The first player skips gaining resources on turn 1 (§1.3)."),
    PolicyParam(
        "exchange_above_tier",
        1,
        "In the opening hand, cards needing a Tier above this "
        "go to the bottom of the deck and are redrawn (§1.3 allows any number).",
        0,
        10,
    ),
)
CAP, TRADE = 6, 3


def _cost(card: DeckCard) -> dict[str, int]:
    return {r: stat(card, f"cost_{r}") for r in RESOURCES}


def _affordable(pool: Mapping[str, int], cost: Mapping[str, int]) -> bool:
    """With 3:1 trades of any surplus into any shortfall (§1.5)."""
    short = sum(max(0, cost[r] - pool[r]) for r in RESOURCES)
    spare = sum(max(0, pool[r] - cost[r]) // TRADE for r in RESOURCES)
    return short <= spare


def _pay(pool: dict[str, int], cost: Mapping[str, int]) -> None:
    for r in RESOURCES:
        pool[r] -= cost[r]
    for r in RESOURCES:
        while pool[r] < 0:
            donor = max(RESOURCES, key=lambda d: pool[d])
            pool[donor] -= TRADE
            pool[r] += 1


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """Draw 4, exchange (policy), then each turn draw 1, gain income (capped at 6 of each) and
    ascend a Tier whenever the cost can be paid and the deck holds cards of a higher Tier (the
    new Tier counts from the next turn, §1.7). Reports when each card is first playable: in
    hand, its Tier reached, and its cost payable with trades. No card is actually played, so
    the figures show the earliest possible turn."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = [c for c in copies(cards) if c.card_type not in ("Planet", "Archive")]
    income = {r: p[f"income_{r}"] for r in RESOURCES}
    tier_cost = {"blue": 0, "gold": p["tier_cost_gold"], "red": 0}
    top_tier = max((stat(c, "tier", 1) for c in library), default=1)
    turns = p["turns"]
    first: dict[str, list[int | None]] = {c.name: [] for c in library}
    playable_per_turn = [0] * turns
    for _ in counted(runs, progress):
        deck = library[:]
        rng.shuffle(deck)
        hand, deck = deck[:4], deck[4:]
        keep: list[DeckCard] = []
        back: list[DeckCard] = []
        for card in hand:  # partitioned, not by membership: copies compare equal
            low = stat(card, "tier", 1) <= p["exchange_above_tier"]
            (keep if low else back).append(card)
        deck += back
        hand = keep + deck[: len(back)]
        deck = deck[len(back) :]
        pool = dict.fromkeys(RESOURCES, 0)
        tier, pending = 1, False
        seen: dict[str, int] = {}
        for turn in range(1, turns + 1):
            if pending:
                tier, pending = tier + 1, False
            if deck:
                hand.append(deck.pop(0))
            if not (turn == 1 and p["first_player"]):
                for r in RESOURCES:
                    pool[r] = min(CAP, pool[r] + income[r])
            ready = 0
            for card in hand:
                if stat(card, "tier", 1) <= tier and _affordable(pool, _cost(card)):
                    ready += 1
                    seen.setdefault(card.name, turn)
            playable_per_turn[turn - 1] += ready
            if tier < top_tier and not pending and _affordable(pool, tier_cost):
                _pay(pool, tier_cost)
                pending = True
        for name in first:
            first[name].append(seen.get(name))
    per_card = {
        name: {
            "playable_by_turn": by_turn(t, turns, runs),
            "mean_first_turn": describe([x for x in t if x is not None])["mean"],
        }
        for name, t in sorted(first.items())
    }
    return {
        "summary": {
            "turns": turns,
            "cards": per_card,
            "assumed": {
                "income": income,
                "tier_cost": tier_cost,
                "note": "The rulebook's resource icons are missing; these are "
                "this site's defaults, not the rulebook's.",
            },
        },
        "charts": {"playable_cards_per_turn": [round(n / runs, 4) for n in playable_per_turn]},
    }


# The engine, with its goldfish procedure (defined above, after the rules it plays by).
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
    steps=(
        TurnStep(
            "Beginning of turn",
            "§1.10: ready all your cards in the galaxy, draw a card, gain resources",
            ready=("galaxy",),
            deals=(Deal(1, "deck", ("hand",)),),
        ),
        TurnStep("Economy phase", "§1.10: play cards from your hand; conquer planets"),
        TurnStep("Assaulter's step", "§1.10: assault your opponent's planets"),
        TurnStep("Defender's step", "§1.10: the opponent defends or retreats"),
        TurnStep("Pre-Combat step", "§1.10: fast abilities"),
        TurnStep("Combat phase", "§1.10: units and planets attack each other"),
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
    goldfish_policy=GOLDFISH_POLICY,
    goldfish_cost=14,
    goldfish_charts=(
        ResultChart(
            "playable_cards_per_turn",
            "Playable cards in hand, by turn",
            "Turn",
            "Playable cards (mean)",
        ),
    ),
    unaligned_label="No race",
    hand=_RULES,
    table=TABLE,
)
