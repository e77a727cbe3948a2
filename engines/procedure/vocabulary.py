"""The goldfish procedure's vocabulary: the objects a goldfish.toml is read into (piles, the
set-up and turn steps, measures, exact odds, the page's figures) and that both interpreters
play, the reference (one game at a time, in plain Python) and the batched one (many games at
once, in NumPy), so that they cannot drift apart on what a procedure says."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.errors import InputError
from engines.goldfish import PolicyParam, copies, stat
from engines.procedure.cards import Expression, Test
from engines.rules import DeckCard

# A count in a step: a number, a policy knob or a counter, by name.
Amount = int | str

MEASURE_KINDS = (
    "each",
    "per_turn",
    "per_game",
    "first_turn",
    "share",
    "hand_by_type",
    "share_per_turn",
    "per_name",
    "faction_share",
)
# The charts each kind of measure can draw, by the name a file gives them under `charts`.
CHART_KINDS = {
    "each": {"histogram"},
    "per_turn": {"histograms", "means"},
    "per_game": {"histogram"},
    "share": set(),
    "first_turn": {"shares"},
    "hand_by_type": {"histograms"},
    "share_per_turn": {"shares"},
    "per_name": set(),
    "faction_share": set(),
}


@dataclass(frozen=True)
class Pile:
    """A shuffled pile of the deck's cards of one zone, drawn from the top. `reshuffle`: when
    it runs out, its discard pile is shuffled into a new one. `leave_out`: card tests; a card
    that passes any of them is not shuffled in (it starts elsewhere, as a Planet does)."""

    name: str
    zone: str
    reshuffle: bool
    leave_out: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bound:
    """A card's stat (`default` where the card leaves it empty or 0) at most a count."""

    stat: str
    default: int
    at_most: Amount

    def value(self, card: DeckCard) -> int:
        return stat(card, self.stat, self.default)


@dataclass(frozen=True)
class Pool:
    """A pool of resources, each stored up to `cap`. A card costs `cost[resource]` of each (an
    expression over the card); a shortfall in one resource is made up by trading `trade` of any
    other's surplus for one, the fullest resource first."""

    resources: tuple[str, ...]
    cap: int
    trade: int
    cost: Mapping[str, Expression]


@dataclass(frozen=True)
class Level:
    """A level the player climbs (a Tier): it starts at `start`; a card needs `need` of it
    (a stat, `default` where empty); rising one costs `cost` from the pool (resource -> count),
    and is possible while a card of the pile needs more."""

    start: int
    need: Bound
    cost: Mapping[str, Amount]


@dataclass(frozen=True)
class Shuffle:
    pile: str


@dataclass(frozen=True)
class Deal:
    """Draw `count` cards from the pile into the hand."""

    pile: str
    count: Amount


@dataclass(frozen=True)
class Refill:
    """Draw from the pile until the hand holds `up_to` cards."""

    pile: str
    up_to: Amount


@dataclass(frozen=True)
class Deploy:
    """`times` times: the hand's best card by `best` leaves it, for the pile's discards or
    (`to_table`) the table until a `clear`, and each (measure, value) in `record` is recorded
    for it. `refill`: draw back up to this many after each card (0: no)."""

    pile: str
    times: Amount
    best: tuple[Expression, ...]
    record: tuple[tuple[str, Expression], ...]
    refill: Amount
    to_table: bool
    # A card test: only the hand's cards that pass it may be deployed.
    only: str | None = None


@dataclass(frozen=True)
class Discard:
    """Discard the hand down to `down_to` cards, keeping the best by `best` (among equals, the
    card drawn first), into the pile's discards."""

    pile: str
    down_to: Amount
    best: tuple[Expression, ...]


@dataclass(frozen=True)
class Mulligan:
    """Mulligan by redraw, once: when fewer than `fewer_than` of the hand's cards pass
    `test`, the hand goes back into the pile, the pile is shuffled and as many are dealt
    again. `mark` counts the games that did, for a share measure."""

    pile: str
    test: str
    fewer_than: Amount
    mark: str | None


@dataclass(frozen=True)
class Exchange:
    """Mulligan by exchange, once: the hand's cards that fail `keep` go to the bottom of the
    pile in the order they were drawn, and as many are drawn."""

    pile: str
    keep: Bound


@dataclass(frozen=True)
class Income:
    """Each resource of the pool gains its count (a number or knob), never past the cap; not
    on turn 1 when the knob `not_on_turn_1` is on (a first player)."""

    gain: Mapping[str, Amount]
    not_on_turn_1: str | None


@dataclass(frozen=True)
class Rise:
    """A rise of the level paid for on an earlier turn takes effect."""


@dataclass(frozen=True)
class Ascend:
    """When a card of `pile` needs a higher level, no rise is pending and the pool can pay the
    level's cost (with trades): pay it; the level rises at the next `rise`."""

    pile: str


@dataclass(frozen=True)
class Playable:
    """Count the hand's playable cards: their need within the level, their cost payable from
    the pool with trades. `count`: into a per_turn measure; `any`: a share_per_turn measure of
    games with one; `first`: a per_name measure's first turn each card name is playable."""

    count: str | None
    any: str | None
    first: str | None


@dataclass(frozen=True)
class Chosen:
    """A card the player picks from a zone of the deck outside the piles, by a knob: 0, the
    first listed; n, the n-th (at most `most`). Its factions count with the field's."""

    name: str
    zone: str
    knob: str
    most: int
    # What the cards are called, for the message refusing a number past the deck's.
    noun: str

    def options(self, cards: Sequence[DeckCard]) -> list[DeckCard]:
        return copies(cards, self.zone)[: self.most]

    def card(self, cards: Sequence[DeckCard], policy: Mapping[str, Any]) -> DeckCard | None:
        """The card the knob picks; InputError (naming the knob) past the deck's."""
        options, choice = self.options(cards), int(policy[self.knob])
        if choice > len(options):
            named = ", ".join(f"{n} {c.name}" for n, c in enumerate(options, 1)) or "none"
            raise InputError(
                self.knob, f"the deck lists {len(options)} {self.noun} ({named}), not {choice}"
            )
        return options[choice - 1] if choice else next(iter(options), None)


@dataclass(frozen=True)
class PlayLeaning:
    """Play the hand's first card of the faction the field leans to (the one its cards and
    the chosen card count most, the first by name among equals; with none, the hand's own
    leaning) onto the field; with no such card, draw one from the pile instead."""

    pile: str


@dataclass(frozen=True)
class Trim:
    """The field, then the hand, down to their limits: each time the first card not of the
    faction the field leans to now (else the first card) goes to the bottom of the pile."""

    pile: str
    field: Amount
    hand: Amount


@dataclass(frozen=True)
class StopWhen:
    """The game ends when the field, the chosen card counted, holds `at_least` cards of one
    faction: the turn goes to the `turn` measure (an each), the game to `share` and `first`."""

    at_least: Amount
    turn: str | None
    share: str | None
    first: str | None


@dataclass(frozen=True)
class TallyFactions:
    """Count the games whose hand holds a card of each faction, for a faction_share measure."""

    measure: str


@dataclass(frozen=True)
class Mark:
    """Note the turn the hand first holds a card that passes `holds`, for a first_turn measure
    (set-up counts as turn 1)."""

    measure: str
    holds: str


@dataclass(frozen=True)
class Clear:
    """The pile's cards on the table go to its discards."""

    pile: str


@dataclass(frozen=True)
class Tally:
    """Count the hand's cards of each card type of the pile, for a hand_by_type measure."""

    measure: str
    pile: str


@dataclass(frozen=True)
class Gain:
    """A counter rises by `amount`, never past `cap`, when the chosen card passes `when`;
    `mark` notes the turn it first rose in, for a first_turn measure."""

    counter: str
    amount: int
    cap: int
    when: str | None
    mark: str | None


@dataclass(frozen=True)
class Choose:
    """Look at the pile's top `look` cards, keep the best by `best` (it leaves the pile), put
    the others on the bottom in the order seen, then apply `then` to the card kept."""

    pile: str
    look: int
    best: tuple[Expression, ...]
    then: tuple[Gain, ...]


Step = (
    Shuffle
    | Deal
    | Refill
    | Deploy
    | Choose
    | Clear
    | Tally
    | Discard
    | Mulligan
    | Mark
    | Exchange
    | Income
    | Rise
    | Ascend
    | Playable
    | PlayLeaning
    | Trim
    | StopWhen
    | TallyFactions
)


@dataclass(frozen=True)
class Measure:
    """What a procedure reports, under `key` in the summary. `each`: every value recorded,
    described. `per_turn`: the values of a turn summed, a description per turn. `per_game`: the
    values of a game summed, described. `first_turn`: the share of games marked by each turn.
    `share`: the share of games marked. `hand_by_type`: the mean count of each card type in
    the hand when tallied, and (under `shares`) the share of games with at least one.
    `charts`: chart kind -> the chart's key (`means` adds `<key>_sd`, their spread)."""

    key: str
    kind: str
    charts: Mapping[str, str]
    shares: str | None = None
    # per_name: the pile whose card names are measured; `first`: the names the first-turn
    # figures take (by_turn, mean, sd); `held`: a figure's name -> "setup" or "end", the
    # share of games whose hand holds the name after the set-up or at the end.
    pile: str | None = None
    first: Mapping[str, str] | None = None
    held: Mapping[str, str] | None = None
    # False: the measure is drawn as a chart only, not listed in the summary.
    in_summary: bool = True


@dataclass(frozen=True)
class Odds:
    """An exact chance, hypergeometric, beside the simulated share it predicts: at least
    `at_least` of the pile's cards that pass `of` (or, `each_type`, of each card type) among
    `first` cards drawn, or, with `per_turn`, among `first + per_turn * (turn - 1)` by each
    turn. `fewer`: the chance of fewer instead. `after_mulligan`: the set-up's mulligan by
    redraw taken into account. `when_present`: left out when no card passes `of`.
    `whole_draw`: left out when the pile holds fewer than `first` cards. `label` and
    `summary` are formats: {turn}, {index} (turn - 1), {type}, {draws} and the policy's knobs."""

    pile: str
    of: str | None
    each_type: bool
    at_least: Amount
    first: int
    per_turn: int
    fewer: bool
    after_mulligan: bool
    when_present: bool
    whole_draw: bool
    label: str
    summary: str
    # The set-up's exchange taken into account, for each card name (`{name}` in the formats):
    # at least one in hand `turns` draws after it (engines/procedure/odds.py).
    each_name: bool = False
    turns: Amount = 0
    # For each faction of the pile's cards (`{faction}` in the formats), as `each_type`.
    each_faction: bool = False


@dataclass(frozen=True)
class Figure:
    """How a page shows the answer: a chart (engines.base.ResultChart) or a row of the
    summary table (engines.base.SummaryFigure), its fields as the file gives them."""

    fields: Mapping[str, Any]


@dataclass(frozen=True)
class Procedure:
    policy: tuple[PolicyParam, ...]
    tests: Mapping[str, Test]
    piles: tuple[Pile, ...]
    counters: Mapping[str, int]
    turns: Amount
    setup: tuple[Step, ...]
    turn: tuple[Step, ...]
    measures: tuple[Measure, ...]
    # The turn each turn step is first played on (1: every turn).
    from_turn: tuple[int, ...] = ()
    odds: tuple[Odds, ...] = ()
    charts: tuple[Figure, ...] = ()
    summary: tuple[Figure, ...] = ()
    # A typical deck, for measuring the procedure's cost (engines/procedure/cost.py).
    cost_deck: tuple[DeckCard, ...] = ()
    pool: Pool | None = None
    level: Level | None = None
    # Figures of the summary that echo the policy: nested tables, `{ knob = "name" }` a knob.
    report: Mapping[str, Any] | None = None
    # The card the player picks by a knob (a Sigil), whose factions count with the field's.
    chosen: Chosen | None = None
    # A cost the file states (GameEngine.goldfish_cost), kept instead of the measured one
    # where the site's request limits are promised in runs.
    stated_cost: float | None = None
    # Each card test's facts as the file gives them ({"text": "up to 6"}), for describe.py.
    test_facts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def factions(self, measure: Measure, cards: Sequence[DeckCard]) -> list[str]:
        """The factions a faction_share measure reports on: those of its pile's cards."""
        return sorted({f for c in self.pile_cards(measure.pile or "", cards) for f in c.factions})

    def turn_steps(self, turn: int) -> tuple[Step, ...]:
        starts = self.from_turn or (1,) * len(self.turn)
        return tuple(s for s, start in zip(self.turn, starts, strict=True) if turn >= start)

    def types(self, measure: str, cards: Sequence[DeckCard]) -> list[str]:
        """The card types a hand_by_type measure counts: those of the pile it tallies."""
        piles = {
            s.pile for s in self.setup + self.turn if isinstance(s, Tally) and s.measure == measure
        }
        zones = {self.pile(p).zone for p in piles}
        return sorted({c.card_type for c in cards if c.zone in zones and c.quantity > 0})

    def pile(self, name: str) -> Pile:
        return next(p for p in self.piles if p.name == name)

    def pile_cards(self, name: str, cards: Sequence[DeckCard]) -> list[DeckCard]:
        """One entry per physical card the pile is shuffled from."""
        pile = self.pile(name)
        tests = [self.tests[t] for t in pile.leave_out]
        return [c for c in copies(cards, pile.zone) if not any(t(c) for t in tests)]

    def names(self, measure: Measure, cards: Sequence[DeckCard]) -> list[str]:
        """The card names a per_name measure reports on, in order."""
        return sorted({c.name for c in self.pile_cards(measure.pile or "", cards)})

    def amount(self, value: Amount, policy: Mapping[str, Any]) -> int:
        """A count that does not change during a game: a number or a policy knob."""
        return value if isinstance(value, int) else int(policy[value])

    def most(self, value: Amount, policy: Mapping[str, Any]) -> int:
        """The most a count may be during a game (a counter: its highest cap or start)."""
        if isinstance(value, str) and value in self.counters:
            caps = [g.cap for s in self.setup + self.turn if isinstance(s, Choose) for g in s.then]
            return max([self.counters[value], *caps])
        return self.amount(value, policy)
