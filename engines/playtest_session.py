"""A playtest session's state (engines.playtest): the table as the actions so far left it,
its cards and counters, and the limits on what a session may ask. The moves that change it are
engines.playtest_moves; engines.playtest replays a whole list of them."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.dealing import reshuffle_into
from engines.rules import DeckCard
from engines.table import (
    COUNTER_BOUND,
    Choice,
    Counter,
    Deal,
    Table,
    TableZone,
    Tally,
    TurnStep,
    ZoneKind,
)

# Replaying is O(actions x zone size): a shared URL stays cheap to open.
MAX_ACTIONS = 500
MAX_SEED = 2**32 - 1
# The most one draw or counter action may move at once.
MAX_AMOUNT = 99
ACTIONS: tuple[str, ...] = ("draw", "move", "flip", "exhaust", "ready", "shuffle", "discard")
ACTIONS += ("mulligan", "choose", "count", "next")


class ActionError(Exception):
    """An action the rules do not allow at that point, or that is malformed."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"actions[{index}]: {message}")
        self.index = index
        self.message = message


@dataclass
class _Card:
    id: int
    card: DeckCard
    face_up: bool
    exhausted: bool = False


@dataclass(frozen=True)
class CardView:
    id: int
    # None when the player may not see it (face down in a pile, or where even the owner may
    # not look).
    card: DeckCard | None
    face_up: bool
    exhausted: bool


@dataclass(frozen=True)
class PlayState:
    turn: int
    # The step's name; before the first turn, the table's opening.
    step: str
    step_index: int
    zones: Mapping[str, tuple[CardView, ...]]
    counters: Mapping[str, int]
    # What must happen before anything else ("discard 2 to the hand limit"), if anything.
    pending: str | None


@dataclass(frozen=True)
class PlayResult:
    state: PlayState
    legal_actions: tuple[dict[str, Any], ...]
    log: tuple[str, ...]


class _Session:
    def __init__(
        self,
        table: Table,
        cards: Sequence[DeckCard],
        seed: int,
        outside: Mapping[str, DeckCard] | None = None,
        second: Sequence[DeckCard] = (),
    ) -> None:
        self.table = table
        self.rng = random.Random(seed)
        self.zones: dict[str, list[_Card]] = {z.slug: [] for z in table.zones}
        self.counters = {c.slug: c.start for c in table.counters}
        self.turn = 1
        self.step = -1
        self.mulliganed = False
        self.log: list[str] = []
        next_id = 1
        # The second deck's cards all start in its zone, whatever their deck zone.
        second_zone = table.second_deck.zone if table.second_deck and second else None
        for zone in table.zones:
            if not zone.holds and zone.slug != second_zone:
                continue
            pile = [c for c in cards if c.zone in zone.holds for _ in range(c.quantity)]
            if zone.slug == second_zone:
                pile += [c for c in second for _ in range(c.quantity)]
            self.rng.shuffle(pile)
            for card in pile:
                self.zones[zone.slug].append(_Card(next_id, card, zone.enters_face_up))
                next_id += 1
        for starting in table.starting:
            # Face up or down as the zone deals any card that enters it.
            into = table.zone(starting.zone)
            for name in starting.names:
                card = (outside or {}).get(name) or DeckCard(
                    key="", name=name, card_type=starting.card_type, zone="", quantity=1
                )
                self.zones[into.slug].append(_Card(next_id, card, into.enters_face_up))
                next_id += 1
            self.log.append(f"{table.opening_name}: {', '.join(starting.names)} in {into.name}.")
        self.log.append(f"{table.opening_name}: shuffled, then drew {table.rules.opening}.")
        self.draw(table.rules.opening)
        for deal in table.opening_deals:
            self.deal(deal)

    # -- reading ------------------------------------------------------------------------
    def find(self, card_id: int) -> tuple[str, int]:
        for slug, cards in self.zones.items():
            for i, card in enumerate(cards):
                if card.id == card_id:
                    return slug, i
        raise KeyError(card_id)

    def visible(self, zone: TableZone, card: _Card) -> bool:
        if zone.kind is ZoneKind.HAND or card.face_up:
            return True
        return zone.kind is not ZoneKind.PILE and zone.peek

    def name(self, zone: TableZone, card: _Card) -> str:
        return card.card.name if self.visible(zone, card) else "a face-down card"

    @property
    def step_name(self) -> str:
        return self.table.opening_name if self.step < 0 else self.table.steps[self.step].name

    def holds(self, slug: str) -> bool:
        return bool(self.zones[slug])

    def following(self) -> tuple[int, int]:
        """The next step taken and its turn. Which kind of turn it is (normal, or one
        taken while a zone holds cards) is settled as the turn begins; its steps then follow."""
        steps = self.table.steps
        if self.step >= 0:
            kind = steps[self.step].kind
            for i in range(self.step + 1, len(steps)):
                if steps[i].kind == kind:
                    return i, self.turn
        turn = self.turn + 1 if self.step >= 0 else self.turn
        first = next((i for i, step in enumerate(steps) if step.taken(self.holds)), 0)
        return first, turn

    def hand_over(self) -> int:
        limit = self.table.rules.hand_limit
        return 0 if limit is None else max(0, len(self.zones[self.table.hand]) - limit)

    def must_discard(self) -> int:
        return 0 if self.table.rules.limit_at_end_of_turn else self.hand_over()

    def pending_choice(self) -> Choice | None:
        return next((c for c in self.table.choices if self.zones[c.zone]), None)

    def pending(self) -> str | None:
        if due := self.must_discard():
            return f"{self.table.discard_name} {due} to the hand limit"
        if choice := self.pending_choice():
            to = self.table.zone(choice.to).name
            return f"Choose {choice.keep} of {self.table.zone(choice.zone).name} for {to}"
        return None

    def blocks_next(self) -> str | None:
        """Why the turn cannot move on yet, or None."""
        if pending := self.pending():
            return pending
        if self.step >= 0 and self.table.steps[self.step].end_of_turn:
            if self.table.rules.limit_at_end_of_turn and (over := self.hand_over()):
                return f"{self.table.discard_name} {over} to the hand limit first"
            for zone in self.table.zones:
                if zone.limit is not None and len(self.zones[zone.slug]) > zone.limit:
                    return f"{zone.name} holds more than {zone.limit} cards"
        return None

    # -- changing ------------------------------------------------------------------------
    def take_top(self, source: str) -> _Card | None:
        pile = self.zones[source]
        rules, discard = self.table.rules, self.table.discard
        from_deck = source == self.table.deck and rules.reshuffle_discards and bool(discard)
        discards: list[_Card] = self.zones[discard] if from_deck and discard else []
        if reshuffle_into(pile, discards, self.rng, reshuffle=from_deck):
            for card in pile:
                card.face_up, card.exhausted = False, False
            self.log.append("Shuffled the discards into a new deck.")
        return pile.pop(0) if pile else None

    def put(
        self, card: _Card, slug: str, at: int | None = None, face_up: bool | None = None
    ) -> None:
        zone = self.table.zone(slug)
        card.face_up = zone.enters_face_up if face_up is None else face_up
        card.exhausted = card.exhausted and zone.exhaust
        cards = self.zones[slug]
        if at is None:
            at = 0 if zone.kind is ZoneKind.PILE else len(cards)
        cards.insert(at, card)
        if zone.reveal_above and not card.face_up and at > 0:
            above = cards[at - 1]
            if not above.face_up:
                above.face_up = True
                self.log.append(f"Revealed {above.card.name}.")

    def draw(self, n: int) -> int:
        drawn = 0
        for _ in range(n):
            card = self.take_top(self.table.deck)
            if card is None:
                break  # no card to draw: the draw simply does not happen
            self.put(card, self.table.hand)
            drawn += 1
        return drawn

    def deal(self, deal: Deal) -> None:
        for slug in deal.to:
            want = deal.count - len(self.zones[slug]) if deal.refill else deal.count
            moved = 0
            for _ in range(max(0, want)):
                card = self.take_top(deal.source)
                if card is None:
                    break
                self.put(card, slug, face_up=deal.face_up)
                moved += 1
            if moved:
                self.log.append(f"Dealt {moved} to {self.table.zone(slug).name}.")

    def refill(self) -> None:
        want = self.table.rules.per_turn - len(self.zones[self.table.hand])
        if self.table.refill_after_play and want > 0 and self.draw(want):
            self.log.append(f"Drew back up to {self.table.rules.per_turn}.")

    def enter(self, step: TurnStep) -> None:
        self.log.append(f"{self.table.turn_name.capitalize()} {self.turn}: {step.name}.")
        for slug in step.ready:
            for card in self.zones[slug]:
                card.exhausted = False
        if self.turn > 1 or step.deals_on_first_turn:
            for deal in step.deals:
                self.deal(deal)
        for slug in step.reveal:
            for card in self.zones[slug]:
                if not card.face_up:
                    card.face_up = True
                    self.log.append(f"Revealed {card.card.name}.")
        for tally in step.tally:
            self.tally_up(tally)
        for clear in step.clear:
            for slug in clear.zones:
                for card in list(self.zones[slug]):
                    if not clear.deck_zones or card.card.zone in clear.deck_zones:
                        self.zones[slug].remove(card)
                        card.exhausted = False
                        self.put(card, clear.to)

    def tally_up(self, tally: Tally) -> None:
        total = 0
        for slug in tally.zones:
            for card in self.zones[slug]:
                value = card.card.stats.get(tally.stat)
                if card.face_up and isinstance(value, int) and not isinstance(value, bool):
                    total += value
        counter = next(c for c in self.table.counters if c.slug == tally.counter)
        now = self.counters[counter.slug] + total if tally.add else total
        self.counters[counter.slug] = _bounded(counter, now)
        self.log.append(f"{counter.name}: {self.counters[counter.slug]} (counted {total}).")

    # -- output ------------------------------------------------------------------------
    def state(self) -> PlayState:
        zones = {
            z.slug: tuple(
                CardView(c.id, c.card if self.visible(z, c) else None, c.face_up, c.exhausted)
                for c in self.zones[z.slug]
            )
            for z in self.table.zones
        }
        return PlayState(
            self.turn, self.step_name, self.step, zones, dict(self.counters), self.pending()
        )


def _bounded(counter: Counter, value: int) -> int:
    top = COUNTER_BOUND if counter.maximum is None else counter.maximum
    return max(counter.minimum, min(top, value))
