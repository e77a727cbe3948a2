"""Fate Foretold: a communal Nest of unique cards in four suits; Sigils and Tokens stay outside."""

from dataclasses import replace

from engines.base import (
    CardBack,
    CardTypeSpec,
    FaceLayout,
    GameEngine,
    ResultChart,
    SummaryFigure,
    Zone,
    by_faction,
    by_type,
)
from engines.fate_foretold_goldfish import GOLDFISH_POLICY, goldfish, goldfish_reference, odds
from engines.hands import HandRules
from engines.rules import (
    CopyLimit,
    Format,
    FormatSetting,
    TypesNotAllowed,
    ZoneSize,
)
from engines.table import Choice, Deal, Table, TableZone, TurnStep, ZoneKind

RULEBOOK = "fate-foretold.txt"

# Alternate Ways to Play, Speed Run: 'Reducing the requirement to 4 or even 3 cards'. The
# rulebook gives both; 4, the first it names, is the format's default, which the site's
# format setting may change to 3.
SPEED_RUN_ALIGNMENT = 4

# Two readings the rulebook's words leave open, each stated on its rule's source line.
SIGILS_OUTSIDE_THE_60 = (
    "Reading: 'separate the six Sigils from the rest of the cards in the Nest' counts the "
    "Sigils in the Nest before play, while the Glossary calls a Sigil 'a separate type of card "
    "from the rest of those in the nest' and 'not included in the nest'; the site takes the "
    "Glossary's reading, so the 60 are Nest cards and the Sigils do not count towards them"
)
SIGILS_UP_TO_SIX = (
    "Reading: 'separate the six Sigils' names six, and 'Shuffle the Sigils face-down and let "
    "each player choose one' needs one for each of the 3 to 6 players ('made for 3 to 6 "
    "players'); the site reads 'the six' as the number the game comes with, not one a Nest "
    "must hold, so it checks at most six Sigils and asks for no fewer"
)

_NEST_RULES = (
    ZoneSize(
        source="How to Play, 1. Getting Started: 'a complete Nest (deck) of at least 60 "
        "unique Fate Foretold cards'; Glossary, Nest: 'a nest must contain at least 60 "
        f"cards'. {SIGILS_OUTSIDE_THE_60}",
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
        source=f"How to Play, 1.: 'separate the six Sigils'. {SIGILS_UP_TO_SIX}",
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
        # Named like the goldfish policy knob, so that a simulation of a Speed Run deck starts
        # from the format's own target (decks.services.play.format_policy).
        settings=(
            FormatSetting(
                "alignment",
                "Cards to align",
                SPEED_RUN_ALIGNMENT,
                "Alternate Ways to Play, Speed Run: 'Reducing the requirement to 4 or even 3 "
                "cards'. The rulebook gives both; 4, the first it names, unless set to 3.",
            ),
        ),
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
    face=FaceLayout(
        landscape_types=("Sigil",),
        faction_badge=True,
        # The site's proxy back (not the publisher's): a rose sunburst on plum.
        back=CardBack(colours=("#3F1D4C", "#E9B3D0"), pattern="rays"),
    ),
    formats=FORMATS,
    # No card prints a number, so no curve: the suits are what a Nest is built around.
    charts=(by_type(), by_faction("Cards by suit", axis="Suit")),
)


# The engine, with its goldfish procedure (engines/fate_foretold_goldfish.py).
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
            "convergence",
            "Convergence stack",
            ZoneKind.PILE,
            "Parts of a Turn, Convergence of Fate: 'shuffle the cards in your hand and place "
            "them face down in a single stack in front of you. For as long as your remain in "
            "Convergence, you may not look at or rearrange these cards'; moving the hand here "
            "enters the Convergence, taking it back ends it",
            face_up=False,
            peek=False,
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
        TurnStep(
            "Step 1: Check",
            "Step 1: check for cards with a beginning-of-turn effect",
            skipped_while_holding="convergence",
        ),
        TurnStep(
            "Step 2: Draw",
            "Step 2: draw a card from the Nest (Rule 4: draw 1 and play 1, or draw 2)",
            deals=(Deal(1, "nest", ("hand",)),),
            skipped_while_holding="convergence",
        ),
        TurnStep(
            "Step 3: Play",
            "Step 3: choose a card in your hand and play it",
            skipped_while_holding="convergence",
        ),
        TurnStep(
            "Step 4: End",
            "Step 4 and Rule 5: bury down to 5 non-sigil cards in play, then discard down to "
            "5 cards in hand",
            end_of_turn=True,
            skipped_while_holding="convergence",
        ),
        # "During your turn, if you still remain in Convergence, follow these steps instead of
        # the normal steps of a turn": a turn that begins with cards in the Convergence stack.
        TurnStep(
            "Convergence, Step 1: Check",
            "Convergence of Fate, Step 1: 'Check for cards with a beginning-of-turn effect.'",
            only_while_holding="convergence",
        ),
        TurnStep(
            "Convergence, Step 2: Reveal",
            "Convergence of Fate, Step 2: 'Reveal a card either from the top of the Nest or "
            "from your own stack of face-down cards.'",
            only_while_holding="convergence",
        ),
        TurnStep(
            "Convergence, Step 3: Play",
            "Convergence of Fate, Step 3: 'Play the card you've just revealed. If this card "
            "shares a suit with your alignment, your Fate is Foretold! You win the game!'",
            only_while_holding="convergence",
        ),
        TurnStep(
            "Convergence, Step 4: End",
            "Convergence of Fate, Step 4: 'If you have more than 5 non-sigil cards in front of "
            "you, bury one at a time until you have only 5'",
            end_of_turn=True,
            only_while_holding="convergence",
        ),
    ),
)

ENGINE = replace(
    ENGINE,
    goldfish=goldfish,
    goldfish_reference=goldfish_reference,
    goldfish_policy=GOLDFISH_POLICY,
    # Vectorised: 154,000 to 205,000 games a second on one core (2026-11-24, the sample Nest
    # and Sigils at the default policy, tests/benchmarks/bench_goldfish.py), against 53,000
    # games of the unit (a Conquest of Fates reference-loop game) when it was set: about a
    # third of one, rounded up.
    goldfish_cost=0.35,
    goldfish_charts=(
        ResultChart("turns_to_alignment", "Turn alignment is first reached", "Turn aligned"),
        ResultChart(
            "aligned_by_turn",
            "Aligned by each turn (share of games)",
            "Turn",
            "Share of games aligned",
            share=True,
        ),
    ),
    goldfish_summary=(
        SummaryFigure("alignment", "Cards of one suit to align", "count"),
        SummaryFigure("sigil", "Your Sigil"),
        SummaryFigure(
            "turns_to_alignment.mean",
            "Mean turn alignment is reached (games that align)",
            "mean",
            spread="turns_to_alignment.sd",
        ),
        SummaryFigure("turns_to_alignment.median", "Median turn alignment is reached"),
        SummaryFigure("aligned_within_limit", "Games aligned within the turn limit", "share"),
        SummaryFigure(
            "opening_suits.*",
            "Starting hand holds a {part} card",
            "share",
            exact="opening_suits.*",
        ),
    ),
    odds=odds,
    hand=_RULES,
    table=TABLE,
)
