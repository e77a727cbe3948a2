"""A declared procedure's exact odds (its `[[odds]]`): hypergeometric chances, in fractions,
beside the simulated shares they predict, for the goldfish page to show side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from engines.base import HandOdds
from engines.goldfish import resolve_policy
from engines.odds import MAX_DECK_SIZE, at_least
from engines.procedure.vocabulary import Deal, Exchange, Mulligan, Odds, Procedure
from engines.rules import DeckCard


def exact_odds(
    procedure: Procedure, cards: Sequence[DeckCard], policy: Mapping[str, object]
) -> list[HandOdds]:
    p = resolve_policy(procedure.policy, policy)
    found: list[HandOdds] = []
    by_name = [spec for spec in procedure.odds if spec.each_name]
    if by_name:
        found += _by_name(procedure, by_name, cards, p)
    for spec in procedure.odds:
        if spec.each_name:
            continue
        pile = procedure.pile_cards(spec.pile, cards)
        size = len(pile)
        if not size or size > MAX_DECK_SIZE or (spec.whole_draw and size < spec.first):
            continue
        if spec.each_type:
            groups = [
                (t, sum(c.card_type == t for c in pile))
                for t in sorted({c.card_type for c in pile})
            ]
        elif spec.each_faction:
            groups = [
                (f, sum(f in c.factions for c in pile))
                for f in sorted({f for c in pile for f in c.factions})
            ]
        else:
            assert spec.of is not None  # read_procedure asks for one or the other
            test = procedure.tests[spec.of]
            groups = [("", sum(map(test, pile)))]
        need = procedure.amount(spec.at_least, p)
        turns = range(1, procedure.amount(procedure.turns, p) + 1) if spec.per_turn else [1]
        for card_type, count in groups:
            if spec.when_present and not count:
                continue
            for turn in turns:
                draws = min(size, spec.first + spec.per_turn * (turn - 1))
                if spec.after_mulligan:
                    chance = _after_mulligan(procedure, pile, p, count, draws)
                else:
                    chance = at_least(size, count, draws, need)
                words = {
                    **p,
                    "turn": turn,
                    "index": turn - 1,
                    "type": card_type,
                    "faction": card_type,
                    "draws": draws,
                }
                found.append(
                    HandOdds(
                        spec.label.format(**words),
                        1 - float(chance) if spec.fewer else float(chance),
                        spec.summary.format(**words),
                    )
                )
    return found


def _by_name(
    procedure: Procedure, specs: Sequence[Odds], cards: Sequence[DeckCard], p: Mapping[str, Any]
) -> list[HandOdds]:
    """The `each_name` odds, name by name (each name's rows together, in the files' order)."""
    exchange = next(s for s in procedure.setup if isinstance(s, Exchange))
    deal = next(s for s in procedure.setup if isinstance(s, Deal))
    limit = procedure.amount(exchange.keep.at_most, p)
    found: list[HandOdds] = []
    for spec in specs:
        pile = procedure.pile_cards(spec.pile, cards)
        size = len(pile)
        if not size or size > MAX_DECK_SIZE:
            return []
    for name in sorted({c.name for spec in specs for c in procedure.pile_cards(spec.pile, cards)}):
        for spec in specs:
            pile = procedure.pile_cards(spec.pile, cards)
            low = [exchange.keep.value(c) <= limit for c in pile]
            named = [c.name == name for c in pile]
            missed = _none_after_exchange(
                size=len(pile),
                opening=procedure.amount(deal.count, p),
                high=low.count(False),
                copies_low=sum(n and k for n, k in zip(named, low, strict=True)),
                copies_high=sum(n and not k for n, k in zip(named, low, strict=True)),
                turns=procedure.amount(spec.turns, p),
            )
            if missed is not None:
                words = {**p, "name": name}
                found.append(
                    HandOdds(
                        spec.label.format(**words), float(1 - missed), spec.summary.format(**words)
                    )
                )
    return found


def _none_after_exchange(
    *, size: int, opening: int, high: int, copies_low: int, copies_high: int, turns: int
) -> Fraction | None:
    """P(no copy of a card in hand after the opening exchange and `turns` draws), or None
    where an exchanged card could come back within reach (a deck too short for the turns).

    The exchange puts back the k cards that fail its test from the `opening` drawn and draws
    k more; then each turn draws one. So a copy is in hand when it is a kept copy among the
    opening, or among the next k + turns cards. Summed over k and over the exchanged copies of
    the card itself, every term is a hypergeometric chance."""
    opening = min(opening, size)
    if min(opening, high) + turns > size - opening:
        return None
    low = size - high

    def none_of(population: int, hits: int, draws: int) -> Fraction:
        return 1 - at_least(population, hits, draws, 1) if draws else Fraction(1)

    def exactly(population: int, hits: int, draws: int, n: int) -> Fraction:
        if not draws:  # nothing drawn (from a pile perhaps empty): none, surely
            return Fraction(n == 0)
        return at_least(population, hits, draws, n) - at_least(population, hits, draws, n + 1)

    total = Fraction(0)
    for k in range(min(opening, high) + 1):
        p_k = exactly(size, high, opening, k)
        if not p_k:
            continue
        # No kept copy among the opening's kept cards...
        missed = none_of(low, copies_low, opening - k)
        # ...nor any copy among the next k + turns, given the copies put back.
        for x in range(min(k, copies_high) + 1):
            p_x = exactly(high, copies_high, k, x)
            left = copies_low + copies_high - x
            total += p_k * missed * p_x * none_of(size - opening, left, k + turns)
    return total


def _after_mulligan(
    procedure: Procedure,
    pile: Sequence[DeckCard],
    policy: Mapping[str, object],
    targets: int,
    seen: int,
) -> Fraction:
    """P(at least one of `targets` cards among the first `seen` drawn), the opening deal
    redrawn once (shuffled back, dealt again) when it holds fewer of the cards the set-up's
    mulligan tests for than it asks: hypergeometric over the opening's tested cards, then
    over the draws after it (a kept opening conditions what follows; a redrawn one starts
    afresh). The tested cards and the targets are taken to be apart, as a Celestial is no
    unit."""
    mulligan = next(s for s in procedure.setup if isinstance(s, Mulligan))
    deal = next(s for s in procedure.setup if isinstance(s, Deal))
    size, drop = len(pile), procedure.amount(deal.count, policy)
    tested = sum(map(procedure.tests[mulligan.test], pile))
    enough = procedure.amount(mulligan.fewer_than, policy)
    others = size - tested - targets
    kept_without = Fraction(0)
    later = Fraction(comb(size - drop - targets, seen - drop), comb(size - drop, seen - drop))
    for held in range(enough, min(tested, drop) + 1):
        kept_without += Fraction(comb(tested, held) * comb(others, drop - held), comb(size, drop))
    kept = at_least(size, tested, drop, enough)
    anywhere = at_least(size, targets, seen, 1)
    return (kept - kept_without * later) + (1 - kept) * anywhere
