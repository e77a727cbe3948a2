"""The vocabulary every game engine is written in.

An engine describes one game as plain data: the stats its cards carry, its card
types and the zones a deck is split into. Nothing here knows about Django, so
the same rules run in the web site, the API, the command line and the tests.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


def slugify(value: str) -> str:
    """A URL-safe slug, folded to ASCII so that "D'Deridex" and "Lovers, The" stay readable."""
    ascii_value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    ascii_value = ascii_value.replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", ascii_value.lower()).strip("-")


class StatKind(StrEnum):
    INTEGER = "integer"
    CHOICE = "choice"


@dataclass(frozen=True)
class StatField:
    """One typed stat, under the name players use for it."""

    key: str
    label: str
    kind: StatKind
    help: str
    aliases: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def problem_with(self, value: object) -> str | None:
        """Why `value` cannot be stored under this stat, or None when it can."""
        if self.kind is StatKind.INTEGER:
            # bool is an int subclass in Python; a stat of `true` is a data error.
            if isinstance(value, bool) or not isinstance(value, int):
                return f"expected a whole number, got {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}, got {value}"
            if self.maximum is not None and value > self.maximum:
                return f"must be at most {self.maximum}, got {value}"
            return None
        if not isinstance(value, str) or value not in self.choices:
            return f"expected one of {', '.join(self.choices)}, got {value!r}"
        return None

    def coerce(self, raw: str) -> object:
        """Read a stat from text (a CSV cell or a form field); the result still needs checking."""
        raw = raw.strip()
        if self.kind is StatKind.INTEGER:
            try:
                return int(raw)
            except ValueError:
                return raw
        return raw.lower()


@dataclass(frozen=True)
class CardTypeSpec:
    """A card type. `zone` is the deck zone it goes in, or None for cards never put in a deck."""

    name: str
    zone: str | None
    source: str
    description: str = ""

    @property
    def slug(self) -> str:
        return slugify(self.name)


@dataclass(frozen=True)
class Zone:
    slug: str
    name: str
    description: str


@dataclass(frozen=True)
class StatError:
    field: str
    message: str

    def __str__(self) -> str:
        return f"stats.{self.field}: {self.message}"


@dataclass(frozen=True)
class GameEngine:
    slug: str
    name: str
    rulebook: str
    stats: tuple[StatField, ...]
    card_types: tuple[CardTypeSpec, ...]
    zones: tuple[Zone, ...]
    _stats_by_key: dict[str, StatField] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_stats_by_key", {s.key: s for s in self.stats})
        zone_slugs = {z.slug for z in self.zones}
        for card_type in self.card_types:
            if card_type.zone is not None and card_type.zone not in zone_slugs:
                raise ValueError(
                    f"{self.slug}: {card_type.name} names unknown zone {card_type.zone}"
                )

    def stat(self, key: str) -> StatField | None:
        return self._stats_by_key.get(key)

    def card_type(self, name_or_slug: str) -> CardTypeSpec | None:
        wanted = slugify(name_or_slug)
        return next((t for t in self.card_types if t.slug == wanted), None)

    def validate_stats(self, stats: Mapping[str, object]) -> list[StatError]:
        """Every problem with a card's stats, each naming its field; empty when they are valid."""
        errors: list[StatError] = []
        for key, value in stats.items():
            spec = self._stats_by_key.get(key)
            if spec is None:
                known = ", ".join(self._stats_by_key) or "none"
                errors.append(StatError(key, f"unknown stat for {self.name} (known: {known})"))
            elif value is not None and (problem := spec.problem_with(value)):
                errors.append(StatError(key, problem))
        return errors
