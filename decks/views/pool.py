"""The builder's card pool: the deck's game's cards (or a query's matches) a page at a time,
and the filter chips, ranges and sorts that edit the query's text.

The query language stays the one source of truth: a chip is a term of it (`t:ship`,
`f:starfleet`, `cq>=2`, `is:owned`, `-is:sample`, `order:cq`), and choosing one edits the
query's text. Without JavaScript a chip is a link to the same builder with its term toggled;
a range or a sort is a field of the search form, folded into the query on the server.
Everything offered comes from the game: its card types, stats and charts from the engine,
its factions and keywords from its catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from decks.models import Deck
from decks.reading.pool import game_classifications
from decks.views.panel import Choices
from engines.base import ChartKind, GameEngine, StatField, StatKind
from engines.filters.keys import OWNED_WORD

# Cards a pool page shows, and the highest page number it reads (5 digits): past the last
# page the last one is shown; a page that is not a whole number from 1 to POOL_PAGE_MAX is
# a 400 naming the limit.
POOL_PAGE = 60
POOL_PAGE_MAX = 99_999

# A query's words: a quoted phrase (with its key or ! before it) stays one word.
WORD = re.compile(r'\S*"[^"]*"\S*|\S+')
# Range inputs and sort choices of the search form without JavaScript (pool.js takes the
# names off and writes the terms itself).
MIN_PREFIX = "min-"
MAX_PREFIX = "max-"
RANGE_VALUE = re.compile(r"-?[0-9]{1,6}")
SORT_DIRS = ("asc", "desc")


def words(q: str) -> list[str]:
    return WORD.findall(q)


def has_term(q: str, term: str) -> bool:
    return term.lower() in (w.lower() for w in words(q))


def toggled(q: str, term: str, others: Iterable[str] = ()) -> str:
    """`q` without `term` if it has it, else with it, and without any of `others` (the terms
    a chip replaces: the other choices of a one-choice group)."""
    drop = {term.lower()} if has_term(q, term) else {o.lower() for o in others}
    kept = [w for w in words(q) if w.lower() not in drop]
    if not has_term(q, term):
        kept.append(term)
    return " ".join(kept)


def _key_pattern(keys: Iterable[str]) -> str:
    return "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))


def _term_key(spec: StatField) -> str:
    """The word a chip writes for a stat: its first alias (what players type), else its key."""
    return spec.aliases[0] if spec.aliases else spec.key


def stat_bounds(q: str, spec: StatField) -> tuple[str, str]:
    """The lowest and highest value `q` asks of a stat by `>=`/`<=` (or `=`), as typed."""
    keys = _key_pattern((spec.key, *spec.aliases))
    low = high = ""
    for key_op, value in re.findall(rf"(?i)(?<!\S)(?:{keys})(>=|<=|=|:)(-?\d+)(?!\S)", q):
        if key_op in (">=", "=", ":"):
            low = value
        if key_op in ("<=", "=", ":"):
            high = value
    return low, high


def with_bounds(q: str, spec: StatField, low: str, high: str) -> str:
    """`q` with the stat's `>=`/`<=`/`=` terms replaced by `low` and `high` (either blank)."""
    keys = _key_pattern((spec.key, *spec.aliases))
    bound = re.compile(rf"(?i)(?:{keys})(?:>=|<=|=|:)-?\d+")
    kept = [w for w in words(q) if not bound.fullmatch(w)]
    key = _term_key(spec)
    kept += [f"{key}>={low}"] if low else []
    kept += [f"{key}<={high}"] if high else []
    return " ".join(kept)


def sort_of(q: str) -> tuple[str, str]:
    """The `order:` and `dir:` the query asks for ("" when it does not)."""
    order = direction = ""
    for w in words(q):
        key, _, value = w.partition(":")
        if key.lower() == "order":
            order = value.lower()
        elif key.lower() == "dir":
            direction = value.lower()
    return order, direction


def with_sort(q: str, order: str, direction: str) -> str:
    kept = [w for w in words(q) if w.partition(":")[0].lower() not in ("order", "dir")]
    kept += [f"order:{order}"] if order and order != "name" else []
    kept += [f"dir:{direction}"] if direction == "desc" else []
    return " ".join(kept)


def folded_query(q: str, params: Mapping[str, str], engine: GameEngine) -> str:
    """The query with the search form's range fields and sort (sent without JavaScript)
    written into it as terms; fields not sent leave it as it is."""
    for spec in engine.stats:
        if spec.kind is not StatKind.INTEGER:
            continue
        low_name, high_name = MIN_PREFIX + spec.key, MAX_PREFIX + spec.key
        if low_name in params or high_name in params:
            low, high = params.get(low_name, "").strip(), params.get(high_name, "").strip()
            q = with_bounds(
                q,
                spec,
                low if RANGE_VALUE.fullmatch(low) else "",
                high if RANGE_VALUE.fullmatch(high) else "",
            )
    if "order" in params:
        orders = {value for value, _ in sort_choices(engine)}
        order = params["order"] if params["order"] in orders else ""
        q = with_sort(q, order, params.get("dir", ""))
    return q


@dataclass(frozen=True)
class Chip:
    label: str
    term: str
    url: str
    active: bool
    # The terms this chip replaces when chosen: the other choices of its group.
    others: str = ""


@dataclass(frozen=True)
class ChipGroup:
    label: str
    chips: list[Chip]
    # Open when closed would hide a chosen chip; long groups start closed.
    open: bool = True


@dataclass(frozen=True)
class StatRange:
    key: str
    term_key: str
    label: str
    low: str
    high: str
    minimum: int | None
    maximum: int | None


@dataclass
class PoolFilters:
    groups: list[ChipGroup] = field(default_factory=list)
    ranges: list[StatRange] = field(default_factory=list)
    sorts: list[tuple[str, str]] = field(default_factory=list)
    order: str = "name"
    direction: str = "asc"


# A group longer than this starts folded (unless one of its chips is chosen).
GROUP_FOLD = 12


def _group(
    deck: Deck, choices: Choices, label: str, items: list[tuple[str, str]], *, exclusive: bool
) -> ChipGroup:
    terms = [term for _, term in items]
    chips = []
    for name, term in items:
        others = [t for t in terms if t != term] if exclusive else []
        chips.append(
            Chip(
                name,
                term,
                choices.url(deck, q=toggled(choices.q, term, others)),
                has_term(choices.q, term),
                " ".join(others),
            )
        )
    folded = len(chips) > GROUP_FOLD and not any(c.active for c in chips)
    return ChipGroup(label, chips, open=not folded)


def faction_label(engine: GameEngine) -> str:
    """What the game calls its factions (its faction chart's axis: "Suit", "Race"...)."""
    chart = next((c for c in engine.charts if c.kind is ChartKind.FACTIONS), None)
    return chart.axis if chart else "Faction"


def sort_choices(engine: GameEngine) -> list[tuple[str, str]]:
    """What the pool sorts by: what `order:` takes (name, set and number, each number)."""
    stats = [(_term_key(s), s.label) for s in engine.stats if s.kind is StatKind.INTEGER]
    return [("name", "Name"), ("set", "Set and number"), *stats]


def pool_filters(deck: Deck, choices: Choices) -> PoolFilters:
    """The chips, ranges and sorts of the deck's game, each marked as the query has it."""
    engine = deck.game.engine
    q = choices.q
    factions, keywords = game_classifications(game=deck.game)
    groups = [
        _group(
            deck,
            choices,
            "Type",
            [(t.name, f"t:{t.slug}") for t in engine.card_types],
            exclusive=True,
        ),
        _group(
            deck,
            choices,
            faction_label(engine),
            [(name, f"f:{slug}") for name, slug in factions],
            exclusive=True,
        ),
    ]
    for spec in engine.stats:
        if spec.kind is StatKind.CHOICE:
            key = _term_key(spec)
            items = [(c.capitalize(), f"{key}:{c}") for c in spec.choices]
            groups.append(_group(deck, choices, spec.label, items, exclusive=True))
    if keywords:
        items = [(name, f"kw:{slug}") for name, slug in keywords]
        groups.append(_group(deck, choices, "Keywords", items, exclusive=False))
    owned = f"is:{OWNED_WORD}"
    groups.append(
        _group(
            deck,
            choices,
            "Your collection",
            [("Owned", owned), ("Not owned", f"-{owned}")],
            exclusive=True,
        )
    )
    groups.append(
        _group(
            deck,
            choices,
            "Cards",
            [("Official", "-is:sample"), ("Unofficial samples", "is:sample")],
            exclusive=True,
        )
    )
    ranges = []
    for spec in engine.stats:
        if spec.kind is StatKind.INTEGER:
            low, high = stat_bounds(q, spec)
            ranges.append(
                StatRange(
                    spec.key, _term_key(spec), spec.label, low, high, spec.minimum, spec.maximum
                )
            )
    order, direction = sort_of(q)
    sorts = sort_choices(engine)
    return PoolFilters(
        groups=[g for g in groups if g.chips],
        ranges=ranges,
        sorts=sorts,
        order=order if order in {v for v, _ in sorts} else "name",
        direction="desc" if direction == "desc" else "asc",
    )
