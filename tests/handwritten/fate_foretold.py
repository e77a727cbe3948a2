"""Fate Foretold's hand-written goldfish procedure (the vectorised kernel the site ran and the
per-game loop it was held to), its policy and its exact odds, as they were before
fixtures/fate-foretold/goldfish.toml declared them: kept for the benchmark and the agreement
tests (tests/handwritten/__init__.py)."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from engines.base import (
    HandOdds,
)
from engines.errors import InputError
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
from engines.odds import at_least
from engines.rules import (
    DeckCard,
)
from engines.vectorised import Tally, batches, generator, permuted

# --- goldfish ------------------------------------------------------------------------------

ALIGNMENT = 5
OPENING, LIMIT, MAX_SIGILS = 3, 5, 6
GOLDFISH_POLICY = (
    PolicyParam(
        "alignment",
        ALIGNMENT,
        "Cards of one suit on your field, your Sigil included, needed to align: 5 (Rule 6), "
        "or 4 or 3 in Speed Run (Alternate Ways to Play); a Speed Run deck starts at its "
        "format's target.",
        3,
        ALIGNMENT,
        label="Alignment target",
    ),
    PolicyParam(
        "sigil",
        0,
        "Your Sigil: 1 to 6, the deck's Sigils in the order listed; 0, the first it lists "
        "(How to Play, 1.: each player chooses one of the six; it counts toward its two "
        "suits).",
        0,
        MAX_SIGILS,
        label="Your Sigil",
        choices=lambda cards: sigil_options(cards),
    ),
    PolicyParam(
        "max_turns", 40, "Turns simulated before giving up.", 1, 100, work=True, label="Turns"
    ),
)


def sigil_choices(cards: Sequence[DeckCard]) -> list[DeckCard]:
    """The Sigils the `sigil` knob chooses from, numbered from 1 in this order."""
    return copies(cards, "sigils")[:MAX_SIGILS]


def sigil_options(cards: Sequence[DeckCard]) -> list[tuple[int, str]]:
    """The `sigil` knob's values as a form offers them: 0 (the first listed), then each."""
    sigils = sigil_choices(cards)
    first = f"The first listed ({sigils[0].name})" if sigils else "The first listed"
    return [(0, first), *((n, s.name) for n, s in enumerate(sigils, 1))]


def _chosen_sigil(cards: Sequence[DeckCard], choice: int) -> DeckCard | None:
    sigils = sigil_choices(cards)
    if choice > len(sigils):
        named = ", ".join(f"{n} {s.name}" for n, s in enumerate(sigils, 1)) or "none"
        raise InputError("sigil", f"the deck lists {len(sigils)} Sigils ({named}), not {choice}")
    return sigils[choice - 1] if choice else next(iter(sigils), None)


def _best_suit(field: list[DeckCard], sigil: DeckCard | None) -> tuple[str | None, int]:
    counts: dict[str, int] = {}
    for card in [*field, *([sigil] if sigil else [])]:
        for suit in card.factions:
            counts[suit] = counts.get(suit, 0) + 1
    if not counts:
        return None, 0
    suit = max(sorted(counts), key=lambda s: counts[s])
    return suit, counts[suit]


def _nest_suits(nest: Sequence[DeckCard]) -> list[str]:
    return sorted({suit for card in nest for suit in card.factions})


def goldfish_reference(
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
    Reports the turn on which alignment is first reached.

    The straightforward loop, one game at a time: `goldfish` must agree with it."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    rng = rng_for(seed)
    library = copies(cards, "nest")
    sigil = _chosen_sigil(cards, p["sigil"])
    suits = _nest_suits(library)
    opened = dict.fromkeys(suits, 0)
    reached: list[int | None] = []
    for _ in counted(runs, progress):
        nest = library[:]
        rng.shuffle(nest)
        hand, nest = nest[:OPENING], nest[OPENING:]
        for name in suits:
            opened[name] += any(name in c.factions for c in hand)
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
    return _answer(
        p,
        sigil,
        runs=runs,
        turns=describe(aligned),
        turns_chart=histogram(aligned),
        by_turn_chart=by_turn(reached, p["max_turns"], runs),
        aligned=len(aligned),
        opened=opened,
    )


def _answer(
    p: Mapping[str, Any],
    sigil: DeckCard | None,
    *,
    runs: int,
    turns: dict[str, float],
    turns_chart: dict[str, int],
    by_turn_chart: list[float],
    aligned: int,
    opened: Mapping[str, int],
) -> dict[str, object]:
    return {
        "summary": {
            "turns_to_alignment": turns,
            "aligned_within_limit": round(aligned / runs, 6),
            "alignment": p["alignment"],
            "sigil": sigil.name if sigil else None,
            "sigil_suits": list(sigil.factions) if sigil else [],
            "opening_suits": {suit: round(n / runs, 6) for suit, n in opened.items()},
        },
        "charts": {
            "turns_to_alignment": turns_chart,
            "aligned_by_turn": by_turn_chart,
        },
    }


# Suits a vectorised game keeps apart as bits of one 64-bit mask; a deck whose cards name more
# (no real Nest: the game has four) is played by the per-game loop instead.
_MAX_SUITS = 62


def goldfish(
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """The same solo game as `goldfish_reference`, many games at once: a row per game.

    Only a card's suits steer the policy, so a card is the number of its set of suits. Each
    row holds its Nest as a ring (drawn from the top, Rule 3's returns added at the bottom),
    its hand and field as short rows kept in order, and the field's count per suit; a turn
    is the same few array steps for every game still playing, and a game leaves the batch
    once aligned. The shuffle is the only chance in the game, so nothing else is drawn."""
    p = resolve_policy(GOLDFISH_POLICY, policy)
    sigil = _chosen_sigil(cards, p["sigil"])
    library = copies(cards, "nest")
    suits = sorted({*_nest_suits(library), *(sigil.factions if sigil else ())})
    if len(suits) > _MAX_SUITS:
        return goldfish_reference(cards, runs=runs, seed=seed, policy=policy, progress=progress)
    play = _Table.of(library, suits, sigil, p)
    rng = generator(seed)
    turns = Tally()
    reached_by = np.zeros(p["max_turns"] + 1, dtype=np.int64)
    opened = np.zeros(len(suits), dtype=np.int64)
    for rows in batches(runs, progress):
        if not suits:
            # No card (nor the Sigil) has a suit: nothing can align, and there is nothing
            # to count; the batches still report their progress.
            continue
        reached, opening = play.games(rng, rows)
        opened += opening
        done = reached[reached > 0]
        turns.add(done)
        reached_by += np.bincount(done, minlength=p["max_turns"] + 1)
    aligned = int(reached_by.sum())
    by_turn_chart = [round(int(n) / runs, 6) for n in np.cumsum(reached_by)[1:]]
    nest_suits = _nest_suits(library)
    return _answer(
        p,
        sigil,
        runs=runs,
        turns=turns.describe(),
        turns_chart=turns.histogram(),
        by_turn_chart=by_turn_chart,
        aligned=aligned,
        opened={suit: int(opened[suits.index(suit)]) for suit in nest_suits},
    )


@dataclass(frozen=True)
class _Table:
    """A Nest as numbers: each card is a code for its set of suits (`masks[code]`, and its
    count per suit `bits[code]`); the last code is an empty place."""

    codes: npt.NDArray[np.int16]
    masks: npt.NDArray[np.int64]
    bits: npt.NDArray[np.int16]
    sigil: npt.NDArray[np.int16]
    alignment: int
    max_turns: int

    @classmethod
    def of(
        cls,
        nest: Sequence[DeckCard],
        suits: list[str],
        sigil: DeckCard | None,
        p: Mapping[str, Any],
    ) -> "_Table":
        def mask(card: DeckCard) -> int:
            return sum(1 << suits.index(s) for s in set(card.factions))

        found = sorted({mask(c) for c in nest})
        masks = np.array([*found, 0], dtype=np.int64)
        bits = ((masks[:, None] >> np.arange(len(suits))) & 1).astype(np.int16)
        codes = np.array([found.index(mask(c)) for c in nest], dtype=np.int16)
        held = np.zeros(len(suits), dtype=np.int16)
        for suit in set(sigil.factions if sigil else ()):
            held[suits.index(suit)] = 1
        return cls(codes, masks, bits, held, p["alignment"], p["max_turns"])

    @property
    def empty(self) -> int:
        return len(self.masks) - 1

    def games(
        self, rng: np.random.Generator, rows: int
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The turn each of `rows` games aligned (0: not within the limit), and how many of
        them opened with a card of each suit."""
        size = len(self.codes)
        ring_size = max(size, 1)
        nest = permuted(rng, self.codes.astype(np.int64), rows).astype(np.int16)
        if not size:
            nest = np.full((rows, 1), self.empty, dtype=np.int16)
        opening = min(OPENING, size)
        # The widest a hand gets: 5 kept, a draw, and a second draw instead of a play.
        hand = np.full((rows, LIMIT + 2), self.empty, dtype=np.int16)
        hand[:, :opening] = nest[:, :opening]
        opened = (self.bits[hand[:, :opening]].sum(axis=1) > 0).sum(axis=0).astype(np.int64)
        state = _Games(
            ids=np.arange(rows),
            ring=nest,
            head=np.full(rows, opening, dtype=np.int64),
            left=np.full(rows, size - opening, dtype=np.int64),
            hand=hand,
            hand_len=np.full(rows, opening, dtype=np.int64),
            field=np.full((rows, LIMIT + 1), self.empty, dtype=np.int16),
            field_len=np.zeros(rows, dtype=np.int64),
            counts=np.zeros((rows, len(self.sigil)), dtype=np.int16),
        )
        reached = np.zeros(rows, dtype=np.int64)
        for turn in range(1, self.max_turns + 1):
            aligned = self._turn(state, ring_size)
            reached[state.ids[aligned]] = turn
            if aligned.any():
                state = state.keep(~aligned)
            if not len(state.ids):
                break
        return reached, opened

    def _turn(self, g: "_Games", ring_size: int) -> npt.NDArray[np.bool_]:
        everyone = np.ones(len(g.ids), dtype=bool)
        g.draw(everyone, ring_size)
        held = g.counts + self.sigil
        on_field = held.sum(axis=1) > 0
        target = np.argmax(held, axis=1)
        if not on_field.all():
            # Nothing on the field (nor a Sigil) names a suit: the hand's own leaning.
            in_hand = self.bits[g.hand].sum(axis=1) + self.sigil
            target = np.where(on_field, target, np.argmax(in_hand, axis=1))
            on_field = on_field | (in_hand.sum(axis=1) > 0)
        playable = self._of_suit(g.hand, target) & _filled(g.hand_len, g.hand.shape[1])
        playable &= on_field[:, None]
        plays: npt.NDArray[np.bool_] = np.any(playable, axis=1)
        at = np.argmax(playable, axis=1)
        card = g.hand[np.arange(len(g.ids)), at]
        g.hand = np.where(plays[:, None], _without(g.hand, at, self.empty), g.hand)
        g.hand_len -= plays
        g.field[plays, g.field_len[plays]] = card[plays]
        g.field_len += plays
        g.counts += np.where(plays[:, None], self.bits[card], 0).astype(np.int16)
        g.draw(~plays, ring_size)
        # End of turn: the suit the field leans to now decides what is buried and discarded.
        held = g.counts + self.sigil
        leaning = np.argmax(held, axis=1)
        named = held.sum(axis=1) > 0
        over = g.field_len > LIMIT
        if over.any():
            out = self._weakest(g.field, leaning, named, g.field_len)
            card = g.field[np.arange(len(g.ids)), out]
            g.field = np.where(over[:, None], _without(g.field, out, self.empty), g.field)
            g.field_len -= over
            g.counts -= np.where(over[:, None], self.bits[card], 0).astype(np.int16)
            g.bottom(over, card, ring_size)
        while (over := g.hand_len > LIMIT).any():
            out = self._weakest(g.hand, leaning, named, g.hand_len)
            card = g.hand[np.arange(len(g.ids)), out]
            g.hand = np.where(over[:, None], _without(g.hand, out, self.empty), g.hand)
            g.hand_len -= over
            g.bottom(over, card, ring_size)
        result: npt.NDArray[np.bool_] = (g.counts + self.sigil).max(axis=1) >= self.alignment
        return result

    def _of_suit(
        self, cards: npt.NDArray[np.int16], suit: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.bool_]:
        found: npt.NDArray[np.bool_] = ((self.masks[cards] >> suit[:, None]) & 1).astype(bool)
        return found

    def _weakest(
        self,
        cards: npt.NDArray[np.int16],
        suit: npt.NDArray[np.int64],
        named: npt.NDArray[np.bool_],
        length: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.int64]:
        """The first card not of `suit` (min by "is of the suit"), else the first card."""
        off = ~(self._of_suit(cards, suit) & named[:, None]) & _filled(length, cards.shape[1])
        return np.where(off.any(axis=1), np.argmax(off, axis=1), 0)


@dataclass
class _Games:
    """The games of a batch still playing, a row each."""

    ids: npt.NDArray[np.int64]
    ring: npt.NDArray[np.int16]
    head: npt.NDArray[np.int64]
    left: npt.NDArray[np.int64]
    hand: npt.NDArray[np.int16]
    hand_len: npt.NDArray[np.int64]
    field: npt.NDArray[np.int16]
    field_len: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int16]

    def keep(self, rows: npt.NDArray[np.bool_]) -> "_Games":
        return _Games(**{f.name: getattr(self, f.name)[rows] for f in fields(self)})

    def draw(self, wanted: npt.NDArray[np.bool_], ring_size: int) -> None:
        """The top card of the Nest into the hand, where wanted and the Nest has one."""
        rows = np.flatnonzero(wanted & (self.left > 0))
        self.hand[rows, self.hand_len[rows]] = self.ring[rows, self.head[rows] % ring_size]
        self.head[rows] += 1
        self.left[rows] -= 1
        self.hand_len[rows] += 1

    def bottom(
        self, wanted: npt.NDArray[np.bool_], card: npt.NDArray[np.int16], ring_size: int
    ) -> None:
        """`card` to the bottom of the Nest (Rule 3), where wanted."""
        rows = np.flatnonzero(wanted)
        self.ring[rows, (self.head[rows] + self.left[rows]) % ring_size] = card[rows]
        self.left[rows] += 1


def _filled(length: npt.NDArray[np.int64], width: int) -> npt.NDArray[np.bool_]:
    filled: npt.NDArray[np.bool_] = np.arange(width) < length[:, None]
    return filled


def _without(
    cards: npt.NDArray[np.int16], at: npt.NDArray[np.int64], empty: int
) -> npt.NDArray[np.int16]:
    """Each row with its card at `at` taken out and the later ones moved up, as list.remove."""
    width = cards.shape[1]
    place = np.arange(width)
    source = np.minimum(place + (place >= at[:, None]), width - 1)
    moved = np.take_along_axis(cards, source, axis=1)
    moved[:, -1] = empty
    return moved


def odds(cards: Sequence[DeckCard], policy: Mapping[str, object]) -> list[HandOdds]:
    """The exact chance that the three-card starting hand holds a card of each suit (How to
    Play, 1.: 'randomly deal three cards to each player'; there is no mulligan)."""
    resolve_policy(GOLDFISH_POLICY, policy)
    nest = copies(cards, "nest")
    if len(nest) < OPENING:
        return []
    return [
        HandOdds(
            f"a {suit} card in the starting hand of {OPENING}",
            float(at_least(len(nest), sum(suit in c.factions for c in nest), OPENING, 1)),
            f"opening_suits.{suit}",
        )
        for suit in _nest_suits(nest)
    ]
