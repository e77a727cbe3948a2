"""The reference interpreter: a declared goldfish procedure played one game at a time, in
plain Python, as a player would at the table. Slow and plain on purpose: it is what the
batched interpreter is held to."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.goldfish import counted, draw_up_to, resolve_policy, rng_for
from engines.procedure.cards import Expression, order_key
from engines.procedure.pool import affordable, pay
from engines.procedure.results import Counts, answer
from engines.procedure.vocabulary import (
    Amount,
    Ascend,
    Choose,
    Clear,
    Deal,
    Deploy,
    Discard,
    Exchange,
    Income,
    Mark,
    Mulligan,
    Playable,
    PlayLeaning,
    Procedure,
    Refill,
    Rise,
    Shuffle,
    Step,
    StopWhen,
    Tally,
    TallyFactions,
    Trim,
)
from engines.rules import DeckCard


class _Game:
    """One game's table: the piles (top last), their discards, the hand in drawing order."""

    def __init__(
        self,
        procedure: Procedure,
        cards: Sequence[DeckCard],
        rng: random.Random,
        memo: dict[tuple[int, int], Any],
        chosen: DeckCard | None = None,
    ) -> None:
        self.procedure = procedure
        self.memo = memo
        self.rng = rng
        self.piles = {p.name: procedure.pile_cards(p.name, cards) for p in procedure.piles}
        self.discards: dict[str, list[DeckCard]] = {p.name: [] for p in procedure.piles}
        self.table: dict[str, list[DeckCard]] = {p.name: [] for p in procedure.piles}
        self.hand: list[DeckCard] = []
        # Each pile's cards as dealt, for the highest level any of them needs.
        self.top = {name: tuple(pile) for name, pile in self.piles.items()}
        self.counters = dict(procedure.counters)
        self.turn_totals: dict[str, int] = {}
        self.game_totals: dict[str, int] = {}
        self.marked: set[str] = set()
        pool, level = procedure.pool, procedure.level
        self.pool = dict.fromkeys(pool.resources if pool else (), 0)
        self.level, self.rising = (level.start if level else 0), False
        # per_name measures: the first turn each name was playable in this game.
        self.name_first: dict[str, dict[str, int]] = {}
        # The field cards are played to, and the chosen card counted with it.
        self.field: list[DeckCard] = []
        self.chosen = chosen
        self.over = False

    def key(self, best: tuple[Expression, ...]) -> Callable[[DeckCard], tuple[int, ...]]:
        """The ordering's key, each card's worked out once a run (the games of a run deal
        the same card objects)."""
        plain, memo, order = order_key(best), self.memo, id(best)

        def known(card: DeckCard) -> tuple[int, ...]:
            found: tuple[int, ...] | None = memo.get((order, id(card)))
            if found is None:
                found = memo[order, id(card)] = plain(card)
            return found

        return known

    def worth(self, value: Expression, card: DeckCard) -> int:
        found: int | None = self.memo.get((id(value), id(card)))
        if found is None:
            found = self.memo[id(value), id(card)] = value(card)
        return found

    def test(self, name: str) -> Callable[[DeckCard], bool]:
        plain, memo, test = self.procedure.tests[name], self.memo, id(name)

        def known(card: DeckCard) -> bool:
            found: bool | None = memo.get((test, id(card)))
            if found is None:
                found = memo[test, id(card)] = plain(card)
            return found

        return known

    def count(self, value: Amount, policy: Mapping[str, Any]) -> int:
        if isinstance(value, str) and value in self.counters:
            return self.counters[value]
        return self.procedure.amount(value, policy)

    def draw(self, pile: str, size: int) -> None:
        reshuffles = self.procedure.pile(pile).reshuffle
        discard = self.discards[pile] if reshuffles else []
        self.piles[pile], left = draw_up_to(size, self.hand, self.piles[pile], discard, self.rng)
        if reshuffles:
            self.discards[pile] = left

    def play(self, step: Step, policy: Mapping[str, Any], counts: Counts, turn: int) -> None:
        if isinstance(step, Shuffle):
            self.rng.shuffle(self.piles[step.pile])
        elif isinstance(step, Deal):
            self.draw(step.pile, len(self.hand) + self.count(step.count, policy))
        elif isinstance(step, Refill):
            self.draw(step.pile, self.count(step.up_to, policy))
        elif isinstance(step, Deploy):
            self.deploy(step, policy, counts)
        elif isinstance(step, Choose):
            self.choose(step, counts, turn)
        elif isinstance(step, Clear):
            self.discards[step.pile] += self.table[step.pile]
            self.table[step.pile] = []
        elif isinstance(step, Discard):
            self.discard(step, policy)
        elif isinstance(step, Mulligan):
            self.mulligan(step, policy, counts)
        elif isinstance(step, Mark):
            test = self.test(step.holds)
            if step.measure not in self.marked and any(test(c) for c in self.hand):
                self.marked.add(step.measure)
                counts.first[step.measure][max(turn, 1)] += 1
        elif isinstance(step, Tally):
            for card_type, tally in counts.by_type[step.measure].items():
                tally.counts[sum(c.card_type == card_type for c in self.hand)] += 1
        elif isinstance(step, Exchange):
            self.exchange(step, policy)
        elif isinstance(step, Income):
            self.income(step, policy, turn)
        elif isinstance(step, Rise):
            self.level += self.rising
            self.rising = False
        elif isinstance(step, Ascend):
            self.ascend(step, policy)
        elif isinstance(step, Playable):
            self.playable(step, counts, turn)
        elif isinstance(step, PlayLeaning):
            self.play_leaning(step)
        elif isinstance(step, Trim):
            self.trim(step, policy)
        elif isinstance(step, StopWhen):
            self.stop_when(step, policy, counts, turn)
        elif isinstance(step, TallyFactions):
            hits = counts.faction_hits[step.measure]
            for i, faction in enumerate(counts.factions[step.measure]):
                hits[i] += any(faction in c.factions for c in self.hand)

    def leaning(self, cards: Sequence[DeckCard]) -> tuple[str | None, int]:
        """The faction `cards` and the chosen card count most (the first by name among
        equals), and how many; None where none has a faction."""
        counts: dict[str, int] = {}
        for card in [*cards, *([self.chosen] if self.chosen else [])]:
            for faction in card.factions:
                counts[faction] = counts.get(faction, 0) + 1
        if not counts:
            return None, 0
        faction = max(sorted(counts), key=lambda f: counts[f])
        return faction, counts[faction]

    def play_leaning(self, step: PlayLeaning) -> None:
        target = self.leaning(self.field)[0] or self.leaning(self.hand)[0]
        card = next((c for c in self.hand if target in c.factions), None)
        if card is not None:
            self.hand.remove(card)
            self.field.append(card)
        else:
            self.draw(step.pile, len(self.hand) + 1)

    def trim(self, step: Trim, policy: Mapping[str, Any]) -> None:
        faction = self.leaning(self.field)[0]
        pile = self.piles[step.pile]
        for cards, limit in ((self.field, step.field), (self.hand, step.hand)):
            while len(cards) > self.count(limit, policy):
                # min() keeps the first of equals: the first card off the faction.
                weakest = min(cards, key=lambda c: faction in c.factions)
                cards.remove(weakest)
                pile.insert(0, weakest)

    def stop_when(
        self, step: StopWhen, policy: Mapping[str, Any], counts: Counts, turn: int
    ) -> None:
        if self.leaning(self.field)[1] < self.count(step.at_least, policy):
            return
        self.over = True
        if step.turn:
            counts.each[step.turn].counts[turn] += 1
        if step.share:
            counts.shares[step.share] += 1
        if step.first:
            self.marked.add(step.first)
            counts.first[step.first][turn] += 1

    def exchange(self, step: Exchange, policy: Mapping[str, Any]) -> None:
        limit = self.count(step.keep.at_most, policy)
        kept = [c for c in self.hand if step.keep.value(c) <= limit]
        back = [c for c in self.hand if step.keep.value(c) > limit]
        self.hand = kept
        # Below every card left (the top is last), the first put back the first drawn again.
        self.piles[step.pile][:0] = reversed(back)
        self.draw(step.pile, len(kept) + len(back))

    def income(self, step: Income, policy: Mapping[str, Any], turn: int) -> None:
        assert self.procedure.pool is not None  # read_procedure asks for one
        if turn == 1 and step.not_on_turn_1 and policy[step.not_on_turn_1]:
            return
        cap = self.procedure.pool.cap
        for r, gain in step.gain.items():
            self.pool[r] = min(cap, self.pool[r] + self.count(gain, policy))

    def ascend(self, step: Ascend, policy: Mapping[str, Any]) -> None:
        pool, level = self.procedure.pool, self.procedure.level
        assert pool is not None and level is not None  # read_procedure asks for both
        cost = {r: self.count(level.cost.get(r, 0), policy) for r in pool.resources}
        top = max((level.need.value(c) for c in self.top[step.pile]), default=level.start)
        if self.level < top and not self.rising and affordable(pool, self.pool, cost):
            pay(pool, self.pool, cost)
            self.rising = True

    def playable(self, step: Playable, counts: Counts, turn: int) -> None:
        pool, level = self.procedure.pool, self.procedure.level
        assert pool is not None and level is not None  # read_procedure asks for both
        ready = 0
        for card in self.hand:
            if level.need.value(card) > self.level:
                continue
            cost = {r: self.worth(pool.cost[r], card) for r in pool.resources}
            if affordable(pool, self.pool, cost):
                ready += 1
                if step.first:
                    self.name_first.setdefault(step.first, {}).setdefault(card.name, turn)
        if step.count:
            self.turn_totals[step.count] = self.turn_totals.get(step.count, 0) + ready
        if step.any:
            counts.turn_shares[step.any][turn - 1] += ready > 0

    def note_held(self, counts: Counts, moment: str) -> None:
        """The per_name measures' figures of the hand's names at `moment` (setup, end)."""
        names = {c.name for c in self.hand}
        for key, figures in counts.name_held.items():
            measure = next(m for m in self.procedure.measures if m.key == key)
            for figure, games in figures.items():
                if (measure.held or {})[figure] == moment:
                    for i, name in enumerate(counts.names[key]):
                        games[i] += name in names

    def discard(self, step: Discard, policy: Mapping[str, Any]) -> None:
        limit = self.count(step.down_to, policy)
        if len(self.hand) <= limit:
            return
        best = self.key(step.best)
        # A stable sort, best first: among equals the card drawn first stays.
        ranked = sorted(range(len(self.hand)), key=lambda i: best(self.hand[i]), reverse=True)
        kept = set(ranked[:limit])
        self.discards[step.pile] += [c for i, c in enumerate(self.hand) if i not in kept]
        self.hand = [c for i, c in enumerate(self.hand) if i in kept]

    def mulligan(self, step: Mulligan, policy: Mapping[str, Any], counts: Counts) -> None:
        test = self.test(step.test)
        if sum(map(test, self.hand)) >= self.count(step.fewer_than, policy):
            return
        size = len(self.hand)
        self.piles[step.pile] += self.hand
        self.hand = []
        self.rng.shuffle(self.piles[step.pile])
        self.draw(step.pile, size)
        if step.mark:
            counts.shares[step.mark] += 1

    def deploy(self, step: Deploy, policy: Mapping[str, Any], counts: Counts) -> None:
        best = self.key(step.best)
        only = self.test(step.only) if step.only else None
        for _ in range(self.count(step.times, policy)):
            eligible = [c for c in self.hand if only is None or only(c)]
            if not eligible:
                break
            # max() keeps the first of equals: the card drawn first, the hand being in order.
            card = max(eligible, key=best)
            self.hand.remove(card)
            (self.table if step.to_table else self.discards)[step.pile].append(card)
            for key, value in step.record:
                worth = self.worth(value, card)
                if key in counts.per_game:
                    self.game_totals[key] = self.game_totals.get(key, 0) + worth
                elif key in counts.each:
                    counts.each[key].counts[worth] += 1
                else:
                    self.turn_totals[key] = self.turn_totals.get(key, 0) + worth
            refill = self.count(step.refill, policy)
            if refill:
                self.draw(step.pile, refill)

    def choose(self, step: Choose, counts: Counts, turn: int) -> None:
        pile = self.piles[step.pile]
        seen = [pile.pop() for _ in range(min(step.look, len(pile)))]
        if not seen:
            return
        kept = max(seen, key=self.key(step.best))
        seen.remove(kept)
        # The rest go below every card not yet seen, in the order they were seen.
        pile[:0] = reversed(seen)
        for gain in step.then:
            if gain.when is not None and not self.test(gain.when)(kept):
                continue
            before = self.counters[gain.counter]
            self.counters[gain.counter] = min(before + gain.amount, max(before, gain.cap))
            if gain.mark and self.counters[gain.counter] > before and gain.mark not in self.marked:
                self.marked.add(gain.mark)
                counts.first[gain.mark][turn] += 1


def run_reference(
    procedure: Procedure,
    cards: Sequence[DeckCard],
    *,
    runs: int,
    seed: int,
    policy: Mapping[str, object],
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    p = resolve_policy(procedure.policy, policy)
    rng = rng_for(seed)
    turns = procedure.amount(procedure.turns, p)
    counts = Counts.of(procedure, cards, turns)
    # Keyed by the ids of objects `cards` and `procedure` hold for the whole run.
    memo: dict[tuple[int, int], Any] = {}
    chosen = procedure.chosen.card(cards, p) if procedure.chosen else None
    for _ in counted(runs, progress):
        game = _Game(procedure, cards, rng, memo, chosen)
        for step in procedure.setup:
            game.play(step, p, counts, 0)
        game.note_held(counts, "setup")
        for turn in range(1, turns + 1):
            game.turn_totals = {}
            for step in procedure.turn_steps(turn):
                game.play(step, p, counts, turn)
            for key, tallies in counts.per_turn.items():
                tallies[turn - 1].counts[game.turn_totals.get(key, 0)] += 1
            if game.over:
                break
        for key in counts.per_game:
            counts.each[key].counts[game.game_totals.get(key, 0)] += 1
        for key in set(counts.first) - game.marked:
            counts.first[key][turns + 1] += 1
        game.note_held(counts, "end")
        for key, names in counts.names.items():
            seen = game.name_first.get(key, {})
            for i, name in enumerate(names):
                counts.name_first[key][i, seen.get(name, turns + 1)] += 1
    return answer(procedure.measures, counts, runs, procedure.report, p, chosen)
