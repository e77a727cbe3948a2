"""The table a game is playtested on by hand, declared as data (engines.playtest plays it).

Each engine names its zones, which of them is the deck, the hand and the discard, the opening
and its mulligan (from the game's HandRules), the steps of a turn with what each deals,
reveals, readies, tallies or clears, the choices a player must make and the counters the game
keeps: every piece with the rulebook passage it comes from. Nothing here is specific to a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engines.hands import HandRules


class ZoneKind(StrEnum):
    # Ordered, face down unless declared otherwise; only its top card can be taken by hand.
    PILE = "pile"
    # The player's hand: face up to the player.
    HAND = "hand"
    # A row or area of play: face up unless declared otherwise, in order.
    AREA = "area"
    # One numbered place of play holding at most `capacity` cards (a Location).
    SLOT = "slot"


@dataclass(frozen=True)
class TableZone:
    slug: str
    name: str
    kind: ZoneKind
    source: str
    # The deck zones whose cards start the session here, shuffled.
    holds: tuple[str, ...] = ()
    # Cards moved here arrive face up; None: by kind (a pile face down, the rest face up).
    face_up: bool | None = None
    # The owner may look at their own face-down cards here (units placed face down); False
    # where the rulebook forbids even that.
    peek: bool = True
    # Cards here can be exhausted and readied.
    exhaust: bool = False
    # A slot holds at most this many cards.
    capacity: int | None = None
    # At the end of a turn at most this many cards may stay (the rest must be moved away).
    limit: int | None = None
    # A card placed face down under another reveals the one just above it.
    reveal_above: bool = False
    # A heading the page groups neighbouring zones under ("Forward Skirmish").
    group: str = ""

    @property
    def enters_face_up(self) -> bool:
        return self.kind is not ZoneKind.PILE if self.face_up is None else self.face_up


@dataclass(frozen=True)
class Deal:
    """Cards dealt by a step: `count` from `source` to each zone of `to`, or with `refill`
    until each holds `count`. Drawing from the table's deck follows the HandRules (an empty
    deck reshuffles the discards where the game says so; else the draw does not happen)."""

    count: int
    source: str
    to: tuple[str, ...]
    refill: bool = False
    face_up: bool | None = None


@dataclass(frozen=True)
class Clear:
    """Every card in `zones` goes to `to`; with `deck_zones`, only the cards that came from
    those zones of the deck."""

    zones: tuple[str, ...]
    to: str
    deck_zones: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tally:
    """A counter counts a stat over the face-up cards of `zones`: added to it, or set to it."""

    counter: str
    stat: str
    zones: tuple[str, ...]
    add: bool = True


@dataclass(frozen=True)
class TurnStep:
    name: str
    source: str
    # What happens on entering the step, in this order: ready, deal, reveal, tally, clear.
    ready: tuple[str, ...] = ()
    deals: tuple[Deal, ...] = ()
    # The opening already dealt the first turn's cards (a first supply drop).
    deals_on_first_turn: bool = True
    reveal: tuple[str, ...] = ()
    tally: tuple[Tally, ...] = ()
    clear: tuple[Clear, ...] = ()
    # The turn ends here: it cannot pass while the hand is over an end-of-turn hand limit or
    # a zone is over its limit.
    end_of_turn: bool = False
    # A step of one kind of turn only: taken only while this zone holds a card (a
    # special turn taken while a face-down stack lasts), or skipped while it does
    # (the normal turn). The player enters and leaves that turn by moving the cards.
    only_while_holding: str | None = None
    skipped_while_holding: str | None = None

    @property
    def kind(self) -> tuple[str | None, str | None]:
        """Steps of one kind of turn share this."""
        return (self.only_while_holding, self.skipped_while_holding)

    def taken(self, holding: Callable[[str], bool]) -> bool:
        """Whether this step is taken, given which zones hold a card."""
        if self.only_while_holding is not None and not holding(self.only_while_holding):
            return False
        return self.skipped_while_holding is None or not holding(self.skipped_while_holding)


@dataclass(frozen=True)
class Starting:
    """Cards that are not part of the deck but start the game in `zone`, named as the
    rulebook names them (planets given to each player): a session takes them from the catalogue by
    name, or shows the name alone where the catalogue lacks the card."""

    zone: str
    names: tuple[str, ...]
    source: str
    card_type: str = ""


@dataclass(frozen=True)
class Choice:
    """Cards in `zone` wait for the player to keep `keep` of them in `to`; the rest go to
    `rest_to` (its bottom when a pile). Nothing else moves the game on until then."""

    zone: str
    keep: int
    to: str
    rest_to: str
    source: str


@dataclass(frozen=True)
class Counter:
    slug: str
    name: str
    source: str
    start: int = 0
    minimum: int = 0
    maximum: int | None = None


@dataclass(frozen=True)
class SecondDeck:
    """A zone filled from a second deck the player brings beside the one played (the target
    cards beside a faction deck): a deck of the same game in `format`, or by default every
    catalogue card `default` (a card filter) matches, one copy each."""

    zone: str
    format: str
    # What the page calls the second deck ("Target deck"), and the default.
    name: str
    default: str
    default_name: str
    source: str


# A counter moved by hand stays within this, whatever the game leaves open.
COUNTER_BOUND = 999


@dataclass(frozen=True)
class Table:
    zones: tuple[TableZone, ...]
    # The zone `draw` takes from, the player's hand, and where a discarded card goes (None:
    # the deck's bottom, with HandRules.discard_to_bottom).
    deck: str
    hand: str
    discard: str | None
    # The opening hand, per-turn draws, hand limit and mulligan.
    rules: HandRules
    steps: tuple[TurnStep, ...]
    opening_name: str
    opening_source: str
    # Deals of the opening besides the opening hand.
    opening_deals: tuple[Deal, ...] = ()
    # Cards from outside the deck that the game starts with on the table.
    starting: tuple[Starting, ...] = ()
    choices: tuple[Choice, ...] = ()
    counters: tuple[Counter, ...] = ()
    second_deck: SecondDeck | None = None
    # Whenever a card leaves the hand, draw back up to `rules.per_turn` at once.
    refill_after_play: bool = False
    # Words for the moves, in the game's own terms.
    discard_name: str = "Discard"
    exhaust_name: str = "Exhaust"
    ready_name: str = "Ready"

    def __post_init__(self) -> None:
        slugs = [z.slug for z in self.zones]
        if len(set(slugs)) != len(slugs):
            raise ValueError("two table zones share a slug")
        named = {self.deck, self.hand, *([self.discard] if self.discard else [])}
        named |= {s.zone for s in self.starting}
        if self.second_deck is not None:
            named.add(self.second_deck.zone)
        for step in self.steps:
            named |= {*step.ready, *step.reveal}
            named |= {z for z in (step.only_while_holding, step.skipped_while_holding) if z}
            for deal in step.deals:
                named |= {deal.source, *deal.to}
            for clear in step.clear:
                named |= {*clear.zones, clear.to}
            for tally in step.tally:
                named |= set(tally.zones)
        for deal in self.opening_deals:
            named |= {deal.source, *deal.to}
        for choice in self.choices:
            named |= {choice.zone, choice.to, choice.rest_to}
        if stray := named - set(slugs):
            raise ValueError(f"the table names unknown zones {sorted(stray)}")
        counters = {c.slug for c in self.counters}
        if stray := {t.counter for s in self.steps for t in s.tally} - counters:
            raise ValueError(f"the table tallies unknown counters {sorted(stray)}")
        if not any(step.taken(lambda _: True) for step in self.steps) or not any(
            step.taken(lambda _: False) for step in self.steps
        ):
            # A turn with no step to take would never end.
            raise ValueError("the table's steps leave a turn with no step")
        if self.zone(self.deck).kind is not ZoneKind.PILE:
            raise ValueError("the deck must be a pile")
        if self.zone(self.hand).kind is not ZoneKind.HAND:
            raise ValueError("the hand must be a hand")

    def zone(self, slug: str) -> TableZone:
        return next(z for z in self.zones if z.slug == slug)

    def has_zone(self, slug: str) -> bool:
        return any(z.slug == slug for z in self.zones)

    @property
    def turn_name(self) -> str:
        return self.rules.turn_name
