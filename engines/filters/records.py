"""What the in-memory filter evaluator reads: card records, and the values that exist.

An `engines.rules.DeckCard` is a card record already (`FilterCard`); `CardRecord` adds the
facts only the catalogue holds (set, rarity, game). A `Schema` says which stats a query may
name and which types, factions, keywords, sets, rarities and games exist, as the catalogue's
tables tell the SQL compiler.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol


class StatSpec(Protocol):
    """What the evaluator reads of a stat: engines.base.StatField has it."""

    @property
    def key(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def kind(self) -> str: ...  # "integer" or "choice" (StatKind is a StrEnum)
    @property
    def choices(self) -> tuple[str, ...]: ...


class FilterCard(Protocol):
    """The facts every card record has; engines.rules.DeckCard and CardRecord both do.

    Types, subtypes, factions and keywords are names ("Planet"), compared as slugs."""

    @property
    def name(self) -> str: ...
    @property
    def card_type(self) -> str: ...  # "" for a card without a type
    @property
    def subtypes(self) -> tuple[str, ...]: ...
    @property
    def factions(self) -> tuple[str, ...]: ...
    @property
    def keywords(self) -> tuple[str, ...]: ...
    @property
    def stats(self) -> Mapping[str, object]: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class CardRecord:
    """One printing as the catalogue holds it, for the keys a deck's card cannot answer:
    its set (`s:`, `is:sample`), rarity (`r:`) and game (`game:`)."""

    key: str
    name: str
    card_type: str = ""
    subtypes: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    stats: Mapping[str, object] = field(default_factory=dict)
    text: str = ""
    set_code: str = ""
    official: bool = True
    rarity: str | None = None
    game: str = ""


@dataclass(frozen=True)
class Named:
    """A faction or keyword: `f:` and `kw:` also match its abbreviation."""

    name: str
    abbreviation: str = ""


@dataclass(frozen=True)
class SetInfo:
    code: str
    name: str
    official: bool = True


@dataclass(frozen=True)
class RarityInfo:
    name: str
    order: int  # higher is rarer; `r>=silver` compares on it


@dataclass(frozen=True)
class Schema:
    """The stats a query may name and the values that exist, for one game's cards.

    A vocabulary left None is unknown: values are matched against each card's own facts, and
    the keys that need it and that a deck's card cannot answer (`s:`, `r:`, `game:`,
    `is:sample`) are refused."""

    stats: tuple[StatSpec, ...] = ()
    types: tuple[str, ...] | None = None
    subtypes: tuple[str, ...] | None = None
    factions: tuple[Named, ...] | None = None
    keywords: tuple[Named, ...] | None = None
    sets: tuple[SetInfo, ...] | None = None
    rarities: tuple[RarityInfo, ...] | None = None
    games: tuple[str, ...] | None = None  # game slugs
