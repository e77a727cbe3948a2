"""Reads for a deck's history pages: a page of versions, each with its changes in words and
its legality, and two versions side by side.

Everything here is bounded by the page: a page of versions reads its rows, then every state
it needs in one query (at most a keyframe's distance plus a page of rows), and checks each
version's legality once per catalogue version (`decks.history.reads.version_legality` caches it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import OuterRef, Subquery
from django.urls import reverse

from decks.history.diff import CardLine, card_line
from decks.history.reads import (
    VersionView,
    deck_versions,
    first_kept,
    readable_parent,
    version_legality,
    version_views,
)
from decks.models import VERSION_MAX, Deck, DeckVersion
from decks.services import CheckResult, game_snapshot
from decks.services.history import (
    MAYBE,
    SETTINGS,
    CardKey,
    DeckState,
    setting_changes,
    state_at,
)
from engines.base import GameEngine
from engines.errors import InputError
from engines.rules import Problem, Severity

PER_PAGE = 20
# The largest page number read from a request (a version number's is VERSION_MAX); longer
# digit runs are refused before int() is asked to read them.
NUMBER_MAX = 10**9
PLANNED = "Planned"
SETTING_LABELS = {
    "name": "Name",
    "format": "Format",
    "faction": "Faction",
    "description": "Description",
    "visibility": "Visibility",
}


def read_number(raw: str | None, field: str, most: int = NUMBER_MAX) -> int:
    """A page number from a request, 1 to `most`; InputError naming `field` and the limit."""
    text = (raw or "").strip()
    # ASCII digits only: str.isdigit() also takes superscripts, which int() refuses.
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(most))
    if not (digits and 1 <= int(text) <= most):
        raise InputError(field, f"{field} is a whole number from 1 to {most:,}.")
    return int(text)


def read_version(raw: str | None, field: str) -> int:
    """A version number from a request or a path, 1 to VERSION_MAX. Past it no version can
    have been kept: InputError naming `field` and the limit, not a version not found."""
    return read_number(raw, field, VERSION_MAX)


def versions_kept(deck: Deck) -> int:
    """How many versions of the deck are kept (one indexed count)."""
    return DeckVersion.objects.filter(deck=deck).count()


def page_of(deck: Deck, number: int) -> int:
    """The history page showing version `number`, newest first: counted, since folded builder
    edits leave gaps in the kept numbers (one indexed count)."""
    newer = DeckVersion.objects.filter(deck=deck, number__gt=number).count()
    return newer // PER_PAGE + 1


def version_url(deck: Deck, number: int | None = None) -> str:
    """The deck's History tab (a path), or, given a number, that version on its page."""
    url = reverse("decks:history", args=[deck.share_key])
    if number is None:
        return url
    return f"{url}?page={page_of(deck, number)}#version-{number}"


@dataclass(frozen=True)
class Legality:
    format_name: str
    legal: bool
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity == Severity.ERROR)

    def sentence(self) -> str:
        if self.legal:
            return f"legal in {self.format_name}"
        count = self.errors or len(self.problems)
        return f"not legal in {self.format_name}: {count} problem{'s' if count != 1 else ''}"


def legality_of(deck: Deck, number: int, state: DeckState | None = None) -> Legality:
    """Version `number`'s legality in its own format. A format or faction the game no longer
    has is itself the problem, rather than an error page."""
    engine = deck.game.engine
    format_slug = str(state.settings.get("format", "")) if state else deck.format
    try:
        result: CheckResult = version_legality(deck, number, state)
    except InputError as exc:
        fmt = engine.format(format_slug)
        gone = Problem(exc.field, Severity.ERROR, str(exc.message))
        return Legality(fmt.name if fmt else format_slug, False, (gone,))
    return Legality(result.format.name, result.legal, result.problems)


def states_of(deck: Deck, numbers: Sequence[int]) -> dict[int, DeckState]:
    """The deck at each of `numbers` (all kept versions), in one query: from the nearest
    keyframe at or before the oldest of them, each version's changes applied in turn."""
    if not numbers:
        return {}
    low, high, wanted = min(numbers), max(numbers), set(numbers)
    keyframe = (
        DeckVersion.objects.filter(deck=OuterRef("deck"), number__lte=low)
        .exclude(snapshot=None)
        .order_by("-number")
        .values("number")[:1]
    )
    rows = (
        DeckVersion.objects.filter(deck=deck, number__lte=high, number__gte=Subquery(keyframe))
        .order_by("number")
        .values_list("number", "snapshot", "changes", "setting_changes")
    )
    cards: dict[CardKey, int] = {}
    settings: dict[str, Any] = {}
    out: dict[int, DeckState] = {}
    for i, (number, snapshot, changes, settings_changed) in enumerate(rows):
        if i == 0:
            # The keyframe the query started from: it always holds a snapshot.
            assert snapshot is not None
            cards = {(s, z): q for s, z, q in snapshot["cards"]}
            settings = dict(snapshot["settings"])
        else:
            for short_id, zone, _before, after in changes:
                if after:
                    cards[(short_id, zone)] = after
                else:
                    cards.pop((short_id, zone), None)
            for key, (_before, after) in settings_changed.items():
                settings[key] = after
        if number in wanted:
            out[number] = DeckState(dict(cards), dict(settings))
    return out


def setting_sentence(engine: GameEngine, key: str, before: Any, after: Any) -> str:
    """A setting's change in words: "Format: Limited → Constructed"; a description is only
    said to have changed, its text may be pages long."""
    label = SETTING_LABELS.get(key, key.capitalize())
    if key == "description":
        if not before:
            return "Description added"
        return "Description removed" if not after else "Description changed"
    return (
        f"{label}: {setting_value(engine, key, before)} \u2192 {setting_value(engine, key, after)}"
    )


def setting_value(engine: GameEngine, key: str, value: Any) -> str:
    if value in (None, ""):
        return "none"
    if key == "format":
        fmt = engine.format(str(value))
        return fmt.name if fmt else str(value)
    if key == "visibility":
        return str(value).capitalize()
    return str(value)


def setting_sentences(engine: GameEngine, changed: Mapping[str, list[Any]]) -> list[str]:
    return [
        setting_sentence(engine, key, *changed[key])
        for key in (*SETTINGS, *sorted(set(changed) - set(SETTINGS)))
        if key in changed
    ]


@dataclass(frozen=True)
class VersionRow:
    view: VersionView
    legality: Legality
    settings: list[str]
    # For the first kept version only: where its history starts, in words.
    origin: str
    # A deck it branched from that the reader may open.
    parent: Deck | None

    @property
    def number(self) -> int:
        return self.view.number


def _origin(deck: Deck, view: VersionView, user: Any) -> tuple[str, Deck | None]:
    if not view.first:
        return "", None
    if deck.parent_version:
        parent = readable_parent(deck, user)
        if parent is None:
            return "Branched from another deck", None
        return f"Branched from version {deck.parent_version} of", parent
    if view.number == 1:
        return "Created", None
    return "History begins here: earlier versions were not kept", None


@dataclass(frozen=True)
class HistoryPage:
    page: Page[DeckVersion]
    rows: list[VersionRow]
    first: int
    kept: int


def history_page(deck: Deck, page_number: int, user: Any) -> HistoryPage:
    """Page `page_number` of the deck's versions, newest first (past the last page: the last
    page), each with its changes, settings changed and legality."""
    paginator = Paginator(deck_versions(deck), PER_PAGE)
    page = paginator.get_page(min(page_number, paginator.num_pages))
    versions = list(page.object_list)
    first = first_kept(deck)
    states = states_of(deck, [v.number for v in versions])
    engine = deck.game.engine
    rows = []
    for view in version_views(deck, versions, first):
        origin, parent = _origin(deck, view, user)
        rows.append(
            VersionRow(
                view=view,
                legality=legality_of(deck, view.number, states.get(view.number)),
                settings=setting_sentences(engine, view.diff.settings),
                origin=origin,
                parent=parent,
            )
        )
    return HistoryPage(page=page, rows=rows, first=first, kept=paginator.count)


@dataclass(frozen=True)
class SideRow:
    """One card in one zone and its quantity in each version (0: not there)."""

    line: CardLine

    @property
    def status(self) -> str:
        if self.line.before == self.line.after:
            return "same"
        if not self.line.after:
            return "only-a"
        return "only-b" if not self.line.before else "changed"


@dataclass(frozen=True)
class SideGroup:
    name: str
    rows: list[SideRow]

    @property
    def differs(self) -> int:
        return sum(1 for r in self.rows if r.status != "same")


@dataclass(frozen=True)
class SettingRow:
    label: str
    a: str
    b: str


@dataclass(frozen=True)
class SideBySide:
    a: int
    b: int
    groups: list[SideGroup]
    settings: list[SettingRow]
    # The same settings, each as a sentence ("Format: Limited → Constructed").
    setting_lines: list[str]
    legal_a: Legality
    legal_b: Legality

    @property
    def differences(self) -> int:
        return sum(g.differs for g in self.groups) + len(self.settings)

    @property
    def changes(self) -> list[CardLine]:
        """The cards that differ, in the order of the lists below."""
        return [r.line for g in self.groups for r in g.rows if r.status != "same"]


def _groups(deck: Deck, a: DeckState, b: DeckState) -> list[SideGroup]:
    snap = game_snapshot(deck.game.slug)
    engine = deck.game.engine
    keys = set(a.cards) | set(b.cards)
    names = {z.slug: z.name for z in engine.zones}
    order = [z.slug for z in engine.zones]
    zones = sorted(
        {z for _s, z in keys},
        key=lambda z: (z == MAYBE, order.index(z) if z in order else len(order), z),
    )
    groups = []
    for zone in zones:
        lines = sorted(
            (
                card_line(snap, s, z, a.cards.get((s, z), 0), b.cards.get((s, z), 0))
                for s, z in keys
                if z == zone
            ),
            key=lambda line: (line.name.casefold(), line.short_id),
        )
        name = PLANNED if zone == MAYBE else names.get(zone, zone)
        groups.append(SideGroup(name, [SideRow(line) for line in lines]))
    return groups


def _setting_rows(engine: GameEngine, a: DeckState, b: DeckState) -> list[SettingRow]:
    rows = []
    for key in SETTINGS:
        before, after = a.settings.get(key), b.settings.get(key)
        if before == after:
            continue
        if key == "description":
            # Pages of text side by side help nobody: their lengths tell them apart.
            rows.append(SettingRow("Description", _length(before), _length(after)))
        else:
            label = SETTING_LABELS[key]
            rows.append(
                SettingRow(
                    label, setting_value(engine, key, before), setting_value(engine, key, after)
                )
            )
    return rows


def _length(text: Any) -> str:
    return f"{len(text):,} characters" if text else "none"


def side_by_side(deck: Deck, a: int, b: int) -> SideBySide:
    """Versions `a` and `b` of the deck, every card in either with its quantity in each, the
    settings that differ, and each version's legality. VersionNotFound for a version never
    kept."""
    # Each on its own: read together, two versions far apart would read every row between.
    states = {a: state_at(deck, a), b: state_at(deck, b)}
    return SideBySide(
        a=a,
        b=b,
        groups=_groups(deck, states[a], states[b]),
        settings=_setting_rows(deck.game.engine, states[a], states[b]),
        setting_lines=setting_sentences(
            deck.game.engine, setting_changes(states[a].settings, states[b].settings)
        ),
        legal_a=legality_of(deck, a, states[a]),
        legal_b=legality_of(deck, b, states[b]),
    )
