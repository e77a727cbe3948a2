"""Fate Foretold: a communal Nest of unique cards in four suits; Sigils and Tokens stay outside."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from engines.base import (
    CardTypeSpec,
    FaceLayout,
    GameEngine,
    ResultChart,
    Zone,
    by_faction,
    by_type,
)
from engines.goldfish import (
    PolicyParam,
    by_turn,
    copies,
    counted,
    describe,
    histogram,
    resolve_policy,
    rng_for,
)
from engines.hands import HandRules
from engines.rules import CopyLimit, DeckCard, Format, TypesNotAllowed, ZoneSize
from engines.table import Choice, Deal, Table, TableZone, TurnStep, ZoneKind

RULEBOOK = "fate-foretold.txt"

_NEST_RULES = (
    ZoneSize(
        source="How to Play, 1. Getting Started: 'a complete Nest (deck) of at least 60 "
        "unique Fate Foretold cards'",
        zone="nest",
        minimum=60,
        code="deck_size",
        label="the Nest",
    ),
    CopyLimit(
        source="How to Play, 1.: 'A Nest can only have one copy of each card in it'",
        maximum=1,
        zone="nest",
    ),
    TypesNotAllowed(
        source="How to Play, 1.: 'separate the six Sigils from the rest of the cards in the "
        "Nest'; Glossary, Sigil: 'a horizontally formatted card that is not included in the nest'",
        types=("Sigil",),
        zone="nest",
    ),
    # Over the whole deck, not just the Nest: a token has no zone, and one listed without a
    # zone would otherwise be filed in the Nest.
    TypesNotAllowed(
        source="Glossary, Token: 'These are not cards and not included in the nest, but instead "
        "kept outside of the game'; How to Play, 1.: 'separate the Nest (the deck) from the two "
        "Tokens, and put those tokens aside'",
        types=("Token",),
    ),
    TypesNotAllowed(
        source="Glossary, Sigil: 'a separate type of card from the rest of those in the nest'",
        types=("Nest Card",),
        zone="sigils",
    ),
    ZoneSize(
        source="How to Play, 1.: 'separate the six Sigils'",
        zone="sigils",
        maximum=6,
        label="the Sigils",
    ),
    CopyLimit(
        source="Glossary, Sigil: 'the player with the highest marked sigil (King, Queen, etc) "
        "will take the first turn'; Glossary, Card: 'Each of them has a unique name'",
        maximum=1,
        zone="sigils",
    ),
)

FORMATS = (
    Format(
        slug="nest",
        name="Nest",
        description="The communal Nest: at least 60 cards, each once; up to six different "
        "Sigils kept outside it, and no Tokens.",
        rules=_NEST_RULES,
    ),
    Format(
        slug="speed-run",
        name="Speed Run",
        description="The Nest for Speed Run, which needs 4 or 3 aligned cards instead of 5 "
        "(Alternate Ways to Play); the Nest is built the same way.",
        rules=_NEST_RULES,
    ),
)

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
    formats=FORMATS,
    # No card prints a number, so no curve: the suits are what a Nest is built around.
    charts=(by_type(), by_faction("Cards by suit", axis="Suit")),
)


# --- goldfish ------------------------------------------------------------------------------

GOLDFISH_POLICY = (
    PolicyParam(
        "alignment",
        5,
        "Cards of one suit needed to align: 5 normally, 4 or 3 in Speed "
        "Run (Alternate Ways to Play).",
        3,
        5,
    ),
    PolicyParam("max_turns", 40, "Turns simulated before giving up.", 1, 100, work=True),
)
LIMIT = 5


def _best_suit(field: list[DeckCard], sigil: DeckCard | None) -> tuple[str | None, int]:
    counts: dict[str, int] = {}
    for card in [*field, *([sigil] if sigil else [])]:
        for suit in card.factions:
            counts[suit] = counts.get(suit, 0) + 1
    if not counts:
        return None, 0
    suit = max(sorted(counts), key=lambda s: counts[s])
    return suit, counts[suit]


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """A solo game from the Nest: a 3-card hand, then each turn draw 1 and Rule 4's choice. The
    policy plays the hand's card of the suit the field (and the Sigil, which counts toward its
    two suits) leans to most, and draws 2 instead when no card in hand adds to that suit. At
    the end of the turn the field keeps 5 (burying the card of the weakest suit) and the hand 5
    (discarding likewise); everything that leaves goes to the bottom of the Nest (Rule 3).
    Reports the turn on which alignment is first reached."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = copies(cards, "nest")
    sigil = next(iter(copies(cards, "sigils")), None)
    reached: list[int | None] = []
    for _ in counted(runs, progress):
        nest = library[:]
        rng.shuffle(nest)
        hand, nest = nest[:3], nest[3:]
        field: list[DeckCard] = []
        turn_reached = None
        for turn in range(1, p["max_turns"] + 1):
            if nest:
                hand.append(nest.pop(0))
            suit, _ = _best_suit(field, sigil)
            target = suit or _best_suit(hand, sigil)[0]
            playable = [c for c in hand if target in c.factions]
            if playable:
                card = playable[0]
                hand.remove(card)
                field.append(card)
            elif nest:
                hand.append(nest.pop(0))
            suit, _ = _best_suit(field, sigil)
            while len(field) > LIMIT:
                weakest = min(field, key=lambda c: suit in c.factions)
                field.remove(weakest)
                nest.append(weakest)
            while len(hand) > LIMIT:
                weakest = min(hand, key=lambda c: suit in c.factions)
                hand.remove(weakest)
                nest.append(weakest)
            if _best_suit(field, sigil)[1] >= p["alignment"]:
                turn_reached = turn
                break
        reached.append(turn_reached)
    aligned = [t for t in reached if t is not None]
    return {
        "summary": {
            "turns_to_alignment": describe(aligned),
            "aligned_within_limit": round(len(aligned) / runs, 6),
            "alignment": p["alignment"],
            "sigil": sigil.name if sigil else None,
        },
        "charts": {
            "turns_to_alignment": histogram(aligned),
            "aligned_by_turn": by_turn(reached, p["max_turns"], runs),
        },
    }


# The engine, with its goldfish procedure (defined above, after the rules it plays by).
_RULES = HandRules(
    opening=3,
    zone="nest",
    per_turn=1,
    hand_limit=5,
    limit_at_end_of_turn=True,
    discard_to_bottom=True,
    source="How to Play: deal three cards to each player; Step 2: Draw; Rule 5: at the end "
    "of your turn keep 5 cards in hand; Rule 3: Fates Never Fade (to the bottom of the nest)",
)

TABLE = Table(
    zones=(
        TableZone(
            "nest",
            "Nest",
            ZoneKind.PILE,
            "Glossary: Nest, the deck of unplayed, facedown cards",
            holds=("nest",),
        ),
        TableZone(
            "sigils",
            "Sigils",
            ZoneKind.PILE,
            "How to Play: shuffle the Sigils face-down and let each player choose one",
            holds=("sigils",),
        ),
        TableZone(
            "sigil",
            "Your Sigil",
            ZoneKind.AREA,
            "How to Play: each player places their Sigil face up in front of them",
        ),
        TableZone("hand", "Hand", ZoneKind.HAND, "How to Play: your starting hand of three"),
        TableZone(
            "field",
            "Field",
            ZoneKind.AREA,
            "Rule 5: at the end of your turn you may only keep 5 non-sigil cards in play; "
            "Glossary: Bury, to the bottom of the nest",
            limit=5,
        ),
        TableZone(
            "aside",
            "Sigils of other players",
            ZoneKind.AREA,
            "How to Play: each player chooses one Sigil",
            face_up=False,
            peek=False,
        ),
    ),
    deck="nest",
    hand="hand",
    # Rule 3: Fates Never Fade, there is no discard pile.
    discard=None,
    rules=_RULES,
    opening_name="How to Play",
    opening_source="How to Play: choose a Sigil; shuffle the Nest and deal three cards",
    discard_name="Discard or bury",
    choices=(
        Choice(
            "sigils",
            1,
            "sigil",
            "aside",
            "How to Play: shuffle the Sigils face-down and let each player choose one",
        ),
    ),
    steps=(
        TurnStep("Step 1: Check", "Step 1: check for cards with a beginning-of-turn effect"),
        TurnStep(
            "Step 2: Draw",
            "Step 2: draw a card from the Nest (Rule 4: draw 1 and play 1, or draw 2)",
            deals=(Deal(1, "nest", ("hand",)),),
        ),
        TurnStep("Step 3: Play", "Step 3: choose a card in your hand and play it"),
        TurnStep(
            "Step 4: End",
            "Step 4 and Rule 5: bury down to 5 non-sigil cards in play, then discard down to "
            "5 cards in hand",
            end_of_turn=True,
        ),
    ),
)

ENGINE = replace(
    ENGINE,
    goldfish=goldfish,
    goldfish_policy=GOLDFISH_POLICY,
    goldfish_cost=4,
    goldfish_charts=(
        ResultChart("turns_to_alignment", "Turn alignment is first reached", "Turn"),
        ResultChart(
            "aligned_by_turn", "Aligned by each turn", "Turn", "Share of games", share=True
        ),
    ),
    hand=_RULES,
    table=TABLE,
)
