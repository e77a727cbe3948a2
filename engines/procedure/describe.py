"""A goldfish procedure told in words: what one simulated game does, step by step, and what
it leaves out, for the page that shows the simulation's figures.

Generated from the procedure the game's goldfish.toml declares (its piles, set-up and turn
steps, card tests and measures), never written per game, so the words cannot drift from what
is simulated. Counts given by a policy knob are told with the knob's value in `policy` (its
default where absent); stats are named by `stat_labels` (the game's own words for them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.procedure.cards import Expression
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

# Steps that take a card out of the hand to use it; a procedure with none plays no card.
_PLAYS = (Deploy, PlayLeaning, Choose)
_CHOICE = re.compile(r"^\((\w+) \? (.+) : (.+)\)$")


@dataclass(frozen=True)
class SpreadNote:
    """What the ± beside one summary figure's mean is the standard deviation of."""

    label: str
    over: str


@dataclass(frozen=True)
class Description:
    setup: str  # "Shuffle the nest; draw 3; …": the set-up, as one sentence
    turn: str  # "Each turn: draw 1; …", up to the last turn simulated
    plays: str  # whether a card is played at all
    ignores: str  # what a simulated game leaves out
    spreads: tuple[SpreadNote, ...]

    @property
    def sentences(self) -> tuple[str, ...]:
        return tuple(s for s in (self.setup, self.turn, self.plays, self.ignores) if s)


def describe(
    procedure: Procedure,
    policy: Mapping[str, Any] | None = None,
    stat_labels: Mapping[str, str] | None = None,
) -> Description:
    words = _Words(procedure, dict(policy or {}), dict(stat_labels or {}))
    turn_noun = words.turn_noun()
    setup = [words.step(s) for s in procedure.setup]
    turn_parts = []
    starts = procedure.from_turn or (1,) * len(procedure.turn)
    for step, start in zip(procedure.turn, starts, strict=True):
        said = words.step(step)
        if said and start > 1:
            said = f"from {turn_noun} {start}, {said}"
        turn_parts.append(said)
    last = words.amount(procedure.turns)
    # A game that can end early (StopWhen) is played for at most its turns.
    up_to = "up to " if any(isinstance(s, StopWhen) for s in procedure.turn) else ""
    plays = any(isinstance(s, _PLAYS) for s in procedure.setup + procedure.turn)
    lead = f"Each {turn_noun}, for {up_to}{last} {turn_noun}{'s' * (last != 1)}"
    return Description(
        setup=_sentence("To start", setup),
        turn=_sentence(lead, turn_parts),
        plays=""
        if plays
        else "No card is played: the figures show the earliest turn each card could be.",
        ignores=words.ignores(),
        spreads=words.spreads(),
    )


def _sentence(lead: str, parts: list[str]) -> str:
    parts = [p for p in parts if p]
    return f"{lead}: {'; '.join(parts)}." if parts else ""


class _Words:
    def __init__(
        self, procedure: Procedure, policy: dict[str, Any], stat_labels: dict[str, str]
    ) -> None:
        self.procedure = procedure
        self.policy = {p.key: policy.get(p.key, p.default) for p in procedure.policy}
        self.stats = stat_labels

    def turn_noun(self) -> str:
        turns = self.procedure.turns
        name = turns if isinstance(turns, str) else "turns"
        word = name.rsplit("_", 1)[-1]
        return word.removesuffix("s") or "turn"

    def amount(self, value: Amount) -> int:
        if isinstance(value, int):
            return value
        if value in self.procedure.counters:
            return int(self.procedure.counters[value])
        return int(self.policy[value])

    def count(self, value: Amount) -> str:
        """A count as told: a counter is named, with where it starts."""
        if isinstance(value, str) and value in self.procedure.counters:
            return f"the {_words(value)} ({self.procedure.counters[value]} at first)"
        return str(self.amount(value))

    def cards(self, value: Amount) -> str:
        n = self.amount(value)
        return f"{self.count(value)} card{'s' * (n != 1 or not isinstance(value, int))}"

    def pile(self, name: str) -> str:
        return f"the {_words(name)} pile"

    def value(self, expression: Expression) -> str:
        text = expression.text
        choice = _CHOICE.match(text)
        if choice:
            test, then, otherwise = choice.groups()
            rest = (
                "other cards go first"
                if otherwise.startswith("-")
                else f"other cards count {self.term(otherwise)}"
            )
            return f"{self.term(then)} of a {self.test(test)} ({rest})"
        return " ".join(self.term(t) for t in text.split())

    def test(self, name: str, plural: bool = False) -> str:
        """A card test in words, from its facts: "Unit card", "card saying “up to 6”"."""
        noun = "cards" if plural else "card"
        facts = self.procedure.test_facts.get(name)
        if not facts:
            return f"{_words(name)} {noun}"
        words = [str(facts["type"]), noun] if "type" in facts else [noun]
        if "keyword" in facts:
            words.append(f"with {facts['keyword']}")
        if "stat" in facts:
            words.append(f"with a {self.stats.get(str(facts['stat']), _words(str(facts['stat'])))}")
        if "text" in facts:
            words.append(f"saying “{facts['text']}”")
        return " ".join(words)

    def term(self, word: str) -> str:
        if word in self.stats:
            return self.stats[word]
        if word in self.procedure.test_facts:
            return f"being a {self.test(word)}"
        if word.lstrip("-").isdigit() or word in "+-":
            return word
        return _words(word)

    def order(self, best: tuple[Expression, ...]) -> str:
        if all(e.text.strip().lstrip("-").isdigit() for e in best):
            return "in the order drawn"
        said = []
        for e in best:
            if e.text in self.procedure.test_facts:
                said.append(f"{self.test(e.text, plural=True)} first")
            else:
                said.append(f"by highest {self.value(e)}")
        return ", then ".join(said)

    def step(self, step: Step) -> str:
        if isinstance(step, Shuffle):
            again = (
                " (its discards shuffled into a new one when it runs out)"
                if self.procedure.pile(step.pile).reshuffle
                else ""
            )
            return f"shuffle {self.pile(step.pile)}{again}"
        if isinstance(step, Deal):
            return f"draw {self.cards(step.count)} from {self.pile(step.pile)}"
        if isinstance(step, Refill):
            return f"draw from {self.pile(step.pile)} up to {self.count(step.up_to)} in hand"
        if isinstance(step, Mulligan):
            return (
                f"mulligan once (shuffle the hand back and draw again) when it holds fewer than "
                f"{self.count(step.fewer_than)} {self.test(step.test, plural=True)}"
            )
        if isinstance(step, Exchange):
            need = self.stats.get(step.keep.stat, _words(step.keep.stat))
            return (
                f"put the hand's cards needing a {need} above {self.count(step.keep.at_most)} "
                "on the bottom and draw as many"
            )
        if isinstance(step, Deploy):
            n = self.amount(step.times)
            which = (
                self.test(step.only, plural=n != 1)
                if step.only
                else ("cards" if n != 1 else "card")
            )
            where = "on the table" if step.to_table else "into the discards"
            said = (
                f"place {self.count(step.times)} {which} "
                f"from the hand {where}, {self.order(step.best)}"
            )
            if step.refill and self.amount(step.refill):
                said += f", drawing back up to {self.count(step.refill)} after each"
            return said
        if isinstance(step, Clear):
            return f"the cards on the table go to {self.pile(step.pile)}'s discards"
        if isinstance(step, Discard):
            kept = self.order(step.best)
            return f"discard down to {self.cards(step.down_to)}, keeping the best ({kept})"
        if isinstance(step, Choose):
            said = (
                f"look at the top {step.look} of {self.pile(step.pile)}, keep one "
                f"({self.order(step.best)}) and put the rest on the bottom"
            )
            for gain in step.then:
                when = f" when the kept card is a {self.test(gain.when)}" if gain.when else ""
                rises = f"rises by {gain.amount} (at most {gain.cap})"
                said += f"; the {_words(gain.counter)} {rises}{when}"
            return said
        if isinstance(step, Income):
            gained = ", ".join(f"{self.count(n)} {r}" for r, n in step.gain.items())
            pool = self.procedure.pool
            cap = f" (at most {pool.cap} of each kept)" if pool else ""
            skip = (
                " (not on the first turn when going first)"
                if step.not_on_turn_1 and self.policy.get(step.not_on_turn_1)
                else ""
            )
            return f"gain {gained}{cap}{skip}"
        if isinstance(step, Rise):
            return ""  # told with Ascend, whose payment it completes
        if isinstance(step, Ascend):
            level = self.procedure.level
            need = level.need.stat if level else "level"
            cost = ", ".join(f"{self.count(n)} {r}" for r, n in level.cost.items()) if level else ""
            need = self.stats.get(need, _words(need))
            return (
                f"pay {cost} to rise one level (a card needs its {need}), from the next turn, "
                "whenever a card needs more and the resources allow, trading "
                f"{self.procedure.pool.trade if self.procedure.pool else 0} of one resource "
                "for one of another"
            )
        if isinstance(step, Playable):
            return "count the cards in hand that could be paid for and are allowed now"
        if isinstance(step, PlayLeaning):
            return (
                "play a card of the faction the cards in play lean to most, or draw from "
                f"{self.pile(step.pile)} when the hand has none"
            )
        if isinstance(step, Trim):
            return (
                f"keep at most {self.count(step.field)} cards in play and "
                f"{self.count(step.hand)} in hand (the others to the bottom of "
                f"{self.pile(step.pile)})"
            )
        if isinstance(step, StopWhen):
            return f"the game ends once {self.count(step.at_least)} cards in play share a faction"
        if isinstance(step, Tally | TallyFactions):
            return ""  # only counts for the figures
        if isinstance(step, Mark):
            return ""
        return ""

    def ignores(self) -> str:
        """What no step simulates: an opponent always, and what cards' text does, except the
        phrases a card test reads."""
        phrases = [
            str(facts["text"])
            for facts in self.procedure.test_facts.values()
            if isinstance(facts, Mapping) and "text" in facts
        ]
        read = (
            " (a card's text is read only for the phrase "
            + " or ".join(f"“{p}”" for p in phrases)
            + ", as above)"
            if phrases
            else ""
        )
        return (
            "Not simulated: an opponent and anything they do, and what cards' text and "
            f"abilities would do{read}; only the steps above are played."
        )

    def spreads(self) -> tuple[SpreadNote, ...]:
        """For each summary figure shown with a ±, what its spread is taken over."""
        kinds = {m.key: m for m in self.procedure.measures}
        notes = []
        for figure in self.procedure.summary:
            spread = figure.fields.get("spread")
            if not spread:
                continue
            measure = kinds.get(str(figure.fields.get("path", "")).split(".")[0])
            if measure is None:
                continue
            over = {
                "each": "every value the games recorded",
                "per_turn": "the games, one total per game for that " + self.turn_noun(),
                "per_game": "the games, one total per game",
                "per_name": "the games in which that card became playable",
            }.get(measure.kind, "the games")
            label = re.sub(r"\{\w+\}", "…", str(figure.fields.get("label", "")))
            notes.append(SpreadNote(label, over))
        return tuple(notes)


def _words(name: str) -> str:
    return name.replace("_", " ")
