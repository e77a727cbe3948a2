"""A deck's history in a backup (decks/backups/backup.py): checking the versions a backup holds
before anything is restored, and a baseline version for decks restored from a backup made
before versions were kept."""

from __future__ import annotations

from typing import Any

from cardsite.catalogue.documents import Problem, Record
from decks.models import Deck, DeckVersion
from decks.services.history import NOTE_MAX, deck_state

_CHUNK = 900  # decks per query, under SQLite's limit on bound parameters


def _name(value: Any) -> str | None:
    """A one-name natural key as a backup writes it (["share key"], ["username"]), or None."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
        return value[0]
    return None


def check_versions(
    rows: list[tuple[Record, dict[str, Any]]],
    deck_versions: dict[Any, Any],
    known_users: set[Any],
) -> list[Problem]:
    """Each version's deck is in the backup and its author is known; its number is one the
    deck has reached and appears once; its JSON has the shape decks.services.history reads;
    and each deck's oldest version holds the whole deck, which every later one is rebuilt
    from."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    oldest: dict[str, tuple[int, Record, bool]] = {}
    for record, fields in rows:
        deck, number = _name(fields.get("deck")), fields.get("number")
        if deck is None:
            problems.append(
                Problem(record.line, "fields.deck", f"expected a name, got {fields.get('deck')!r}")
            )
        elif deck not in deck_versions:
            problems.append(Problem(record.line, "fields.deck", f"no deck {deck!r} in the backup"))
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            problems.append(
                Problem(record.line, "fields.number", f"expected a number from 1, got {number!r}")
            )
        elif deck is not None and deck in deck_versions:
            at = deck_versions[deck]
            if isinstance(at, int) and number > at:
                problems.append(
                    Problem(
                        record.line,
                        "fields.number",
                        f"version {number} is past the deck's own version, {at}",
                    )
                )
            if (deck, number) in seen:
                problems.append(
                    Problem(
                        record.line,
                        "fields.number",
                        f"deck {deck!r} has a version {number} already",
                    )
                )
            seen.add((deck, number))
            if deck not in oldest or number < oldest[deck][0]:
                oldest[deck] = (number, record, fields.get("snapshot") is not None)
        author = fields.get("author")
        if author is not None:
            username = _name(author)
            if username is None:
                problems.append(
                    Problem(record.line, "fields.author", f"expected a name, got {author!r}")
                )
            elif username not in known_users:
                problems.append(
                    Problem(
                        record.line,
                        "fields.author",
                        f"no user {username!r} in the backup or the database",
                    )
                )
        note = fields.get("note", "")
        if not isinstance(note, str) or len(note) > NOTE_MAX:
            problems.append(
                Problem(
                    record.line, "fields.note", f"expected a text of at most {NOTE_MAX} characters"
                )
            )
        problems += [Problem(record.line, f, m) for f, m in _version_shape(fields)]
    for deck_key, (number, record, whole) in oldest.items():
        if not whole:
            problems.append(
                Problem(
                    record.line,
                    "fields.snapshot",
                    f"version {number} is the oldest of deck {deck_key!r}, so it must hold "
                    "the whole deck (its snapshot)",
                )
            )
    return problems


def _is_quantity(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _version_shape(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for each part of a version's JSON that is not as history.py writes
    it: changes [[short_id, zone, before, after], ...], setting_changes {name: [before,
    after]}, snapshot null or {"cards": [[short_id, zone, quantity], ...], "settings": {}}."""
    out: list[tuple[str, str]] = []
    changes = fields.get("changes", [])
    if not isinstance(changes, list):
        out.append(("fields.changes", "expected a list of [short id, zone, before, after]"))
        changes = []
    for i, line in enumerate(changes):
        if not (
            isinstance(line, list)
            and len(line) == 4
            and all(isinstance(v, str) for v in line[:2])
            and all(_is_quantity(v) for v in line[2:])
        ):
            out.append(
                (f"fields.changes[{i}]", f"expected [short id, zone, before, after], got {line!r}")
            )
    settings = fields.get("setting_changes", {})
    if not isinstance(settings, dict) or not all(
        isinstance(v, list) and len(v) == 2 for v in settings.values()
    ):
        out.append(("fields.setting_changes", "expected {setting: [before, after]}"))
    snapshot = fields.get("snapshot")
    if snapshot is None:
        return out
    if not (
        isinstance(snapshot, dict)
        and isinstance(snapshot.get("cards"), list)
        and isinstance(snapshot.get("settings"), dict)
    ):
        out.append(("fields.snapshot", 'expected null or {"cards": [...], "settings": {...}}'))
        return out
    for i, line in enumerate(snapshot["cards"]):
        if not (
            isinstance(line, list)
            and len(line) == 3
            and all(isinstance(v, str) for v in line[:2])
            and _is_quantity(line[2])
            and line[2] > 0
        ):
            out.append(
                (
                    f"fields.snapshot.cards[{i}]",
                    f"expected [short id, zone, quantity], got {line!r}",
                )
            )
    return out


def baselines(share_keys: list[str], records: list[Record]) -> int:
    """A baseline version for each restored deck the backup gives no version of (a backup
    from before versions were kept), as migration 0006 gave every deck then: the deck as it
    is, at the version it is at, and nothing made up before it. A history is never empty."""
    with_versions = {
        r.data["fields"]["deck"][0] for r in records if r.data["model"] == "decks.deckversion"
    }
    bare = [k for k in share_keys if k not in with_versions]
    made = 0
    for start in range(0, len(bare), _CHUNK):
        decks = Deck.objects.filter(share_key__in=bare[start : start + _CHUNK]).select_related(
            "faction"
        )
        versions = []
        for deck in decks:
            state = deck_state(deck)
            versions.append(
                DeckVersion(
                    deck=deck,
                    number=deck.version,
                    created_at=deck.updated_at,
                    author_id=deck.owner_id,
                    snapshot={
                        "cards": [[s, z, q] for (s, z), q in sorted(state.cards.items())],
                        "settings": dict(state.settings),
                    },
                )
            )
        DeckVersion.objects.bulk_create(versions)
        made += len(versions)
    return made
