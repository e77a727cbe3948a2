"""TEMPORARY: the card filters the game files use, as Python predicates, until engines.filters
(the pure-Python evaluator of the site's query language) is merged.

A game file writes a card filter as query text (`planet_type:federation -!Earth`); `CardFilter`
holds that text, so rules and zones stay data (equal by their text, and picklable for the
checks cache). Until the evaluator lands, `matches` looks the text up in `_PREDICATES`, one
Python predicate per expression the game files use; a file naming any other expression is
refused by the loader (engines.gamefile). At merge, `matches` becomes
`engines.filters.parse(expression).match(card)` and this table goes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol


class CardRecord(Protocol):
    """What a filter may look at: the facts engines.rules.DeckCard carries."""

    @property
    def name(self) -> str: ...
    @property
    def card_type(self) -> str: ...
    @property
    def factions(self) -> tuple[str, ...]: ...
    @property
    def keywords(self) -> tuple[str, ...]: ...
    @property
    def stats(self) -> Mapping[str, object]: ...


# 8.1 Types of Card Effects (Tactics): "There are five types of effects on player cards".
_EFFECT_TYPES = frozenset(
    {"Permanent Effect", "Special Effect", "Scoring Effect", "One-time Effect", "No Effect"}
)
_TACTICS_PLAYER_TYPES = frozenset({"Ship", "Tech", "Weapon", "Action", "Troops"})
_EFFECT_TYPE_TERMS = (
    'kw:"permanent effect" or kw:"special effect" or kw:"scoring effect" or '
    'kw:"one-time effect" or kw:"no effect"'
)


def _has_effect_type(card: CardRecord) -> bool:
    return bool(_EFFECT_TYPES.intersection(card.keywords))


_PREDICATES: dict[str, Callable[[CardRecord], bool]] = {
    "planet_type:federation -!Earth": lambda card: (
        card.stats.get("planet_type") == "federation" and card.name != "Earth"
    ),
    "t:ship or t:tech or t:weapon or t:action or t:troops or " + _EFFECT_TYPE_TERMS: lambda card: (
        card.card_type in _TACTICS_PLAYER_TYPES or _has_effect_type(card)
    ),
    # A faction deck's card: the game has these four factions (3 Game Components).
    "f:starfleet or f:vulcan or f:romulan or f:klingon or "
    + _EFFECT_TYPE_TERMS
    + " or !Teleporter": lambda card: (
        bool(card.factions) or _has_effect_type(card) or card.name == "Teleporter"
    ),
}


def supported(expression: str) -> bool:
    return expression in _PREDICATES


def matches(expression: str, card: CardRecord) -> bool:
    return _PREDICATES[expression](card)


@dataclass(frozen=True)
class CardFilter:
    """A card filter written in the site's query language: called with a card, whether it
    matches. Equal by its text, so an engine built from a file compares as data."""

    expression: str

    def __call__(self, card: CardRecord) -> bool:
        return matches(self.expression, card)
