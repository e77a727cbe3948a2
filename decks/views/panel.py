"""What the builder shows: the deck panel (validation, then the list grouped as the player
chose, each row marked with the problems that name it) and the search results.

Everything game-specific comes from the engine: which stats a compact row shows
(`key_stats`), the number a deck can be grouped by (`chart_stat`), the order of card types
and zones, and which faces are printed sideways.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from decks.models import Deck
from decks.reading.owning import owned_by_short_id
from decks.reading.selectors import PlannedCard, planned_cards
from decks.services import (
    CheckResult,
    ResolvedDeck,
    ResolvedEntry,
    check,
    deck_charts,
    intake_deck,
    resolve,
)
from decks.services.history import UndoState, undo_state
from decks.services.intake import Intake
from decks.views.building import builder_collection
from decks.views.common import export_context
from engines.base import GameEngine
from engines.rules import Problem

GROUPINGS = ("type", "cost")
VIEWS = ("list", "images")
TYPE_NOT_GIVEN = "type not given"
# A problem naming more cards than this links the first ones; every named row is marked.
PROBLEM_LINKS = 10


@dataclass(frozen=True)
class Choices:
    """How the player asked to see the builder: carried in every link and form, so the
    page stays as chosen without JavaScript too."""

    q: str = ""
    group: str = "type"
    view: str = "list"

    def url(self, deck: Deck, **changes: str) -> str:
        values = {"q": self.q, "group": self.group, "view": self.view, **changes}
        query = urlencode({k: v for k, v in values.items() if v})
        return f"{reverse('decks:edit', args=[deck.share_key])}?{query}"


def choices_from(params: Mapping[str, str], engine: GameEngine) -> Choices:
    """The player's choices from a query string or a form; anything unknown is the default,
    and grouping by cost falls back to type in a game without a main number."""
    group = params.get("group", "")
    if group not in GROUPINGS or (group == "cost" and engine.chart_stat is None):
        group = "type"
    view = params.get("view", "")
    return Choices(params.get("q", "").strip(), group, view if view in VIEWS else "list")


@dataclass(frozen=True)
class KeyStat:
    short: str
    label: str
    value: str


def key_stats(engine: GameEngine, stats: Mapping[str, object]) -> list[KeyStat]:
    """The engine's key stats this card has, under the words the search language uses."""
    found = []
    for key in engine.key_stats:
        spec = engine.stat(key)
        if spec is not None and stats.get(key) is not None:
            short = spec.aliases[0] if spec.aliases else key
            found.append(KeyStat(short, spec.label, str(stats[key])))
    return found


def stats_html(stats: list[KeyStat]) -> SafeString:
    """Key stats as one escaped fragment. The panel is drawn after every edit, with a row per
    card: plain escaping here costs a tenth of three template lookups (or format_html) per
    number."""
    # Safe: every part is escaped just here.
    return mark_safe(
        "".join(
            f'<span title="{escape(s.label)}">{escape(s.short)} <b>{escape(s.value)}</b></span>'
            for s in stats
        )
    )


@lru_cache(maxsize=20_000)
def card_url(short_id: str, slug: str) -> str:
    """A card page's address: the same for as long as the process runs, and reversing it
    was the costliest step of drawing a row."""
    return reverse("catalogue:card", args=[short_id, slug])


@dataclass
class ShownProblem:
    id: str
    problem: Problem
    links: list[tuple[str, str]] = field(default_factory=list)
    more: int = 0


@dataclass
class Row:
    """One deck entry as its row shows it, every value ready to print: the panel is drawn
    after every edit, so each template lookup saved is saved hundreds of times."""

    entry: ResolvedEntry
    anchor: str
    stats: SafeString
    short_id: str = ""
    zone: str = ""
    name: str = ""
    url: str = ""
    quantity: str = ""
    type_name: str = ""
    official: bool = True
    problems: list[ShownProblem] = field(default_factory=list)
    # Copies the owner's collection (their pool's) holds, and whether the deck needs more.
    owned: int = 0
    short: bool = False

    @classmethod
    def of(cls, entry: ResolvedEntry, engine: GameEngine, stats: bool = True) -> Row:
        """`stats`: draw the key stats now (a +/- draws only the rows it sends: fill_stats)."""
        card = entry.card
        return cls(
            entry,
            row_anchor(entry),
            stats_html(key_stats(engine, card.stats)) if stats else mark_safe(""),
            card.short_id,
            entry.zone,
            card.name,
            card_url(card.short_id, card.slug),
            str(entry.quantity),
            card.card_type or TYPE_NOT_GIVEN,
            card.official,
        )

    @property
    def described_by(self) -> str:
        return " ".join(p.id for p in self.problems)

    @property
    def severity(self) -> str:
        return "error" if any(p.problem.severity == "error" for p in self.problems) else "warning"

    @property
    def titles(self) -> str:
        return " ".join(p.problem.message for p in self.problems)

    @property
    def signature(self) -> tuple[Any, ...]:
        """Everything the row shows that an edit elsewhere can change: rows whose signature
        is the same before and after an edit are not drawn again."""
        return (self.quantity, self.owned, self.short, tuple(p.id for p in self.problems))


@dataclass
class Group:
    label: str
    rows: list[Row]
    key: str = ""

    @property
    def count(self) -> int:
        return sum(r.entry.quantity for r in self.rows)


@dataclass
class ZoneBlock:
    name: str
    slug: str
    groups: list[Group]

    @property
    def count(self) -> int:
        return sum(g.count for g in self.groups)


def row_anchor(entry: ResolvedEntry) -> str:
    return f"row-{entry.card.short_id}-{entry.zone}"


def _grouped(engine: GameEngine, rows: list[Row], group: str) -> list[Group]:
    spec = engine.stat(engine.chart_stat) if group == "cost" and engine.chart_stat else None
    buckets: dict[Any, list[Row]] = defaultdict(list)
    if spec is None:
        order = {t.name: i for i, t in enumerate(engine.card_types)}
        for row in rows:
            buckets[row.entry.card.card_type or TYPE_NOT_GIVEN].append(row)
        keys = sorted(buckets, key=lambda name: (order.get(name, len(order)), name))
        return [Group(name, buckets[name], group_key(name)) for name in keys]
    for row in rows:
        value = row.entry.card.stats.get(spec.key)
        buckets[value if isinstance(value, int) else None].append(row)
    numbers = sorted(k for k in buckets if k is not None)
    groups = [Group(f"{spec.label} {n}", buckets[n], f"n{n}") for n in numbers]
    if None in buckets:
        groups.append(Group(f"Without {spec.label}", buckets[None], "none"))
    return groups


def group_key(label: str) -> str:
    """A group's part of its element id: the label's letters and digits."""
    return re.sub(r"[^a-z0-9]+", "-", label.casefold()).strip("-") or "other"


def _shown_problems(problems: Iterable[Problem], rows: list[Row]) -> list[ShownProblem]:
    """Each problem with links to the rows of the cards it names; those rows are marked."""
    by_name: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_name[row.entry.card.name].append(row)
    shown = []
    for problem in problems:
        # By its words, not its place: a row drawn again alone after an edit names the same
        # problem as the list drawn with it.
        digest = hashlib.blake2s(f"{problem.code}|{problem.message}".encode(), digest_size=5)
        item = ShownProblem(f"problem-{digest.hexdigest()}", problem)
        named = [name for name in problem.cards if name in by_name]
        item.links = [(name, by_name[name][0].anchor) for name in named[:PROBLEM_LINKS]]
        item.more = max(0, len(named) - PROBLEM_LINKS)
        for name in named:
            for row in by_name[name]:
                row.problems.append(item)
        shown.append(item)
    return shown


@dataclass
class Core:
    """The panel's parts that come from the deck's cards alone: no query."""

    resolved: ResolvedDeck
    result: CheckResult
    rows: list[Row]
    problems: list[ShownProblem]
    zones: list[ZoneBlock]
    in_deck: dict[str, int]
    owned: dict[str, int]


def panel_core(
    deck: Deck,
    choices: Choices,
    intake: Intake,
    owned: Mapping[str, int] | None = None,
    *,
    stats: bool = True,
) -> Core:
    """The deck's cards (`intake`) resolved, checked and laid out as the panel shows them;
    `owned` the copies held by short id (None: read here, one query); `stats`: each row's
    key stats drawn (else fill_stats draws those of the rows sent)."""
    engine = deck.game.engine
    resolved = resolve(
        game=deck.game.slug,
        intake=intake,
        faction=deck.faction.name if deck.faction else None,
    )
    result: CheckResult = check(resolved, deck.format)
    rows = [
        Row.of(e, engine, stats)
        for e in sorted(resolved.entries, key=lambda e: (e.card.name, e.card.short_id))
    ]
    problems = _shown_problems(result.problems, rows)
    by_zone: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_zone[row.entry.zone].append(row)
    zones = [
        ZoneBlock(z.name, z.slug, _grouped(engine, by_zone[z.slug], choices.group))
        for z in engine.zones
        if by_zone.get(z.slug)
    ]
    in_deck: Counter[str] = Counter()
    for e in resolved.entries:
        in_deck[e.card.short_id] += e.quantity
    if owned is None:
        ids = {e.card.short_id: e.card.pk for e in resolved.entries}
        owned = owned_by_short_id(deck.owner, ids)
    for row in rows:
        row.owned = owned.get(row.short_id, 0)
        row.short = row.owned < in_deck[row.short_id]
    return Core(resolved, result, rows, problems, zones, dict(in_deck), dict(owned))


def _head_context(deck: Deck, choices: Choices, core: Core) -> dict[str, Any]:
    """What the panel's head (legality, counts, the curve, problems, collection) shows."""
    engine = deck.game.engine
    cost = engine.stat(engine.chart_stat) if engine.chart_stat else None
    groupings = [("type", "By type")] + ([("cost", f"By {cost.label}")] if cost else [])
    charts = deck_charts(core.resolved)
    return {
        "deck": deck,
        "result": core.result,
        "format": engine.format(deck.format),
        "problems": core.problems,
        "zones": core.zones,
        "charts": charts,
        "curve": mini_curve(charts[0]) if charts else None,
        "choices": choices,
        "by_cost": choices.group == "cost",
        "version": str(deck.version),
        # The choices every row's form carries for a page load without JavaScript.
        "keep": format_html_join(
            "",
            '<input type="hidden" name="{}" value="{}">',
            (("q", choices.q), ("group", choices.group), ("view", choices.view)),
        ),
        "groupings": [
            (value, label, choices.url(deck, group=value), value == choices.group)
            for value, label in groupings
        ],
        "in_deck": core.in_deck,
    }


@dataclass(frozen=True)
class CurveBar:
    label: str
    value: int
    # Its height in tenths of the tallest bar, for the stylesheet (data-h="0".."10").
    tenths: int


def mini_curve(chart: Any) -> list[CurveBar]:
    """The first chart's first series as small bars for the panel's sticky head: the curve
    stays in view while the full charts scroll away."""
    values = list(chart.series[0].values) if chart.series else []
    top = max(values, default=0) or 1
    return [
        CurveBar(str(label), int(v), round(10 * v / top))
        for label, v in zip(chart.labels, values, strict=False)
    ]


def panel_context(
    deck: Deck,
    choices: Choices,
    *,
    with_export: bool = False,
    undo: UndoState | None = None,
) -> dict[str, Any]:
    """What the deck panel shows: live problems first, counts and the charts, then the list by
    zone and by the chosen grouping, and what undo and redo can do (`undo`, read here when
    not given); with `with_export`, also what the page's export panel shows, from the same
    resolve."""
    core = panel_core(deck, choices, intake_deck(deck))
    # Beside the deck, never in it: not in the counts, the checks or the code.
    planned = planned_cards(deck=deck)
    undo = undo if undo is not None else undo_state(deck, deck.owner)
    return {
        **(export_context(deck, core.resolved) if with_export else {}),
        **_head_context(deck, choices, core),
        **builder_collection(deck, core.in_deck, core.owned),
        # Blocked by someone else's change, undo stays offered: pressing it says why not.
        "can_undo": bool(undo.undo) or undo.blocked_by is not None,
        "can_redo": bool(undo.redo),
        "counts_json": json.dumps(core.in_deck),
        "planned_json": json.dumps({p.short_id: p.quantity for p in planned}),
        "planned": planned,
        "planned_counts": {p.short_id: p.quantity for p in planned},
        "planned_total": sum(p.quantity for p in planned),
    }


def fill_stats(engine: GameEngine, rows: Iterable[Row]) -> None:
    """The key stats of the rows a +/- sends (its cores are drawn without them): the same for
    as long as the card is, so a row of a kept core may already have them."""
    for row in rows:
        if not row.stats:
            row.stats = stats_html(key_stats(engine, row.entry.card.stats))


def group_block_id(zone: str, key: str) -> str:
    """The id of a group's block in the panel (decks/_panel_group.html)."""
    return f"group-{zone}-{key}"


def _place(ids: list[str], i: int) -> str:
    """Where the `i`th of these siblings goes, as an htmx out-of-band swap: before the one
    after it, else after the one before it (a zone or group holds more than it alone)."""
    if i + 1 < len(ids):
        return f"beforebegin:#{ids[i + 1]}"
    return f"afterend:#{ids[i - 1]}"


def panel_changes(deck: Deck, choices: Choices, before: Core, after: Core) -> dict[str, Any] | None:
    """What the panel must draw again after a +/- took it from `before` to `after`: the rows
    that changed (by signature), the rows and groups that came (each with its place) or
    went; with the head. A zone that was or becomes empty is drawn whole; None when a zone
    came or went: then the whole panel is drawn."""
    zones_before = {z.slug: z for z in before.zones}
    zones_after = {z.slug: z for z in after.zones}
    if set(zones_before) != set(zones_after):
        return None
    old = {r.anchor: r.signature for r in before.rows}
    zones: list[ZoneBlock] = []
    counts: list[tuple[ZoneBlock, Group]] = []
    rows: list[Row] = []
    # Rows that came, each with where it goes (an htmx out-of-band swap), and rows that went.
    places: list[tuple[Row, str]] = []
    group_places: list[tuple[ZoneBlock, Group, str]] = []
    # Ids of the rows and groups that went.
    gone: list[str] = []
    for slug, zone in zones_after.items():
        keys_before = {g.key: {r.anchor for r in g.rows} for g in zones_before[slug].groups}
        block_ids = [group_block_id(slug, g.key) for g in zone.groups]
        if not keys_before or not zone.groups:
            zones.append(zone)
            continue
        # A group that came goes in its place among the others, and one that went is
        # deleted, rather than the whole zone (most of a deck) being drawn again.
        kept_keys = {g.key for g in zone.groups}
        gone.extend(group_block_id(slug, key) for key in keys_before if key not in kept_keys)
        for gi, group in enumerate(zone.groups):
            if group.key not in keys_before:
                group_places.append((zone, group, _place(block_ids, gi)))
                continue
            before_rows = keys_before[group.key]
            anchors = [r.anchor for r in group.rows]
            went_away = before_rows - set(anchors)
            gone.extend(sorted(went_away))
            # So a row that came: in its place among the others, not its whole group again.
            places.extend(
                (row, _place(anchors, i))
                for i, row in enumerate(group.rows)
                if row.anchor not in before_rows
            )
            changed = [
                r
                for r in group.rows
                if r.anchor in before_rows and old.get(r.anchor) != r.signature
            ]
            rows.extend(changed)
            if changed or went_away or len(anchors) != len(before_rows):
                # Its count changed too: its heading is drawn with the rows.
                counts.append((zone, group))
    engine = deck.game.engine
    sent = [
        *rows,
        *(r for r, _ in places),
        *(r for _, group, _ in group_places for r in group.rows),
        *(r for zone in zones for group in zone.groups for r in group.rows),
    ]
    fill_stats(engine, sent)
    return {
        **_head_context(deck, choices, after),
        **(builder_collection(deck, after.in_deck, after.owned) if deck.built_at is None else {}),
        "oob_zones": zones,
        "oob_group_counts": counts,
        "oob_rows": rows,
        "oob_places": places,
        "oob_group_places": group_places,
        "oob_gone": gone,
        "zone_counts": [z for z in after.zones if z not in zones],
        "oob_collection": deck.built_at is None,
        # A +/- just made: it can be undone, and it ends what could be redone.
        "can_undo": True,
        "can_redo": False,
        "counts_json": json.dumps(after.in_deck),
    }


def maybe_code(planned: Iterable[PlannedCard]) -> str:
    """The planned cards as `short_id*quantity` joined by `;` (see builder.planned_in)."""
    return ";".join(f"{p.short_id}*{p.quantity}" for p in planned)
