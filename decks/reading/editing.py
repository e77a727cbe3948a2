"""The builder's one read before a +/-: the deck, its cards with the copies its owner's
collection holds of each, and its latest version (what folding needs), in ONE query.

A +/- is the commonest request there is, and issue 28 bounds it at 6 queries in all: the
session, the user, this read, the version bump, the card's row and the version's record.
So the entries and the collection come back as one JSON array per deck (json_group_array
on SQLite, json_agg on PostgreSQL), and the latest version as subqueries of the same SELECT.
The collection's rule (the owner's copies, or their accepted pool's) is the one
cardsite.collection.selectors.collection_owner_ids applies, written here in SQL; a test
(tests/decks/test_builder_speed.py) holds the two to the same answers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC
from functools import lru_cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import ForeignKey, Model
from django.db.models.expressions import Col
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard, PoolMember
from decks.models import Deck, DeckEntry, DeckVersion
from decks.services.history import Latest
from decks.services.intake import Intake, RequestedCard


@dataclass(frozen=True)
class EditRead:
    """The deck as a +/- finds it: `intake` its cards, `owned` copies held by short id (of
    the cards in it), `latest` its latest version (None before any was kept)."""

    deck: Deck
    intake: Intake
    owned: dict[str, int]
    latest: Latest | None


def _held_sql(card: str) -> str:
    """The copies of card `card` (an SQL expression) the deck owner's collection holds."""
    owned = CollectionCard._meta.db_table
    return (
        f'SELECT COALESCE(SUM(o.quantity), 0) FROM "{owned}" o '
        f"WHERE o.card_id = {card} AND o.owner_id IN ({_owners_sql()})"
    )


def _owners_sql() -> str:
    """The deck owner, and every member of the pool they accepted (the first one, by id)."""
    member = PoolMember._meta.db_table
    deck = Deck._meta.db_table
    return (
        f'SELECT "{deck}"."owner_id" UNION SELECT m2.user_id FROM "{member}" m2 '
        f"WHERE m2.accepted_at IS NOT NULL AND m2.pool_id = (SELECT m1.pool_id FROM "
        f'"{member}" m1 WHERE m1.user_id = "{deck}"."owner_id" AND m1.accepted_at IS NOT NULL '
        f"ORDER BY m1.id LIMIT 1)"
    )


def _entries_sql() -> str:
    entry = DeckEntry._meta.db_table
    card = Card._meta.db_table
    deck = Deck._meta.db_table
    # The copies held, per row: measured against one sum for all the deck's cards joined
    # in, the per-row lookup (by index) was the faster on SQLite.
    held = _held_sql("e.card_id")
    row = f"e.card_id, c.short_id, e.quantity, e.zone, ({held})"
    if connection.vendor == "postgresql":
        items = f"COALESCE(json_agg(json_build_array({row}) ORDER BY e.zone, e.id), '[]'::json)"
    else:
        # SQLite aggregates in the order rows come: the subquery orders them.
        items = f"json_group_array(json_array({row}))"
    source = (
        f'(SELECT * FROM "{entry}" e0 WHERE e0.deck_id = "{deck}"."id" ORDER BY e0.zone, e0.id)'
        if connection.vendor != "postgresql"
        else f'"{entry}"'
    )
    return (
        f"SELECT {items} FROM {source} e "
        f'INNER JOIN "{card}" c ON c.id = e.card_id WHERE e.deck_id = "{deck}"."id"'
    )


def _latest_sql() -> str:
    """The deck's latest version as one JSON array of LATEST_FIELDS: one column to compile,
    where eight subqueries cost more to build than to run."""
    version = DeckVersion._meta.db_table
    deck = Deck._meta.db_table
    if connection.vendor == "postgresql":
        row = (
            "json_build_array(v.number, v.author_id, v.created_at, v.open, "
            "v.snapshot IS NOT NULL, v.changes, v.setting_changes, v.steps)"
        )
    else:
        row = (
            "json_array(v.number, v.author_id, v.created_at, v.open, v.snapshot IS NOT NULL, "
            "json(v.changes), json(v.setting_changes), json(v.steps))"
        )
    return (
        f'SELECT {row} FROM "{version}" v WHERE v.deck_id = "{deck}"."id" '
        "ORDER BY v.number DESC LIMIT 1"
    )


def _latest(raw: Any) -> Latest | None:
    if raw is None:
        return None
    number, author_id, created, open_, keyframe, changes, settings, steps = (
        json.loads(raw) if isinstance(raw, str) else raw
    )
    when = parse_datetime(created)
    if when is None:
        raise ValueError(f"a version's time unread: {created!r}")
    if timezone.is_naive(when):
        when = timezone.make_aware(when, UTC)
    return Latest(
        number, author_id, when, bool(open_), bool(keyframe), changes or [], settings or {}, steps
    )


# The models read with the deck, by its foreign key (None: the deck itself), and how each is
# joined: the faction is optional.
_READ: tuple[tuple[str | None, str], ...] = (
    (None, ""),
    ("owner", "INNER"),
    ("game", "INNER"),
    ("faction", "LEFT"),
)


def _foreign_key(name: str) -> ForeignKey[Any, Any]:
    field = Deck._meta.get_field(name)
    assert isinstance(field, ForeignKey)
    return field


@dataclass(frozen=True)
class _Part:
    """One model's columns in the read: where they are in a row and how each is converted."""

    relation: str | None
    model: type[Model]
    start: int
    names: tuple[str, ...]
    columns: tuple[Col, ...]
    converters: tuple[tuple[Any, ...], ...]


def _edit_read(connection: BaseDatabaseWrapper) -> tuple[str, tuple[_Part, ...]]:
    """The read's SQL and its parts, built once per database (`_built`): building the ORM's
    query for every +/- cost more than running it."""
    return _built(connection.alias)


@lru_cache(maxsize=8)
def _built(alias: str) -> tuple[str, tuple[_Part, ...]]:
    """Keyed by the database, not by its connection object: a threaded server opens a new
    connection object in every request's thread, so a cache by connection missed on every
    +/- there and kept each dead connection alive. The converters are those of the first
    connection to ask, which read only settings every connection to the database shares,
    and each is called with the connection at hand (_instance)."""
    connection = connections[alias]
    deck = Deck._meta.db_table
    select: list[str] = []
    joins: list[str] = []
    parts: list[_Part] = []
    for relation, join in _READ:
        model = Deck if relation is None else _foreign_key(relation).related_model
        assert isinstance(model, type) and issubclass(model, Model)
        alias = deck if relation is None else f"r_{relation}"
        fields = model._meta.concrete_fields
        columns = tuple(f.get_col(alias) for f in fields)
        parts.append(
            _Part(
                relation,
                model,
                len(select),
                tuple(f.attname for f in fields),
                columns,
                tuple(
                    tuple(connection.ops.get_db_converters(c) + c.get_db_converters(connection))
                    for c in columns
                ),
            )
        )
        select.extend(f'"{alias}"."{f.column}"' for f in fields)
        if relation is not None:
            key = _foreign_key(relation).column
            joins.append(
                f'{join} JOIN "{model._meta.db_table}" "{alias}" '
                f'ON "{alias}"."{model._meta.pk.column}" = "{deck}"."{key}"'
            )
    card_by_id = f'(SELECT c.id FROM "{Card._meta.db_table}" c WHERE c.short_id = %s)'
    select += [f"({_entries_sql()})", f"({_held_sql(card_by_id)})", f"({_latest_sql()})"]
    sql = (
        f'SELECT {", ".join(select)} FROM "{deck}" {" ".join(joins)} '
        f'WHERE "{deck}"."share_key" = %s AND "{deck}"."owner_id" = %s '
        f'AND "{deck}"."deleted_at" IS NULL ORDER BY "{deck}"."id" LIMIT 1'
    )
    return sql, tuple(parts)


def _instance(part: _Part, row: tuple[Any, ...], db: BaseDatabaseWrapper) -> Model | None:
    """One model of the row, its values converted as the ORM converts them."""
    values = list(row[part.start : part.start + len(part.names)])
    if values[0] is None:  # a deck without a faction
        return None
    for i, (column, converters) in enumerate(zip(part.columns, part.converters, strict=True)):
        for convert in converters:
            values[i] = convert(values[i], column, db)
    return part.model.from_db(db.alias, list(part.names), values)


def deck_for_edit(*, deck_id: str, user: Any, card: str = "") -> EditRead | None:
    """The user's own (not deleted) deck with this id, read for a +/- of `card` (a short id:
    its copies held are read too, for a card not yet in the deck); None if there is none of
    theirs."""
    db = connections[DEFAULT_DB_ALIAS]
    sql, parts = _edit_read(db)
    with db.cursor() as cursor:
        cursor.execute(sql, [card, deck_id, user.id])
        found = cursor.fetchone()
    if found is None:
        return None
    deck = _instance(parts[0], found, db)
    assert isinstance(deck, Deck)
    for part in parts[1:]:
        assert part.relation is not None
        _foreign_key(part.relation).set_cached_value(deck, _instance(part, found, db))
    raw, card_held, latest = found[-3:]
    rows = json.loads(raw) if isinstance(raw, str) else (raw or [])
    owned: dict[str, int] = {}
    cards = []
    for pk, short_id, quantity, zone, held in rows:
        cards.append(RequestedCard(quantity=quantity, short_id=short_id, zone=zone, pk=pk))
        owned[short_id] = int(held)
    if card:
        owned.setdefault(card, int(card_held or 0))
    return EditRead(
        deck=deck,
        intake=Intake(tuple(cards)),
        owned=owned,
        latest=_latest(latest),
    )
