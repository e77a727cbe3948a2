"""Star Trek - Conquest Alpha: Tactics: identical 33-card faction decks and 24 target cards."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from engines.base import (
    CardTypeSpec,
    FaceLayout,
    GameEngine,
    HandOdds,
    ResultChart,
    StatField,
    StatKind,
    SummaryFigure,
    Zone,
    by_faction,
    by_type,
    curve,
)
from engines.goldfish import (
    PolicyParam,
    copies,
    counted,
    draw_up_to,
    resolve_policy,
    rng_for,
    stat,
)
from engines.hands import HandRules
from engines.odds import MAX_DECK_SIZE, at_least
from engines.rules import CardsNotAllowed, DeckCard, Format, OneFaction, TypesNotAllowed, ZoneSize
from engines.vectorised import Tally, batches, generator, shuffled

RULEBOOK = "star-trek-conquest-alpha-tactics.txt"

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_PLAYER_CARD = "4 Card Anatomy: Player Card, 1. Card Type"
_TARGET_CARD = "4 Card Anatomy: Target Card, 4. Card Type"

_PLAYER_TYPES = ("Ship", "Tech", "Weapon", "Action", "Troops")
_TARGET_TYPES = ("Planet", "Sector", "Quadrant", "Combat Zone")
_THREE_PLAYER_REMOVED = frozenset({"Cestus 3", "Vulcan", "P'Jem", "Tellar Prime"})


def _blue_but_earth(card: DeckCard) -> bool:
    # 8.2: "Federation planets are all blue planets"; 9.3 keeps Earth.
    return card.stats.get("planet_type") == "federation" and card.name != "Earth"


def _removed_for_three(card: DeckCard) -> bool:
    return card.name in _THREE_PLAYER_REMOVED


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
            TypesNotAllowed(
                source="5 Game Setup: the target cards are shuffled into their own pile",
                types=_PLAYER_TYPES,
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
            excluded=_removed_for_three,
            what="Cestus 3, Vulcan, P'Jem and Tellar Prime",
        ),
    ),
)


def _untyped_zone(factions: tuple[str, ...]) -> str:
    # Where the rulebook names a card without its type, whether it is a player card or a
    # target card is still known: player cards make up a faction's deck ("3 Game Components":
    # each faction's 33 cards), target cards form one pile of no faction.
    return "main" if factions else "targets"


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


# --- goldfish ------------------------------------------------------------------------------

# 6.1: the Deployment Phase ends "as soon as at least four cards have been placed in all four
# rows": 16 cards, placed by the players in turn. 2-4 players (the rulebook's cover), so one
# player places 16 / players of them: 8 in a two-player game.
ROWS, CARDS_PER_ROW, PLAYERS = 4, 4, 2
GOLDFISH_POLICY = (
    PolicyParam(
        "rounds",
        6,
        "Rounds played: 24 target cards, 4 a round (6 Round Overview).",
        1,
        6,
        work=True,
    ),
    PolicyParam(
        "plays_per_round",
        ROWS * CARDS_PER_ROW // PLAYERS,
        "Cards one player places a round. The Deployment Phase ends when all four rows hold "
        "at least four (6.1): 16 cards shared by the 2-4 players taking turns, so 8 is one "
        "player's share in a two-player game (about 5 with three players, 4 with four).",
        1,
        33,
        work=True,
    ),
)
HAND = 4


def _answer(
    types: list[str],
    opening: Mapping[str, Tally],
    power: Sequence[Tally],
    runs: int,
) -> dict[str, object]:
    per_round = [r.describe() for r in power]
    return {
        "summary": {
            "opening_hand_by_type": {t: opening[t].describe()["mean"] for t in types},
            "opening_hand_has_type": {
                t: round((runs - opening[t].counts[0]) / runs, 6) for t in types
            },
            "combat_power_per_round": per_round,
        },
        "charts": {
            "opening_hand_by_type": {t: opening[t].histogram() for t in types},
            "combat_power_per_round": [r.histogram() for r in power],
            "mean_combat_power_per_round": [r["mean"] for r in per_round],
            "mean_combat_power_per_round_sd": [r["sd"] for r in per_round],
        },
    }


def goldfish_reference(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """Draw 4; each play places the hand's card with the most combat power and draws back up
    to 4, shuffling the discard pile into a new draw pile when it runs out (6.1); at the end of
    a round the placed cards go to the discard pile and the hand is kept (6.4). Reports the
    opening hand's make-up by card type and the base combat power placed each round. One game
    at a time: the reference the vectorised `goldfish` is held to."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = copies(cards, "main")
    types = sorted({c.card_type for c in library})
    opening = {t: Tally() for t in types}
    power = [Tally() for _ in range(p["rounds"])]
    for _ in counted(runs, progress):
        pile = library[:]
        discard: list[DeckCard] = []
        rng.shuffle(pile)
        hand = pile[:HAND]
        del pile[:HAND]
        for t in types:
            opening[t].counts[sum(c.card_type == t for c in hand)] += 1

        for round_ in range(p["rounds"]):
            placed: list[DeckCard] = []
            for _ in range(p["plays_per_round"]):
                if not hand:
                    break
                card = max(hand, key=lambda c: stat(c, "combat_power"))
                hand.remove(card)
                placed.append(card)
                # Back up to 4, the discards reshuffled when the pile runs out (6.1).
                pile, discard = draw_up_to(HAND, hand, pile, discard, rng)
            power[round_].counts[sum(stat(c, "combat_power") for c in placed)] += 1
            discard += placed
    return _answer(types, opening, power, runs)


EMPTY = np.iinfo(np.int64).min


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """The reference's games, many at once: each play is one step for every row (the hand's
    strongest card placed, one drawn back), the draw pile a shuffled row read by a pointer,
    and a row whose pile runs out gets its discard pile shuffled (random keys, argsorted) as
    its new pile. Only combat power decides a play, so cards are carried as their power."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = generator(seed)
    library = copies(cards, "main")
    types = sorted({c.card_type for c in library})
    size = len(library)
    value = np.array([stat(c, "combat_power") for c in library] or [0], np.int64)
    type_of = np.array([types.index(c.card_type) for c in library] or [0], np.int64)
    opening = {t: Tally() for t in types}
    power = [Tally() for _ in range(p["rounds"])]
    width = max(size, 1)
    for rows in batches(runs, progress):
        order = shuffled(rng, rows, size) if size else np.zeros((rows, 0), np.int64)
        first = order[:, :HAND]
        for i, t in enumerate(types):
            found = (type_of[first] == i).sum(axis=1)
            opening[t].add_counts(np.arange(HAND + 1), np.bincount(found, minlength=HAND + 1))
        hand = np.full((rows, HAND), EMPTY, np.int64)
        hand[:, : first.shape[1]] = value[first]
        table = _Table(rows, width)
        table.pile[:, :size] = value[order]
        table.top[:] = min(HAND, size)
        table.pile_size[:] = size
        for round_ in range(p["rounds"]):
            total = np.zeros(rows, np.int64)
            for _ in range(p["plays_per_round"]):
                if not table.play(rng, hand, total):
                    break
            power[round_].add(total)
            # The placed cards go to the discard pile at the end of the round (6.4).
            table.discarded[:] = table.held
    return _answer(types, opening, power, runs)


class _Table:
    """Every row's draw pile (read from `top`) and discard buffer: the discard pile first
    (`discarded` cards), then the cards placed this round, still on the table (to `held`)."""

    def __init__(self, rows: int, width: int) -> None:
        self.width = width
        self.pile = np.zeros((rows, width), np.int64)
        self.top = np.zeros(rows, np.int64)
        self.pile_size = np.zeros(rows, np.int64)
        self.discard = np.zeros((rows, width), np.int64)
        self.discarded = np.zeros(rows, np.int64)
        self.held = np.zeros(rows, np.int64)
        self.base = np.arange(rows) * width
        self.hand_base = np.arange(rows) * HAND
        # Whether a row may hold fewer than 4 before it plays: only after a draw found no
        # card, so the common step skips refilling more than the slot it emptied.
        self.ragged = False

    def play(self, rng: np.random.Generator, hand: IntArray, total: IntArray) -> bool:
        """Every row places its strongest card and draws back up to 4; False when no row
        has a card left to place."""
        slot = hand.argmax(axis=1)
        flat_hand = hand.reshape(-1)
        at = self.hand_base + slot
        card = flat_hand[at]
        playing = card != EMPTY
        every = bool(playing.all())
        if not every and not playing.any():
            return False
        total += card if every else np.where(playing, card, 0)
        spot = self.base + np.minimum(self.held, self.width - 1)
        flat_discard = self.discard.reshape(-1)
        flat_discard[spot] = card if every else np.where(playing, card, flat_discard[spot])
        self.held += playing
        flat_hand[at] = EMPTY
        self._draw_into(rng, hand, at, playing)
        while self.ragged:
            short = playing & (hand == EMPTY).any(axis=1)
            if not short.any():
                break
            into = self.hand_base + (hand == EMPTY).argmax(axis=1)
            if not self._draw_into(rng, hand, into, short):
                break
        return True

    def _draw_into(
        self, rng: np.random.Generator, hand: IntArray, at: IntArray, wanting: BoolArray
    ) -> bool:
        """Draw a card into hand slot `at` of each wanting row, shuffling its discard pile
        into a new draw pile when the pile is out (6.1); whether any row drew."""
        out = self.top >= self.pile_size
        every = bool(wanting.all())
        if out.any():
            self._reshuffle(rng, out & wanting & (self.discarded > 0))
            out = self.top >= self.pile_size
        flat_hand = hand.reshape(-1)
        drawn = self.pile.reshape(-1)[self.base + np.minimum(self.top, self.width - 1)]
        if every and not out.any():
            # The common step: every row places a card and draws one.
            flat_hand[at] = drawn
            self.top += 1
            return True
        drawing = wanting & ~out
        if (wanting & out).any():
            self.ragged = True
        flat_hand[at] = np.where(drawing, drawn, flat_hand[at])
        self.top += drawing
        return bool(drawing.any())

    def _reshuffle(self, rng: np.random.Generator, rows: BoolArray) -> None:
        which = np.flatnonzero(rows)
        if not len(which):
            return
        width = self.width
        column = np.arange(width)[None, :]
        discarded = self.discarded[which][:, None]
        keys = rng.random((len(which), width))
        keys[column >= discarded] = 2.0
        start = self.base[which][:, None]
        flat = self.discard.reshape(-1)
        self.pile[which] = flat[start + np.argsort(keys, axis=1)]
        self.pile_size[which] = self.discarded[which]
        self.top[which] = 0
        # The cards placed this round move to the front of the emptied discard buffer.
        if (self.held[which] > self.discarded[which]).any():
            self.discard[which] = flat[start + np.minimum(column + discarded, width - 1)]
        self.held[which] -= self.discarded[which]
        self.discarded[which] = 0


def odds(cards: Sequence[DeckCard], policy: Mapping[str, object]) -> list[HandOdds]:
    """The exact chance of at least one card of each type in the opening hand of 4 (Game
    Setup), beside the simulated share."""
    library = [c for c in cards if c.zone == "main" and c.quantity > 0]
    size = sum(c.quantity for c in library)
    if not size or size > MAX_DECK_SIZE:
        return []
    found = []
    for t in sorted({c.card_type for c in library}):
        of_type = sum(c.quantity for c in library if c.card_type == t)
        chance = at_least(size, of_type, min(HAND, size), 1)
        found.append(
            HandOdds(
                f"at least one {t} card in the opening hand",
                float(chance),
                f"opening_hand_has_type.{t}",
            )
        )
    return found


# The engine, with its goldfish procedure (defined above, after the rules it plays by).
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
    hand=HandRules(
        opening=4,
        zone="main",
        turn_name="round",
        per_turn=4,
        refill=True,
        reshuffle_discards=True,
        source="Setup: each player draws four cards; Rules for Playing and Drawing: after "
        "playing or discarding, draw back up to four; shuffle the discard pile when the draw "
        "pile is empty",
    ),
)
