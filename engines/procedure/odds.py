"""A declared procedure's exact odds (its `[[odds]]`): hypergeometric chances, in fractions,
beside the simulated shares they predict, for the goldfish page to show side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import comb

from engines.base import HandOdds
from engines.goldfish import copies, resolve_policy
from engines.odds import MAX_DECK_SIZE, at_least
from engines.procedure.vocabulary import Deal, Mulligan, Procedure
from engines.rules import DeckCard


def exact_odds(
    procedure: Procedure, cards: Sequence[DeckCard], policy: Mapping[str, object]
) -> list[HandOdds]:
    p = resolve_policy(procedure.policy, policy)
    found: list[HandOdds] = []
    for spec in procedure.odds:
        pile = copies(cards, procedure.pile(spec.pile).zone)
        size = len(pile)
        if not size or size > MAX_DECK_SIZE or (spec.whole_draw and size < spec.first):
            continue
        if spec.each_type:
            groups = [
                (t, sum(c.card_type == t for c in pile))
                for t in sorted({c.card_type for c in pile})
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
                words = {**p, "turn": turn, "index": turn - 1, "type": card_type, "draws": draws}
                found.append(
                    HandOdds(
                        spec.label.format(**words),
                        1 - float(chance) if spec.fewer else float(chance),
                        spec.summary.format(**words),
                    )
                )
    return found


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
