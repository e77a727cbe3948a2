"""The vocabulary every game engine is written in.

An engine describes one game as plain data: the stats its cards carry, its card
types and the zones a deck is split into. Nothing here knows about Django, so
the same rules run in the web site, the API, the command line and the tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engines.filters.text import slugify as slugify
from engines.hands import HandRules
from engines.integers import STAT_MAX as STAT_MAX
from engines.integers import STAT_MIN as STAT_MIN
from engines.rules import Format, ZoneSize


@dataclass(frozen=True)
class HandOdds:
    """An exact chance, in words, and the simulation summary's key for the same chance."""

    label: str
    exact: float
    summary_key: str | None = None


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
            if not STAT_MIN <= value <= STAT_MAX:
                return f"must be between {STAT_MIN:,} and {STAT_MAX:,}, got {value}"
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


# The motifs a card back may carry behind the game's name. Named here, so that an engine with
# a misspelt one fails at import; cardsite.catalogue.faces.back draws each (and checks it can).
BACK_PATTERNS = ("stars", "rings", "hexes", "chevrons", "waves", "rays")
_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True)
class CardBack:
    """The back printed on the game's proxies and shown in Tabletop Simulator: the site's own
    design (the game's name, two colours and a QR code to the game's page), never presented
    as the publisher's back."""

    # Field and accent colours (#RRGGBB): the site's choice for the game, not a card fact.
    colours: tuple[str, str] = ("#1D2330", "#C9A227")
    # The motif behind the name, one of BACK_PATTERNS.
    pattern: str = "stars"

    def __post_init__(self) -> None:
        # A typo would otherwise print every proxy's back in the drawing's fallback grey.
        colours = self.colours
        if len(colours) != 2 or not all(
            isinstance(c, str) and _HEX_COLOUR.fullmatch(c) for c in colours
        ):
            raise ValueError(f"a card back takes two #RRGGBB colours, got {colours!r}")
        if self.pattern not in BACK_PATTERNS:
            raise ValueError(
                f"unknown card back pattern {self.pattern!r}; known: {', '.join(BACK_PATTERNS)}"
            )


@dataclass(frozen=True)
class FaceLayout:
    """Where a generated card face prints each stat, following the rulebook's card anatomy.

    Stats are named by key; a card lacking one simply shows nothing there. Pairs of
    (stat key, text) stand in for mappings so the engine stays hashable.
    """

    # Printed large in the top corner beside the name (costs, a card's main value).
    corner_stats: tuple[str, ...] = ()
    # Printed in a row along the bottom of the text box (unit stats, battle bonuses).
    footer_stats: tuple[str, ...] = ()
    # Whole numbers drawn as that many stars (a star rating).
    star_stats: tuple[str, ...] = ()
    # Choice stats written out on the type line ("Alpha", "Passive").
    tag_stats: tuple[str, ...] = ()
    # Short symbols printed next to a stat's value; the StatField label is used otherwise.
    stat_symbols: tuple[tuple[str, str], ...] = ()
    # Fill colours (#RRGGBB) of a stat's disc; the card's faction colour otherwise.
    stat_colours: tuple[tuple[str, str], ...] = ()
    # Card types printed as horizontal (landscape) cards.
    landscape_types: tuple[str, ...] = ()
    # Keyword kinds shown as a badge on the type line (by abbreviation when they have one).
    badge_keyword_kinds: tuple[str, ...] = ()
    # Keyword kinds that open the rules text in bold, as an ability's trigger does.
    lead_keyword_kinds: tuple[str, ...] = ()
    # Whether the faction's abbreviation is printed as a badge (one letter per faction).
    faction_badge: bool = False
    # The back of every card of the game. Left out of repr (which a face's version hashes),
    # so a new back design does not redraw every face.
    back: CardBack = field(default=CardBack(), repr=False)

    def symbol(self, key: str) -> str | None:
        return dict(self.stat_symbols).get(key)

    def colour(self, key: str) -> str | None:
        return dict(self.stat_colours).get(key)

    def stat_keys(self) -> set[str]:
        pairs = {key for key, _ in (*self.stat_symbols, *self.stat_colours)}
        return {*self.corner_stats, *self.footer_stats, *self.star_stats, *self.tag_stats, *pairs}


class ChartKind(StrEnum):
    # Cards per value of one or more whole-number stats, a series per stat.
    CURVE = "curve"
    TYPES = "types"
    FACTIONS = "factions"


@dataclass(frozen=True)
class ChartSpec:
    """One chart a deck of the game shows, counting copies of cards."""

    kind: ChartKind
    title: str
    # What the categories are ("Tier", "Suit"); for factions it also names the cards of none
    # ("No suit").
    axis: str
    # CURVE: the stats, one series each, drawn side by side.
    stats: tuple[str, ...] = ()
    # CURVE: a card whose value is 0 is left off that stat's series, where 0 means "does not
    # use it" (a cost in a colour the card does not need) and would dwarf the real curve.
    skip_zero: bool = False

    @property
    def slug(self) -> str:
        return slugify(self.title)


def curve(title: str, *stats: str, axis: str = "", skip_zero: bool = False) -> ChartSpec:
    return ChartSpec(ChartKind.CURVE, title, axis or title, stats, skip_zero)


def by_type(title: str = "Cards by type", axis: str = "Type") -> ChartSpec:
    return ChartSpec(ChartKind.TYPES, title, axis)


def by_faction(title: str = "Cards by faction", axis: str = "Faction") -> ChartSpec:
    return ChartSpec(ChartKind.FACTIONS, title, axis)


@dataclass(frozen=True)
class ResultChart:
    """How a page draws one chart of the game's goldfish answer (its `charts[key]`).

    A chart that is a list or a mapping of parts (one histogram per battle, per card type) is
    drawn once per part, `{part}` in the titles standing for the part's number or name."""

    key: str
    title: str
    x: str
    y: str = "Games"
    # The values are shares of games (0 to 1), shown as percentages.
    share: bool = False
    # For a chart of means: the key in `charts` of the same-shaped standard deviations, drawn
    # as a spread around each mean and written beside it in the table ("2.31 ± 0.84").
    spread: str | None = None


@dataclass(frozen=True)
class SummaryFigure:
    """One row of a goldfish answer's summary table, in the game's own words.

    `path` is dotted into the answer's `summary` ("total_cq.mean"); a `*` in it runs over a
    list's items or a mapping's keys (one row each, `{part}` in the label standing for the
    item's number or the key). `exact` names a HandOdds `summary_key` whose closed-form value
    is shown beside the simulated one."""

    path: str
    label: str
    # "share": 0 to 1, shown as a percentage; "mean": shown with its `spread` (a standard
    # deviation at that dotted path) if given; "number" and "count" as they are.
    unit: str = "number"
    spread: str | None = None
    exact: str | None = None


@dataclass(frozen=True)
class SearchExample:
    """A worked example on the search syntax page, in the game's own terms."""

    query: str
    meaning: str


@dataclass(frozen=True)
class GameEngine:
    slug: str
    name: str
    rulebook: str
    stats: tuple[StatField, ...]
    card_types: tuple[CardTypeSpec, ...]
    zones: tuple[Zone, ...]
    face: FaceLayout = FaceLayout()
    formats: tuple[Format, ...] = ()
    # The game's main number (CQ, Tier, combat power, attack): what the builder can group a
    # deck by and a deck's picture orders cards by; None: the game has none. One stat, where
    # `charts` may draw several (three costs beside a tier).
    chart_stat: str | None = None
    # The stats a compact row (a builder result, a deck row) shows beside a card's name, in
    # this order: the numbers a player weighs when picking the card, not every stat it has.
    key_stats: tuple[str, ...] = ()
    # The charts a deck shows: the game's main numbers, counts by type and by faction.
    charts: tuple[ChartSpec, ...] = ()
    # goldfish(cards, *, runs, seed, policy) -> {"summary", "charts"}, and its policy knobs.
    goldfish: Callable[..., dict[str, Any]] | None = field(default=None, compare=False)
    goldfish_policy: tuple[Any, ...] = ()
    # How each chart of a goldfish answer is titled; a chart not named here gets its key.
    goldfish_charts: tuple[ResultChart, ...] = ()
    # The rows of a goldfish answer's summary table, in order.
    goldfish_summary: tuple[SummaryFigure, ...] = ()
    # policy -> engines.procedure.describe.Description: what one simulated game does, in
    # words, told from the declared procedure with the policy's values.
    goldfish_description: Callable[..., Any] | None = field(default=None, compare=False)
    # The straightforward per-game loop the product's (vectorised) `goldfish` must agree with,
    # statistically: kept for the tests and the benchmark, never called by the site.
    goldfish_reference: Callable[..., dict[str, Any]] | None = field(default=None, compare=False)
    # The CPU one game at the default policy costs, in units of work: one unit is a default
    # game of the unit procedure's per-game reference loop (engines/procedure/unit.toml; about
    # 53,000 a second on one core here, 2026-11-23). It weighs the runs a request may simulate
    # inside a web request before it must become a background job, and the time the goldfish
    # page estimates.
    # (goldfish_cost below: the written figure, or a declared procedure's measured one.)
    goldfish_cost_written: float = 1.0
    # A declared procedure's cost, measured (engines.procedure.cost) the first time it is
    # asked for; None: the cost as written.
    goldfish_measured: Callable[[], float] | None = field(default=None, compare=False)
    # The zone of a card whose type the rulebook does not state, from its factions; None:
    # the game's first zone.
    # Called with the card's factions, keywords and name.
    untyped_zone: Callable[[tuple[str, ...], tuple[str, ...], str], str] | None = field(
        default=None, compare=False
    )
    # What a card of no faction is called where the rulebook gives it a meaning (cards
    # without a race icon that fit any deck); None: such cards get no label.
    unaligned_label: str | None = None
    # Where the official cards come only from a rulebook that never gives their factions
    # (one that names its cards but not their race icons), an official card listing none has
    # a faction that is not given, never "no faction": these words stand for it on its page,
    # and the one-faction rule warns that it cannot check the card. None: an official card of
    # no faction has none.
    official_factions_not_given: str | None = None
    # How a hand is dealt, refilled and mulliganed (engines.hands); None: the game has none.
    hand: HandRules | None = None
    # odds(cards, policy) -> exact chances worth showing beside a hand or a simulation.
    odds: Callable[..., list[HandOdds]] | None = field(default=None, compare=False)
    # The table a player playtests on by hand (engines.playtest): zones, opening, steps, moves.
    table: Any = field(default=None, compare=False)
    # Worked searches for the syntax page (a test runs each against the loaded cards).
    examples: tuple[SearchExample, ...] = ()
    _stats_by_key: dict[str, StatField] = field(init=False, repr=False, compare=False)

    @property
    def goldfish_cost(self) -> float:
        """What one default game of its goldfish costs, in the site's units of work."""
        if self.goldfish_measured is not None:
            return self.goldfish_measured()
        return self.goldfish_cost_written

    def __post_init__(self) -> None:
        object.__setattr__(self, "_stats_by_key", {s.key: s for s in self.stats})
        zone_slugs = {z.slug for z in self.zones}
        for card_type in self.card_types:
            if card_type.zone is not None and card_type.zone not in zone_slugs:
                raise ValueError(
                    f"{self.slug}: {card_type.name} names unknown zone {card_type.zone}"
                )
        # A misspelt key in a layout would silently print nothing on every face.
        unknown = self.face.stat_keys() - set(self._stats_by_key)
        if unknown:
            raise ValueError(f"{self.slug}: face layout names unknown stats {sorted(unknown)}")
        named = {*self.key_stats, *([self.chart_stat] if self.chart_stat else [])}
        if stray_stats := named - set(self._stats_by_key):
            raise ValueError(
                f"{self.slug}: key or chart stats name unknown stats {sorted(stray_stats)}"
            )
        type_names = {t.name for t in self.card_types}
        if stray := set(self.face.landscape_types) - type_names:
            raise ValueError(f"{self.slug}: face layout names unknown card types {sorted(stray)}")
        self._check_charts()

    def _check_charts(self) -> None:
        # A misspelt stat would draw an empty chart on every deck page, and two charts of one
        # title would share an element id.
        if len({c.slug for c in self.charts}) != len(self.charts):
            raise ValueError(f"{self.slug}: two charts share a title")
        for chart in self.charts:
            wanted = bool(chart.stats) if chart.kind is ChartKind.CURVE else not chart.stats
            if not wanted:
                raise ValueError(f"{self.slug}: chart {chart.title!r} has the wrong stats")
            for key in chart.stats:
                spec = self._stats_by_key.get(key)
                if spec is None or spec.kind is not StatKind.INTEGER:
                    raise ValueError(f"{self.slug}: chart {chart.title!r}: {key} is no number")

    @property
    def max_deck_cards(self) -> int:
        """The most cards a deck of this game may hold at all: twice the largest deck any of its
        formats names (exact, minimum or maximum sizes, summed over zones), and never under
        100. Past it a deck is refused before it is checked: no format could use it."""
        largest = 0
        for fmt in self.formats:
            sizes: dict[str | None, int] = {}
            for rule in fmt.rules:
                if isinstance(rule, ZoneSize):
                    named = [rule.exactly, rule.minimum, rule.maximum]
                    size = max((n for n in named if n is not None), default=0)
                    sizes[rule.zone] = max(sizes.get(rule.zone, 0), size)
            whole = sizes.pop(None, 0)
            largest = max(largest, whole, sum(sizes.values()))
        return max(100, 2 * largest)

    def zone_for(
        self,
        card_type: str | None,
        factions: tuple[str, ...],
        keywords: tuple[str, ...] = (),
        name: str = "",
    ) -> str:
        """The zone a card goes in when a decklist does not say."""
        spec = self.card_type(card_type) if card_type else None
        if spec is not None and spec.zone is not None:
            return spec.zone
        if card_type is None and self.untyped_zone is not None:
            return self.untyped_zone(factions, keywords, name)
        return self.zones[0].slug

    def factions_not_given(self, *, official: bool, factions: tuple[str, ...]) -> bool:
        """Whether a card's faction is not given, rather than none (official_factions_not_given)."""
        return self.official_factions_not_given is not None and official and not factions

    def stat(self, key: str) -> StatField | None:
        return self._stats_by_key.get(key)

    def format(self, slug: str) -> Format | None:
        return next((f for f in self.formats if f.slug == slug), None)

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
