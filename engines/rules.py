"""Deck construction rules as data: a small vocabulary every game's formats are written in.

A format is a list of rules; each rule names the rulebook passage it comes from and whether
breaking it makes the deck illegal (an error) or only deserves a mention (a warning).
Rules see a deck as plain values (DeckCard), so they run the same in the web site, the API
and the tests, and know nothing of Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class DeckCard:
    """One entry of a deck: a card (with the facts rules look at), how many, and where."""

    key: str
    name: str
    card_type: str
    zone: str
    quantity: int
    factions: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    stats: Mapping[str, object] = field(default_factory=dict)
    text: str = ""
    # Facts the card's source does not give, by field ("factions"): a rule over them cannot
    # check the card, and says so rather than passing it.
    unstated: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deck:
    cards: tuple[DeckCard, ...]
    faction: str | None = None

    def zone(self, zone: str | None) -> list[DeckCard]:
        return [c for c in self.cards if zone is None or c.zone == zone]

    def count(self, zone: str | None = None) -> int:
        return sum(c.quantity for c in self.zone(zone))


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    message: str
    cards: tuple[str, ...] = ()
    source: str = ""
    # Where a problem comes from a decklist's line (an unknown name, an unreadable line).
    line: int | None = None
    lines: tuple[int, ...] = ()
    suggestions: tuple[str, ...] = ()

    def sort_key(self) -> tuple[bool, bool, int, str, str]:
        """Errors first, then by line number (as a number; problems of no line last), code."""
        return (
            self.severity != Severity.ERROR,
            self.line is None,
            self.line or 0,
            self.code,
            self.message,
        )


def _names(cards: Iterable[DeckCard], limit: int = 8) -> str:
    names = sorted({c.name for c in cards})
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _where(zone: str | None) -> str:
    return f"the {zone} zone" if zone else "the deck"


@dataclass(frozen=True)
class Rule:
    source: str
    severity: Severity = Severity.ERROR

    @property
    def kind(self) -> str:
        return type(self).__name__

    def describe(self) -> str:
        raise NotImplementedError

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        """The rule as a sentence of its own, for a page listing a format's rules (describe()
        is a phrase that problem messages are built from). `settings` are the format's values,
        for a rule that reads one."""
        return _capital(self.describe()) + "."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        raise NotImplementedError

    def problem(self, code: str, message: str, cards: Iterable[DeckCard] = ()) -> Problem:
        return Problem(
            code, self.severity, message, tuple(sorted({c.name for c in cards})), self.source
        )

    def as_dict(self, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        params = {k: v for k, v in self.__dict__.items() if k not in ("source", "severity")}
        params = {
            k: list(v) if isinstance(v, tuple) else v for k, v in params.items() if not callable(v)
        }
        return {
            "kind": self.kind,
            "description": self.describe(),
            "sentence": self.sentence(settings),
            "severity": str(self.severity),
            "source": self.source,
            "params": params,
        }


@dataclass(frozen=True)
class ZoneSize(Rule):
    """How many cards a zone (or the whole deck, zone None) holds: exactly, at least, at most.

    `setting` names a format setting that supplies `exactly` where the rulebook is silent and
    an admin decides (a setting left empty checks nothing).
    """

    zone: str | None = None
    exactly: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    setting: str | None = None
    code: str = "zone_size"
    label: str = "the deck"

    def describe(self) -> str:
        if self.setting:
            return f"{self.label} holds the number of cards the '{self.setting}' setting gives"
        if self.exactly is not None:
            return f"{self.label} holds exactly {self.exactly} cards"
        bounds = []
        if self.minimum is not None:
            bounds.append(f"at least {self.minimum}")
        if self.maximum is not None:
            bounds.append(f"at most {self.maximum}")
        return f"{self.label} holds {' and '.join(bounds)} cards"

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        if not self.setting:
            return super().sentence(settings)
        name = self.setting.replace("_", " ")
        value = (settings or {}).get(self.setting)
        if value is None:
            return (
                f"{_capital(self.label)} holds the number of cards the site's {name} setting "
                "gives; that setting is empty, so any number passes."
            )
        return f"{_capital(self.label)} holds exactly {value} cards (the site's {name} setting)."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        exactly = settings.get(self.setting) if self.setting else self.exactly
        n = deck.count(self.zone)
        label = self.label[0].upper() + self.label[1:]
        if exactly is not None and n != exactly:
            gap = f"{exactly - n} short" if n < exactly else f"{n - exactly} too many"
            return [
                self.problem(
                    self.code,
                    f"{label} has {_plural(n, 'card')}; it must have exactly {exactly} ({gap}).",
                )
            ]
        if self.minimum is not None and n < self.minimum:
            return [
                self.problem(
                    self.code,
                    f"{label} has {_plural(n, 'card')}; it needs at "
                    f"least {self.minimum} ({self.minimum - n} short).",
                )
            ]
        if self.maximum is not None and n > self.maximum:
            return [
                self.problem(
                    self.code,
                    f"{label} has {_plural(n, 'card')}; it may have at "
                    f"most {self.maximum} ({n - self.maximum} too many).",
                )
            ]
        return []


@dataclass(frozen=True)
class CopyLimit(Rule):
    """At most `maximum` copies of any one card (by name) in `zone` (None: the whole deck).
    `maximum` 1 is a singleton rule and reports the code `singleton`."""

    maximum: int = 1
    zone: str | None = None

    def describe(self) -> str:
        where = f"the {self.zone} zone" if self.zone else "the deck"
        return (
            "each card at most once in " + where
            if self.maximum == 1
            else f"at most {self.maximum} copies of a card in {where}"
        )

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        where = _where(self.zone)
        if self.maximum == 1:
            return f"Each card appears at most once in {where}."
        return f"No card appears more than {self.maximum} times in {where}."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        copies: Counter[str] = Counter()
        cards: dict[str, DeckCard] = {}
        for card in deck.zone(self.zone):
            copies[card.name] += card.quantity
            cards[card.name] = card
        code = "singleton" if self.maximum == 1 else "copy_limit"
        return [
            self.problem(
                code,
                f"{name} appears {n} times; {self.describe()} ({n - self.maximum} too many).",
                [cards[name]],
            )
            for name, n in sorted(copies.items())
            if n > self.maximum
        ]


@dataclass(frozen=True)
class OneFaction(Rule):
    """Every card belongs to the deck's faction; cards of no faction pass if `neutral_allowed`.

    `note` ends every message, so a rule kept only as a warning can say why it is not an error.
    """

    neutral_allowed: bool = True
    zone: str | None = None
    label: str = "faction"
    note: str = ""

    def describe(self) -> str:
        extra = ", plus cards of none" if self.neutral_allowed else ""
        return f"one {self.label}{extra}"

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        extra = f", or of no {self.label}" if self.neutral_allowed else ""
        return f"Every card in {_where(self.zone)} is of the deck's one {self.label}{extra}."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        # A card whose faction is not given is neither of the deck's nor of none: it is named
        # in a warning of its own instead of passing or failing unseen.
        unknown = [c for c in deck.zone(self.zone) if "factions" in c.unstated]
        cards = [c for c in deck.zone(self.zone) if "factions" not in c.unstated]
        return [*self._mismatches(deck, cards), *map(self._not_given, unknown)]

    def _not_given(self, card: DeckCard) -> Problem:
        return Problem(
            "faction_not_given",
            Severity.WARNING,
            f"{card.name}: its {self.label} is not given, so the one-{self.label} rule "
            "cannot be checked for it.",
            (card.name,),
            self.source,
        )

    def _mismatches(self, deck: Deck, cards: list[DeckCard]) -> list[Problem]:
        if deck.faction is None:
            factions = {f for c in cards for f in c.factions}
            if len(factions) > 1:
                return [
                    self.problem(
                        "faction_mismatch",
                        f"The deck mixes {len(factions)} "
                        f"{self.label}s ({', '.join(sorted(factions))}); it may "
                        f"have only one.{self._note()}",
                        cards,
                    )
                ]
            return []
        strays = [
            c
            for c in cards
            if deck.faction not in c.factions and (c.factions or not self.neutral_allowed)
        ]
        if not strays:
            return []
        n = sum(c.quantity for c in strays)
        return [
            self.problem(
                "faction_mismatch",
                f"{_plural(n, 'card')} not of the deck's "
                f"{self.label} {deck.faction}: {_names(strays)}.{self._note()}",
                strays,
            )
        ]

    def _note(self) -> str:
        return f" {self.note}" if self.note else ""


@dataclass(frozen=True)
class CardLimit(Rule):
    """At most `maximum` cards that have `keyword` or are of `card_type` in the deck."""

    maximum: int = 1
    keyword: str | None = None
    card_type: str | None = None

    def describe(self) -> str:
        what = self.keyword or self.card_type
        return f"at most {self.maximum} {what} card{'s' if self.maximum != 1 else ''}"

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        return f"The deck holds {self.describe()}."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        if self.keyword:
            matching = [c for c in deck.cards if self.keyword in c.keywords]
            code, what = "attribute_limit", self.keyword
        else:
            matching = [c for c in deck.cards if c.card_type == self.card_type]
            code, what = "type_limit", str(self.card_type)
        n = sum(c.quantity for c in matching)
        if n <= self.maximum:
            return []
        return [
            self.problem(
                code,
                f"The deck has {n} {what} cards ({_names(matching)}); it may "
                f"have at most {self.maximum} ({n - self.maximum} too many).",
                matching,
            )
        ]


@dataclass(frozen=True)
class TypesNotAllowed(Rule):
    types: tuple[str, ...] = ()
    zone: str | None = None

    def describe(self) -> str:
        where = f" in the {self.zone} zone" if self.zone else ""
        listed = " or ".join(
            [", ".join(self.types[:-1]), self.types[-1]] if len(self.types) > 1 else self.types
        )
        return f"no {listed} cards{where}"

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        listed = self.describe().removesuffix(f" in the {self.zone} zone")
        return f"{_capital(_where(self.zone))} holds {listed}."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        strays = [c for c in deck.zone(self.zone) if c.card_type in self.types]
        if not strays:
            return []
        return [
            self.problem(
                "type_not_allowed",
                f"{_names(strays)}: {self.describe()} may be in this deck.",
                strays,
            )
        ]


@dataclass(frozen=True)
class CardsNotAllowed(Rule):
    """Cards this format removes: those `names` names (cards the rulebook names without
    a type to remove them by, or lists by name), and those a predicate over the card picks
    (e.g. the Short Game's blue targets)."""

    # None, not a lambda: rules travel inside check results through the cache, and a
    # lambda cannot be pickled.
    excluded: Callable[[DeckCard], bool] | None = None
    names: frozenset[str] = frozenset()
    what: str = ""

    def describe(self) -> str:
        return f"without {self.what}"

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        return f"This format is played {self.describe()}."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        strays = [
            c
            for c in deck.cards
            if c.name in self.names or (self.excluded is not None and self.excluded(c))
        ]
        if not strays:
            return []
        return [
            self.problem(
                "card_not_allowed",
                f"{_names(strays)}: this format is played {self.describe()}.",
                strays,
            )
        ]


@dataclass(frozen=True)
class NotEmpty(Rule):
    """A deck holds at least one card. Every format has this rule (Format adds it), so a format
    whose other rules set no minimum (no deck size given) still refuses an empty deck."""

    def describe(self) -> str:
        return "at least one card"

    def sentence(self, settings: Mapping[str, Any] | None = None) -> str:
        return "The deck holds at least one card."

    def check(self, deck: Deck, settings: Mapping[str, Any]) -> list[Problem]:
        if deck.count():
            return []
        return [
            self.problem(
                "empty_deck", "The deck has no cards; a game cannot be played without a deck."
            )
        ]


NOT_EMPTY = NotEmpty(
    source="Setup, in every rulebook: play begins by shuffling the deck and drawing or dealing "
    "cards from it, so a game cannot be played with no deck"
)


@dataclass(frozen=True)
class FormatSetting:
    key: str
    label: str
    default: int | None
    help: str


@dataclass(frozen=True)
class Format:
    slug: str
    name: str
    description: str
    rules: tuple[Rule, ...]
    needs_faction: bool = False
    settings: tuple[FormatSetting, ...] = ()

    def __post_init__(self) -> None:
        # Here rather than in each game's list, so no format can forget it.
        if not any(isinstance(rule, NotEmpty) for rule in self.rules):
            object.__setattr__(self, "rules", (NOT_EMPTY, *self.rules))

    def default_settings(self) -> dict[str, Any]:
        return {s.key: s.default for s in self.settings}

    def validate(self, deck: Deck, settings: Mapping[str, Any] | None = None) -> list[Problem]:
        values = {**self.default_settings(), **(settings or {})}
        problems = [p for rule in self.rules for p in rule.check(deck, values)]
        return sorted(problems, key=Problem.sort_key)


def infer_faction(cards: Iterable[DeckCard]) -> str | None:
    """The one faction every faction-bearing card shares, or the most common one, or None."""
    counts: Counter[str] = Counter()
    for card in cards:
        for faction in card.factions:
            counts[faction] += card.quantity
    if not counts:
        return None
    (best, n), *rest = counts.most_common()
    return None if rest and rest[0][1] == n else best
