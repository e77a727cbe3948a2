"""A player's hand, dealt and played forward by a game's own rules: pure and seeded.

Each engine declares its `HandRules` (opening hand, what a new turn draws, hand limit, its
mulligan) with the rulebook passages they come from. `deal` plays a list of steps from a
shuffled deck, so a hand is a pure function of (cards, seed, steps): a page can keep the whole
state in its URL, and the API and the page can never disagree about what a step does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from engines.dealing import take_top
from engines.errors import InputError
from engines.rules import DeckCard

# A hand replayed from a URL must stay cheap to replay: every step is a few list operations.
MAX_STEPS = 200


class Mulligan(StrEnum):
    NONE = "none"
    # Shuffle the hand back into the deck and draw the opening hand again.
    REDRAW = "redraw"
    # Put the cards the player picks on the bottom of the deck and draw that many.
    EXCHANGE = "exchange"


class StepKind(StrEnum):
    MULLIGAN = "mulligan"
    DRAW = "draw"
    NEXT = "next"
    DISCARD = "discard"


@dataclass(frozen=True)
class HandRules:
    """How a game's hand is dealt and refilled, as the rulebook states it."""

    opening: int
    source: str
    # The zone hands are drawn from; None: the whole deck.
    zone: str | None = None
    turn_name: str = "turn"
    # Cards a new turn draws, or with `refill`, the hand size a new turn draws back up to.
    per_turn: int = 1
    refill: bool = False
    # Over the limit the player must discard down to it: at once after a draw, or only at
    # the end of a turn (before the next one's draw) with `limit_at_end_of_turn`.
    hand_limit: int | None = None
    limit_at_end_of_turn: bool = False
    mulligan: Mulligan = Mulligan.NONE
    # Discards go to the bottom of the deck instead of a discard pile.
    discard_to_bottom: bool = False
    # An empty deck takes the shuffled discards instead of simply drawing nothing.
    reshuffle_discards: bool = False


@dataclass(frozen=True)
class Step:
    kind: StepKind
    # Positions in the hand, for the steps that pick cards (an exchange, a discard).
    picks: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.kind + (":" + ".".join(map(str, self.picks)) if self.picks else "")


@dataclass(frozen=True)
class HandState:
    hand: tuple[DeckCard, ...]
    # Top of the deck first.
    library: tuple[DeckCard, ...]
    discards: tuple[DeckCard, ...] = ()
    turn: int = 1
    mulliganed: bool = False
    log: tuple[str, ...] = field(default=())

    def over_limit(self, rules: HandRules) -> int:
        """How many cards the hand holds past the game's hand limit."""
        return 0 if rules.hand_limit is None else max(0, len(self.hand) - rules.hand_limit)

    def must_discard(self, rules: HandRules) -> int:
        """Cards to discard before anything else: a limit that applies at once after a draw
        ("You can not take any other actions while discarding this way")."""
        return 0 if rules.limit_at_end_of_turn else self.over_limit(rules)

    def legal(self, rules: HandRules) -> tuple[StepKind, ...]:
        """The steps the player may take now."""
        if self.must_discard(rules):
            return (StepKind.DISCARD,)
        steps = [StepKind.DRAW, StepKind.DISCARD]
        # An end-of-turn limit: the turn cannot end until the hand is down to it.
        if not self.over_limit(rules):
            steps.insert(1, StepKind.NEXT)
        if rules.mulligan is not Mulligan.NONE and self.turn == 1 and not self.mulliganed:
            steps.insert(0, StepKind.MULLIGAN)
        return tuple(steps)


def parse_steps(text: str) -> list[Step]:
    """Steps from their URL form, e.g. "mulligan:0.2,next,discard:1"."""
    if not text.strip():
        return []
    raw = text.split(",")
    if len(raw) > MAX_STEPS:
        raise InputError("steps", f"at most {MAX_STEPS} steps, got {len(raw)}")
    steps = []
    for n, item in enumerate(raw, 1):
        name, _, picked = item.strip().partition(":")
        try:
            kind = StepKind(name)
            picks = tuple(int(p) for p in picked.split(".")) if picked else ()
        except ValueError:
            raise InputError("steps", f"step {n} ({item[:40]!r}) is not a step") from None
        steps.append(Step(kind, picks))
    return steps


def deal(
    rules: HandRules, cards: Sequence[DeckCard], *, seed: int, steps: Sequence[Step] = ()
) -> HandState:
    """The hand after shuffling `cards` by `seed`, drawing the opening hand and taking `steps`
    in order. A step the rules do not allow at that point raises InputError naming it."""
    if len(steps) > MAX_STEPS:
        raise InputError("steps", f"at most {MAX_STEPS} steps, got {len(steps)}")
    rng = random.Random(seed)
    library = [c for c in cards if rules.zone is None or c.zone == rules.zone]
    library = [c for c in library for _ in range(c.quantity)]
    rng.shuffle(library)
    state = HandState(hand=(), library=tuple(library))
    state = _draw(rules, state, rules.opening, rng)
    state = replace(state, log=(f"Drew an opening hand of {len(state.hand)}.",))
    for n, step in enumerate(steps, 1):
        if step.kind not in state.legal(rules):
            raise InputError("steps", f"step {n} ({step}) is not allowed now")
        state = _take(rules, state, step, rng, n)
    return state


def _draw(rules: HandRules, state: HandState, n: int, rng: random.Random) -> HandState:
    hand, library, discards = list(state.hand), list(state.library), list(state.discards)
    for _ in range(n):
        card = take_top(library, discards, rng, reshuffle=rules.reshuffle_discards)
        if card is None:
            break  # no card to draw: the draw simply does not happen
        hand.append(card)
    return replace(state, hand=tuple(hand), library=tuple(library), discards=tuple(discards))


def _picked(state: HandState, picks: tuple[int, ...], n: int) -> list[int]:
    chosen = sorted(set(picks))
    if len(chosen) != len(picks) or any(not 0 <= p < len(state.hand) for p in chosen):
        raise InputError("steps", f"step {n} picks cards that are not in the hand")
    return chosen


def _without(state: HandState, chosen: list[int]) -> tuple[list[DeckCard], list[DeckCard]]:
    kept = [c for i, c in enumerate(state.hand) if i not in chosen]
    return kept, [state.hand[i] for i in chosen]


def _take(rules: HandRules, state: HandState, step: Step, rng: random.Random, n: int) -> HandState:
    if step.kind is StepKind.MULLIGAN:
        if rules.mulligan is Mulligan.REDRAW:
            library = [*state.hand, *state.library]
            rng.shuffle(library)
            state = replace(state, hand=(), library=tuple(library), mulliganed=True)
            state = _draw(rules, state, rules.opening, rng)
            return _logged(state, "Mulliganed: shuffled the hand back and drew a new one.")
        kept, out = _without(state, _picked(state, step.picks, n))
        state = replace(state, hand=tuple(kept), library=(*state.library, *out), mulliganed=True)
        state = _draw(rules, state, len(out), rng)
        return _logged(state, f"Put {len(out)} on the bottom and drew {len(out)}.")
    if step.kind is StepKind.DRAW:
        return _logged(_draw(rules, state, 1, rng), "Drew a card.")
    if step.kind is StepKind.DISCARD:
        chosen = _picked(state, step.picks, n)
        if (due := state.must_discard(rules)) and len(chosen) != due:
            raise InputError("steps", f"step {n} must discard exactly {due} to the hand limit")
        kept, out = _without(state, chosen)
        if rules.discard_to_bottom:
            state = replace(state, hand=tuple(kept), library=(*state.library, *out))
        else:
            state = replace(state, hand=tuple(kept), discards=(*state.discards, *out))
        where = "to the bottom of the deck" if rules.discard_to_bottom else ""
        return _logged(state, f"Discarded {len(out)} {where}".strip() + ".")
    drawn = max(0, rules.per_turn - len(state.hand)) if rules.refill else rules.per_turn
    state = replace(state, turn=state.turn + 1)
    state = _draw(rules, state, drawn, rng)
    return _logged(state, f"{rules.turn_name.capitalize()} {state.turn}: drew {drawn}.")


def _logged(state: HandState, line: str) -> HandState:
    return replace(state, log=(*state.log, line))
