"""A deck's versions: recording each save's changes, and rebuilding any version from them.

A deck's state is its cards, by (short id, zone), with the planned ("maybe") cards in the
zone MAYBE, and its settings. Every write that changes the state records one DeckVersion in
the same transaction as the version bump, so a write that loses a race records nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Subquery

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
) -> DeckVersion:
    """Record version `number` of `deck`. Give `before` and `after` (the whole states), or,
    for a one-card write, `before` may be None and `changes` given: then `after` is needed
    only when `number` is a keyframe (the caller checks `is_keyframe`)."""
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


def summary(changes: Iterable[list[Any]]) -> Summary:
    added = removed = changed = 0
    for _s, _z, before, after in changes:
        if not before:
            added += 1
        elif not after:
            removed += 1
        else:
            changed += 1
    return Summary(added, removed, changed)
