"""A deck's versions: recording each save's changes, and rebuilding any version from them.

A deck's state is its cards, by (short id, zone), with the planned ("maybe") cards in the
zone MAYBE, and its settings. Every write that changes the state records one DeckVersion in
the same transaction as the version bump, so a write that loses a race records nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import BooleanField, ExpressionWrapper, Q, Subquery
from django.utils import timezone

from decks.models import Deck, DeckVersion
from decks.services.intake import Intake, RequestedCard
from engines.errors import InputError

# The zone the planned cards are kept in, in a version and in the API's diffs.
MAYBE = "maybe"
# What a version remembers besides cards. A revert puts back all but the visibility: going
# back to an old list must never publish or hide a deck.
SETTINGS = ("name", "format", "faction", "description", "visibility")
REVERTED_SETTINGS = ("name", "format", "faction", "description")
# Every this-many versions (and a deck's first recorded one) holds the whole deck, so
# rebuilding a version reads at most this many rows.
KEYFRAME_EVERY = 50
NOTE_MAX = 200
# Consecutive builder edits by one author, with no other write between them and each within
# this long of the one before, fold into one version (its steps kept, for undo).
FOLD_WINDOW = timedelta(minutes=10)
# A folded version holds at most this many steps; the next edit starts a new version.
FOLD_STEPS_MAX = 200
# Undo and redo read this many of the deck's latest versions to find what can be undone.
UNDO_ROWS = 50
EDIT, UNDO, REDO = "edit", "undo", "redo"
MINUS = "\u2212"

CardKey = tuple[str, str]


@dataclass(frozen=True)
class DeckState:
    cards: Mapping[CardKey, int] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)

    def deck_cards(self) -> dict[CardKey, int]:
        """The cards in the deck itself, without the planned ones."""
        return {k: q for k, q in self.cards.items() if k[1] != MAYBE}

    def maybe_cards(self) -> dict[str, int]:
        return {k[0]: q for k, q in self.cards.items() if k[1] == MAYBE}


def cards_intake(cards: Mapping[CardKey, int]) -> Intake:
    """The deck's own cards of a state (the planned ones left out), as a write or a check
    takes them."""
    return Intake(
        tuple(RequestedCard(q, None, s, z) for (s, z), q in sorted(cards.items()) if z != MAYBE)
    )


def settings_of(deck: Deck) -> dict[str, Any]:
    return {
        "name": deck.name,
        "format": deck.format,
        "faction": deck.faction.name if deck.faction_id and deck.faction else None,
        "description": deck.description,
        "visibility": deck.visibility,
    }


def deck_state(deck: Deck) -> DeckState:
    """The deck as it is saved now: two queries."""
    cards: dict[CardKey, int] = {}
    for short_id, zone, quantity in deck.entries.values_list("card__short_id", "zone", "quantity"):
        cards[(short_id, zone)] = cards.get((short_id, zone), 0) + quantity
    for short_id, quantity in deck.maybe.values_list("card__short_id", "quantity"):
        cards[(short_id, MAYBE)] = quantity
    return DeckState(cards, settings_of(deck))


def card_changes(before: Mapping[CardKey, int], after: Mapping[CardKey, int]) -> list[list[Any]]:
    """[[short_id, zone, before, after], ...] for every card whose quantity differs, sorted."""
    return [
        [short_id, zone, before.get((short_id, zone), 0), after.get((short_id, zone), 0)]
        for short_id, zone in sorted(set(before) | set(after))
        if before.get((short_id, zone), 0) != after.get((short_id, zone), 0)
    ]


def setting_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
    return {k: [before.get(k), after.get(k)] for k in SETTINGS if before.get(k) != after.get(k)}


def note_text(note: str) -> str:
    note = note.strip()
    if len(note) > NOTE_MAX:
        raise InputError("note", f"A version's note is at most {NOTE_MAX} characters.")
    return note


def _snapshot(state: DeckState) -> dict[str, Any]:
    return {
        "cards": [[s, z, q] for (s, z), q in sorted(state.cards.items())],
        "settings": dict(state.settings),
    }


def record_version(
    *,
    deck: Deck,
    number: int,
    author: User | None,
    note: str = "",
    before: DeckState | None,
    after: DeckState | None = None,
    changes: list[list[Any]] | None = None,
    settings_changed: dict[str, list[Any]] | None = None,
    kind: str = EDIT,
    open: bool = False,
) -> DeckVersion:
    """Record version `number` of `deck`. Give `before` and `after` (the whole states), or,
    for a one-card write, `before` may be None and `changes` given: then `after` is needed
    only when `number` is a keyframe (the caller checks `is_keyframe`). The version is one
    step of `kind` (undo can take back its cards); a deck's first version is none. `open`:
    a builder edit, which the same author's next one may fold into (fold_or_record)."""
    if before is not None and after is not None:
        changes = card_changes(before.cards, after.cards)
        settings_changed = setting_changes(before.settings, after.settings)
    first = before is None and changes is None
    if first and after is not None:
        changes = card_changes({}, after.cards)
    keyframe = first or is_keyframe(number)
    if keyframe and after is None:
        raise ValueError("a keyframe version needs the whole state")
    return DeckVersion.objects.create(
        deck=deck,
        number=number,
        author=author if getattr(author, "is_authenticated", False) else None,
        note=note,
        changes=changes or [],
        setting_changes=settings_changed or {},
        snapshot=_snapshot(after) if keyframe and after is not None else None,
        # Settings alone are no step: undo, which puts back cards, passes over them.
        steps=None if first else ([[kind, changes]] if changes else []),
        open=open,
    )


def is_keyframe(number: int) -> bool:
    return number % KEYFRAME_EVERY == 0


class VersionNotFound(Exception):
    def __init__(self, number: int) -> None:
        super().__init__(f"no version {number}")
        self.number = number


def state_at(deck: Deck, number: int) -> DeckState:
    """The deck as it was at version `number`: one query, reading the nearest keyframe at or
    before it and the changes since. VersionNotFound if that version was never kept."""
    # The keyframe's number is a subquery of this deck alone, not of each row (OuterRef), so
    # PostgreSQL runs it once rather than once for every version up to `number`. And SQL NULL
    # by isnull: on a JSONField, `snapshot=None` means the JSON value null.
    keyframe = (
        DeckVersion.objects.filter(deck=deck, number__lte=number, snapshot__isnull=False)
        .order_by("-number")
        .values("number")[:1]
    )
    rows = list(
        DeckVersion.objects.filter(deck=deck, number__lte=number, number__gte=Subquery(keyframe))
        .order_by("number")
        .values_list("number", "snapshot", "changes", "setting_changes")
    )
    if not rows or rows[-1][0] != number or rows[0][1] is None:
        raise VersionNotFound(number)
    return replay(rows)


def replay(rows: Iterable[tuple[int, Any, list[list[Any]], dict[str, list[Any]]]]) -> DeckState:
    """A keyframe's state with the changes of the rows after it applied in order."""
    cards: dict[CardKey, int] = {}
    settings: dict[str, Any] = {}
    for i, (_, snapshot, changes, settings_changed) in enumerate(rows):
        if i == 0:
            cards = {(s, z): q for s, z, q in snapshot["cards"]}
            settings = dict(snapshot["settings"])
            continue
        for short_id, zone, _before, after in changes:
            if after:
                cards[(short_id, zone)] = after
            else:
                cards.pop((short_id, zone), None)
        for key, (_before, after) in settings_changed.items():
            settings[key] = after
    return DeckState(cards, settings)


@dataclass(frozen=True)
class Summary:
    added: int
    removed: int
    changed: int
    # Copies in and out, and the steps (clicks) a folded version is made of.
    copies_added: int = 0
    copies_removed: int = 0
    steps: int = 1

    @property
    def words(self) -> str:
        """E.g. "+7 cards, \u22122 (9 changes)": copies in and out (a true minus sign), and
        the steps when several."""
        parts = []
        if self.copies_added:
            parts.append(f"+{self.copies_added}")
        if self.copies_removed:
            parts.append(f"{MINUS}{self.copies_removed}")
        if not parts:
            text = "no cards changed"
        else:
            total = self.copies_removed if not self.copies_added else self.copies_added
            first, *rest = parts
            text = f"{first} card{'s' if total != 1 else ''}"
            text = ", ".join([text, *rest])
        return f"{text} ({self.steps} changes)" if self.steps > 1 else text


def summary(changes: Iterable[list[Any]], steps: list[list[Any]] | None = None) -> Summary:
    added = removed = changed = copies_added = copies_removed = 0
    for _s, _z, before, after in changes:
        copies_added += max(0, after - before)
        copies_removed += max(0, before - after)
        if not before:
            added += 1
        elif not after:
            removed += 1
        else:
            changed += 1
    return Summary(
        added, removed, changed, copies_added, copies_removed, len(steps) if steps else 1
    )


@dataclass(frozen=True)
class Latest:
    """What folding needs of a deck's latest version (read with the deck: see
    decks.reading.selectors.deck_for_edit)."""

    number: int
    author_id: int | None
    created_at: datetime
    open: bool
    keyframe: bool
    changes: list[list[Any]]
    setting_changes: dict[str, list[Any]]
    steps: list[list[Any]] | None


def latest_of(deck_versions: Any) -> Any:
    """A queryset of versions, newest first, as the values Latest is made of (with the
    deck: see decks.reading.selectors.deck_for_edit; alone: latest_version)."""
    return deck_versions.order_by("-number").annotate(
        keyframe=ExpressionWrapper(Q(snapshot__isnull=False), output_field=BooleanField())
    )


LATEST_FIELDS = (
    "number",
    "author_id",
    "created_at",
    "open",
    "keyframe",
    "changes",
    "setting_changes",
    "steps",
)


def latest_version(deck: Deck) -> Latest | None:
    """The deck's latest version, as folding reads it: one query."""
    row = latest_of(DeckVersion.objects.filter(deck=deck)).values_list(*LATEST_FIELDS).first()
    return Latest(*row) if row is not None else None


def composed(first: Iterable[list[Any]], then: Iterable[list[Any]]) -> list[list[Any]]:
    """Two lists of card changes as one: each card's quantity before the first and after the
    last, the cards that ended where they began left out."""
    spans: dict[CardKey, list[int]] = {}
    for short_id, zone, before, after in (*first, *then):
        span = spans.setdefault((short_id, zone), [before, after])
        span[1] = after
    return [[s, z, b, a] for (s, z), (b, a) in sorted(spans.items()) if b != a]


def composed_settings(
    first: Mapping[str, list[Any]], then: Mapping[str, list[Any]]
) -> dict[str, list[Any]]:
    spans = {k: list(v) for k, v in first.items()}
    for key, (before, after) in then.items():
        spans.setdefault(key, [before, after])[1] = after
    return {k: v for k, v in spans.items() if v[0] != v[1]}


def can_fold(latest: Latest | None, *, author_id: int | None, number: int, now: datetime) -> bool:
    """Whether version `number`, a builder edit by `author_id`, folds into `latest`. Never
    into a keyframe or as one (their snapshot holds the whole deck at their own number), and
    never an anonymous edit (whose author could not be told apart)."""
    return (
        latest is not None
        and latest.open
        and author_id is not None
        and latest.author_id == author_id
        and latest.number == number - 1
        and now - latest.created_at <= FOLD_WINDOW
        and not latest.keyframe
        and not is_keyframe(number)
        and latest.steps is not None
        and len(latest.steps) < FOLD_STEPS_MAX
    )


def fold_or_record(
    *,
    deck: Deck,
    number: int,
    author: User | None,
    latest: Latest | None,
    changes: list[list[Any]],
    settings_changed: dict[str, list[Any]],
    kind: str,
    after: DeckState | None,
    now: datetime | None = None,
) -> None:
    """Record a builder edit (one step of `kind`) as version `number`: folded into `latest`
    (renumbered to `number`, its time now, the step added) when it may (can_fold), else a new
    open version. One query either way; `after` (the whole deck) only for a keyframe."""
    now = now or timezone.now()
    author_id = author.pk if author is not None and author.is_authenticated else None
    # `open=True` in the UPDATE itself: a checkpoint may have closed the version since
    # `latest` was read (it bumps no deck version, so the write's version check lets this
    # through); then this step starts a version of its own, as it would have.
    if (
        latest is not None
        and can_fold(latest, author_id=author_id, number=number, now=now)
        and DeckVersion.objects.filter(deck=deck, number=latest.number, open=True).update(
            number=number,
            created_at=now,
            changes=composed(latest.changes, changes),
            setting_changes=composed_settings(latest.setting_changes, settings_changed),
            steps=[*(latest.steps or []), [kind, changes]],
        )
    ):
        return
    record_version(
        deck=deck,
        number=number,
        author=author,
        before=None,
        after=after if is_keyframe(number) else None,
        changes=changes,
        settings_changed=settings_changed,
        kind=kind,
        open=True,
    )


@dataclass(frozen=True)
class UndoState:
    """What the builder's undo and redo would take back or put back, newest last, each as
    card changes; `blocked_by`: who changed the deck after the author's own changes."""

    undo: list[list[list[Any]]]
    redo: list[list[list[Any]]]
    blocked_by: str | None = None


def undo_state(deck: Deck, author: User) -> UndoState:
    """The author's undo and redo stacks, from the deck's latest UNDO_ROWS versions (one
    query): each step an edit pushes, an undo moves to redo, a redo moves back. A version by
    anyone else, or one undo cannot reach past (steps None), empties both: undo never takes
    back a change someone else's builds on."""
    rows = list(
        DeckVersion.objects.filter(deck=deck)
        .order_by("-number")
        .values_list("author_id", "author__username", "steps")[:UNDO_ROWS]
    )
    undo: list[list[list[Any]]] = []
    redo: list[list[list[Any]]] = []
    blocked: str | None = None
    for author_id, username, steps in reversed(rows):
        if author_id != author.pk or steps is None:
            undo, redo = [], []
            blocked = (username or "Someone") if author_id != author.pk else None
            continue
        for kind, changes in steps:
            if kind == UNDO and undo:
                redo.append(undo.pop())
            elif kind == REDO and redo:
                undo.append(redo.pop())
            elif kind == EDIT:
                undo.append(changes)
                redo = []
    return UndoState(undo, redo, blocked if not undo and not redo else None)
