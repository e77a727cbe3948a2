"""Changing one card, field by field, with every change recorded: what proposals write when a
curator approves them, and what a curator's revert writes.

A change is named by the card CSV's column names (`name`, `type`, `factions`, a stat by its
key...), and checked by the importer's own checks (services/check.py), so a proposal, a file
and the admin refuse the same values with the same words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from cardsite.catalogue.card_fields import ENTRY_FIELDS, FIELDS, field_labels
from cardsite.catalogue.documents import (
    CSV_LIST_COLUMNS,
    LIST_SEPARATOR,
    Document,
    DocumentError,
    Record,
)
from cardsite.catalogue.models import Card, CardChange, CardSet, Game
from cardsite.catalogue.selectors import card_queryset, card_record
from cardsite.catalogue.services.check import CleanCard, check_document
from cardsite.catalogue.services.write import ImportSummary, write_cards
from cardsite.catalogue.versioning import catalogue_written
from engines.base import GameEngine
from engines.bounds import one_line, plain_text
from engines.errors import InputError

# Bounds on one change, documented in the Limits table (docs/pages/operations.md).
MAX_FIELDS = 60
MAX_LIST_ITEMS = 50
MAX_TEXT = 5_000
MAX_ENTRY = 2_000
# A tag, a comment or a doctype: card text is plain text, shown escaped, and a tag in it is
# a paste from a web page or an attempt to smuggle markup into exports other tools render.
_HTML = re.compile(r"<\s*[A-Za-z/!?]")

_LIST_FIELDS = CSV_LIST_COLUMNS - {"inferred"}
# The texts a card shows on several lines; every other text a change names is one line.
_MULTILINE = frozenset({"text", "flavour", "description", "rulings", "errata"})
_TEXT_LIMITS = {"name": 120, "artist": 120, "number": 16, "set": 20}


def card_values(card: Card) -> dict[str, Any]:
    """The card's editable values under their change names: its stats flattened to their
    keys, as the card CSV writes them."""
    return _values(card_record(card))


def _values(record: dict[str, Any]) -> dict[str, Any]:
    values = {key: record[key] for key in FIELDS}
    values.update(record["stats"])
    values["rulings"] = record["rulings"]
    values["errata"] = record["errata"]
    return values


@dataclass(frozen=True)
class FieldDiff:
    field: str
    label: str
    before: Any
    after: Any


@dataclass(frozen=True)
class CheckedEdit:
    """A change checked against the card as it is now: the record to write, and its diff."""

    clean: CleanCard
    before: dict[str, Any]
    after: dict[str, Any]
    diff: list[FieldDiff]


def _plain(field: str, value: Any, limit: int, *, bounded: bool = True) -> str:
    """`value` as text of at most `limit` characters, without HTML; a field of one line
    (a name, a number...) holds no line break, and the others have theirs written as "\\n".
    `bounded=False` (a revert, putting back a value the card had) keeps only the shape checks."""
    if not isinstance(value, str):
        raise InputError(field, f"must be text, got {type(value).__name__}")
    text = plain_text(value)
    if not bounded:
        return text
    if len(text) > limit:
        raise InputError(field, f"is longer than {limit:,} characters")
    if _HTML.search(text):
        raise InputError(field, "may not hold HTML: write the card's words as plain text")
    if field not in _MULTILINE and not one_line(text):
        raise InputError(field, "is one line: it may not hold a line break")
    return text


def _list(field: str, value: Any, bounded: bool) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [part for part in value.split(LIST_SEPARATOR)]
    if not isinstance(value, list):
        raise InputError(field, "must be a list of names, or names separated by ';'")
    if bounded and len(value) > MAX_LIST_ITEMS:
        raise InputError(field, f"may list at most {MAX_LIST_ITEMS} names, got {len(value):,}")
    return [n for n in (_plain(field, v, 120, bounded=bounded) for v in value) if n]


def _entry(field: str, value: Any, bounded: bool = True) -> dict[str, Any]:
    """A ruling or erratum to add: its text, or {text, date, source}."""
    if isinstance(value, str):
        value = {"text": value}
    if not isinstance(value, Mapping) or set(value) - {"text", "date", "source"}:
        raise InputError(field, "must be a text, or an object of text, date and source")
    text = _plain(field, value.get("text") or "", MAX_ENTRY, bounded=bounded)
    if not text:
        raise InputError(field, "needs a text")
    return {
        "date": value.get("date") or None,
        "text": text,
        "source": _plain(field, value.get("source") or "", MAX_ENTRY, bounded=bounded),
    }


def normalise_changes(engine: GameEngine, changes: Any, *, entries: str = "add") -> dict[str, Any]:
    """`changes` with every name known and every value in the shape the importer reads, or
    InputError naming the first field at fault. `entries="add"`: a ruling or erratum is one
    entry to add; `"replace"`: the whole list (what a revert writes)."""
    if not isinstance(changes, Mapping):
        raise InputError("changes", "must be an object of field: value")
    if len(changes) > MAX_FIELDS:
        raise InputError("changes", f"may name at most {MAX_FIELDS} fields")
    known = field_labels(engine)
    stats = {s.key: s for s in engine.stats}
    # A revert puts back what the card had, which may be more than a proposal may bring
    # (a rulebook card's 60 rulings): only the shape of its values is checked, and the
    # importer's own checks, which hold for every card.
    bounded = entries == "add"
    out: dict[str, Any] = {}
    for field, value in changes.items():
        if field not in known:
            raise InputError(
                field if isinstance(field, str) and len(field) <= 40 else "changes",
                f"no card of {engine.name} has this field; fields: {', '.join(known)}",
            )
        if field in stats:
            if value is None or (isinstance(value, str) and not value.strip()):
                out[field] = None
            elif isinstance(value, str):
                out[field] = stats[field].coerce(_plain(field, value, 40, bounded=bounded))
            else:
                out[field] = value
        elif field in _LIST_FIELDS:
            out[field] = _list(field, value, bounded)
        elif field in ENTRY_FIELDS:
            if entries == "add":
                out[field] = _entry(field, value)
            elif isinstance(value, list):
                out[field] = [_entry(field, v, bounded) for v in value]
            else:
                raise InputError(field, "must be a list of entries")
        else:
            limit = _TEXT_LIMITS.get(field, MAX_TEXT)
            out[field] = _plain(field, value or "", limit, bounded=bounded)
    return out


def _record(
    kept: dict[str, Any], before: dict[str, Any], after: dict[str, Any], engine: GameEngine
) -> dict[str, Any]:
    """The catalogue record for `after` (change names), keeping from `kept` (the card's
    record, or {} for a new card) what changes never touch."""
    stat_keys = {s.key for s in engine.stats}
    record = {k: v for k, v in after.items() if k not in stat_keys}
    record["stats"] = {k: v for k, v in after.items() if k in stat_keys and v is not None}
    for key in ("source", "notes", "short_id"):
        record[key] = kept.get(key, "")
    changed = {k for k, v in after.items() if before.get(k) != v}
    # A value somebody stated, with a source, is no longer inferred.
    record["inferred"] = [
        name for name in kept.get("inferred", []) if name.removeprefix("stats.") not in changed
    ]
    return record


def edit_check(
    *, game: Game, card: Card | None, changes: Mapping[str, Any], entries: str = "add"
) -> CheckedEdit:
    """Check `changes` to `card` (None: a new card) as the importer would check the record they
    make; InputError naming the field at fault. Writes nothing."""
    engine = game.engine
    wanted = normalise_changes(engine, changes, entries=entries)
    kept = card_record(card) if card is not None else {}
    before = _values(kept) if card is not None else {}
    after = dict(before)
    for field, value in wanted.items():
        if field in ENTRY_FIELDS and entries == "add":
            after[field] = [*before.get(field, []), value]
        elif value is None:
            after.pop(field, None)
        else:
            after[field] = value
    if card is None:
        for field in ("set", "number", "name"):
            if not after.get(field):
                raise InputError(field, "a new card needs a set, a number and a name")
    try:
        _, [clean] = check_document(
            game,
            engine,
            Document(
                sections={
                    **Document().sections,
                    "cards": [Record(None, _record(kept, before, after, engine))],
                }
            ),
        )
    except DocumentError as exc:
        problem = exc.problems[0]
        raise InputError(
            problem.field.removeprefix("stats.") or "changes", problem.message
        ) from None
    number = clean.values["number"]
    same_number = Card.objects.filter(game=game, card_set__code=clean.set_code, number=number)
    if card is not None:
        same_number = same_number.exclude(pk=card.pk)
    taken = same_number.first()
    if taken is not None:
        raise InputError("number", f"{clean.set_code} {number} is already {taken.name}")
    labels = field_labels(engine)
    diff = [
        FieldDiff(field, label, before.get(field), after.get(field))
        for field, label in labels.items()
        if before.get(field) != after.get(field) and (before.get(field) or after.get(field))
    ]
    return CheckedEdit(clean=clean, before=before, after=after, diff=diff)


def card_edit(
    *,
    game: Game,
    card: Card | None,
    changes: Mapping[str, Any],
    author: User | None,
    reviewer: User,
    source: Mapping[str, Any],
    proposal: int | None = None,
    entries: str = "add",
    reverts: CardChange | None = None,
) -> tuple[Card, list[CardChange]]:
    """Write `changes` to `card` (None: add it) in one transaction, record each changed field
    as a CardChange, and move the catalogue version so every process sees it next request.
    InputError, with nothing written, when the changes are not valid for the card as it is
    now. A card added this way is community-sourced."""
    with transaction.atomic():
        if card is not None:
            # Two approvals of the same card queue here, and the second checks its change
            # against what the first wrote.
            card = card_queryset().select_for_update(of=("self",)).get(pk=card.pk)
        checked = edit_check(game=game, card=card, changes=changes, entries=entries)
        if card is not None and not checked.diff:
            raise InputError("changes", "these changes leave the card as it is")
        summary = ImportSummary(game=game.slug)
        target: dict[tuple[int, str], Card] = {}
        if card is not None:
            # Its set or number may be what changes: the importer finds a card by them.
            card_set = CardSet.objects.get(game=game, code__iexact=checked.clean.set_code)
            card.card_set = card_set
            card.number = checked.clean.values["number"]
            target = {(card_set.id, card.number): card}
        try:
            written = write_cards(game, [checked.clean], summary, None, existing=target)
        except IntegrityError as exc:
            raise InputError("number", f"the database refused the card: {exc}") from None
        [card] = written
        now = timezone.now()
        if summary.created:
            Card.objects.filter(pk=card.pk).update(community="sourced")
            diff = [FieldDiff("card", "Card", None, checked.clean.values["name"]), *checked.diff]
        else:
            diff = checked.diff
        recorded = CardChange.objects.bulk_create(
            [
                CardChange(
                    card=card,
                    field=d.field,
                    before=d.before,
                    after=d.after,
                    author=author,
                    reviewer=reviewer,
                    source=dict(source),
                    proposal=proposal,
                    reverts=reverts,
                    at=now,
                )
                for d in diff
            ]
        )
        catalogue_written()
    return card, recorded


def card_change_revert(*, change: CardChange, reviewer: User) -> list[CardChange]:
    """Put the field `change` wrote back to what it was before, as a change of its own. The
    addition of a card is reverted by removing the card, which only a card no deck or
    collection holds can be. InputError when the value cannot be put back."""
    card = change.card
    source = {"kind": "revert", "text": f"Revert of change {change.pk}"}
    if change.field == "card":
        try:
            # The catalogue's delete signal moves the version.
            card.delete()
        except ProtectedError:
            raise InputError(
                "change", "the card is held in decks or collections, so it cannot be removed"
            ) from None
        return []
    if change.field == "art":
        raise InputError("change", "an image is replaced by approving another, not reverted")
    value = change.before
    _, recorded = card_edit(
        game=card.game,
        card=card,
        changes={change.field: value if value is not None else ""},
        author=None,
        reviewer=reviewer,
        source=source,
        entries="replace",
        reverts=change,
    )
    return recorded


def card_art_record(
    *,
    card: Card,
    stored_name: str,
    author: User,
    reviewer: User,
    source: Mapping[str, Any],
    proposal: int | None,
) -> CardChange:
    """Give `card` the image already stored as `stored_name`, recorded as a change."""
    with transaction.atomic():
        card = Card.objects.select_for_update().get(pk=card.pk)
        before = card.art.name or None
        Card.objects.filter(pk=card.pk).update(art=stored_name, updated_at=timezone.now())
        change = CardChange.objects.create(
            card=card,
            field="art",
            before=before,
            after=stored_name,
            author=author,
            reviewer=reviewer,
            source=dict(source),
            proposal=proposal,
            at=timezone.now(),
        )
        catalogue_written()
    return change


def card_confirm(*, card: Card, curator: User) -> Card:
    """A second curator confirms a community-sourced card. InputError when the card is not
    community-sourced, is confirmed already, or this curator approved its addition."""
    with transaction.atomic():
        card = Card.objects.select_for_update().get(pk=card.pk)
        if card.community != "sourced":
            raise InputError("card", "only a community-sourced card not yet confirmed can be")
        added = CardChange.objects.filter(card=card, field="card").first()
        if added is not None and curator.pk in (added.reviewer_id, added.author_id):
            raise InputError("card", "a second curator confirms: not who proposed or approved it")
        Card.objects.filter(pk=card.pk).update(community="confirmed", confirmed_by=curator)
        catalogue_written()
    card.refresh_from_db()
    return card


def set_check(*, game: Game, values: Mapping[str, Any]) -> dict[str, Any]:
    """A new set's code, name, release date and description, checked as the importer checks
    a set; InputError naming the field at fault, or a code the game has already."""
    if not isinstance(values, Mapping) or set(values) - {
        "code",
        "name",
        "release_date",
        "description",
    }:
        raise InputError("changes", "a set is given by code, name, release_date and description")
    clean: dict[str, str | None] = {
        k: _plain(k, values.get(k) or "", MAX_TEXT) for k in ("code", "name", "description")
    }
    clean["release_date"] = values.get("release_date") or None
    document = Document()
    document.sections["sets"].append(Record(None, clean))
    try:
        sections, _ = check_document(game, game.engine, document)
        [row] = sections["sets"]
    except DocumentError as exc:
        problem = exc.problems[0]
        raise InputError(problem.field or "changes", problem.message) from None
    if CardSet.objects.filter(game=game, code__iexact=row["code"]).exists():
        raise InputError("code", f"{game.name} has a set {row['code']} already")
    return {**clean, "code": row["code"], "release_date": row["release_date"]}


def card_set_add(*, game: Game, values: Mapping[str, Any]) -> CardSet:
    """Add an official set, as set_check checks it."""
    clean = set_check(game=game, values=values)
    # The catalogue's save signal moves the version.
    return CardSet.objects.create(game=game, is_official=True, **clean)
