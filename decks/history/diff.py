"""What differs between two states of a deck (two versions, or a variant and its parent),
and between two decks of one game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardsite.cardlists.snapshot import GameSnapshot
from decks.services.history import MAYBE, DeckState, setting_changes


@dataclass(frozen=True)
class CardLine:
    """One card in one zone, with its quantity on each side (0: absent there)."""

    short_id: str
    zone: str
    before: int
    after: int
    # Its name today; the short id if the catalogue no longer has it.
    name: str
    url: str | None

    @property
    def step(self) -> int:
        return self.after - self.before

    @property
    def planned(self) -> bool:
        return self.zone == MAYBE

    def sentence(self) -> str:
        """For example "+1 Osiris (2 → 3)", "+2 Osiris" or, with a minus sign, "-3 Osiris"."""
        sign = "+" if self.step > 0 else "\u2212"
        where = " (planned)" if self.planned else ""
        if self.before and self.after:
            return f"{sign}{abs(self.step)} {self.name}{where} ({self.before} \u2192 {self.after})"
        return f"{sign}{abs(self.step)} {self.name}{where}"


def card_line(snap: GameSnapshot, short_id: str, zone: str, before: int, after: int) -> CardLine:
    card = snap.cards.get(short_id)
    return CardLine(
        short_id,
        zone,
        before,
        after,
        card.name if card else short_id,
        card.get_absolute_url() if card else None,
    )


@dataclass(frozen=True)
class Diff:
    added: tuple[CardLine, ...]
    removed: tuple[CardLine, ...]
    changed: tuple[CardLine, ...]
    settings: Mapping[str, list[Any]]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.settings)

    def lines(self) -> tuple[CardLine, ...]:
        return self.added + self.changed + self.removed


def lines_of(snap: GameSnapshot, changes: list[list[Any]]) -> Diff:
    """A recorded version's changes ([short_id, zone, before, after] each) as a Diff."""
    lines = sorted(
        (card_line(snap, s, z, b, a) for s, z, b, a in changes),
        key=lambda line: (line.planned, line.name, line.zone),
    )
    return Diff(
        added=tuple(line for line in lines if not line.before),
        removed=tuple(line for line in lines if not line.after),
        changed=tuple(line for line in lines if line.before and line.after),
        settings={},
    )


def diff_states(snap: GameSnapshot, before: DeckState, after: DeckState) -> Diff:
    keys = set(before.cards) | set(after.cards)
    changes = [
        [s, z, before.cards.get((s, z), 0), after.cards.get((s, z), 0)]
        for s, z in keys
        if before.cards.get((s, z), 0) != after.cards.get((s, z), 0)
    ]
    diff = lines_of(snap, changes)
    return Diff(
        diff.added, diff.removed, diff.changed, setting_changes(before.settings, after.settings)
    )


@dataclass(frozen=True)
class Comparison:
    """Two decks' cards (not their planned ones): in both, with each quantity, and in one."""

    both: tuple[CardLine, ...]
    only_a: tuple[CardLine, ...]
    only_b: tuple[CardLine, ...]


def compare_states(snap: GameSnapshot, a: DeckState, b: DeckState) -> Comparison:
    cards_a, cards_b = a.deck_cards(), b.deck_cards()
    lines = sorted(
        (
            card_line(snap, s, z, cards_a.get((s, z), 0), cards_b.get((s, z), 0))
            for s, z in set(cards_a) | set(cards_b)
        ),
        key=lambda line: (line.name, line.zone),
    )
    return Comparison(
        both=tuple(line for line in lines if line.before and line.after),
        only_a=tuple(line for line in lines if not line.after),
        only_b=tuple(line for line in lines if not line.before),
    )
