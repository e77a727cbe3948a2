"""Star Trek - Conquest Alpha: Tactics: its hand-written goldfish procedure (the vectorised one
the site ran and the per-game reference loop), its policy and its exact odds, before the
procedure was declared in fixtures/conquest-alpha-tactics/goldfish.toml. Kept for the benchmark."""

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from engines.base import (
    HandOdds,
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
from engines.odds import MAX_DECK_SIZE, at_least
from engines.rules import DeckCard
from engines.vectorised import Tally, batches, generator, shuffled

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

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
