"""Collections in a backup (decks/backups/backup.py): what people own, who reads it and their pools.

Rows are named by natural keys: a collection row by (username, card short id), a share by
(owner, reader), a pool by its key and a membership by (pool key, username). Before anything
is restored, every user, card and pool a row names must be in the backup or the database.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from cardsite.catalogue.documents import Problem, Record
from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard, Pool

LABELS = (
    "collection.collectioncard",
    "collection.collectionshare",
    "collection.pool",
    "collection.poolmember",
)
_CHUNK = 900  # names per query, under SQLite's limit on bound parameters


def _names(value: Any, size: int) -> tuple[str, ...] | None:
    if isinstance(value, list) and len(value) == size and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _existing(model: Any, field: str, wanted: set[str]) -> set[str]:
    found: set[str] = set()
    names = sorted(wanted)
    for start in range(0, len(names), _CHUNK):
        found.update(
            model.objects.filter(**{f"{field}__in": names[start : start + _CHUNK]}).values_list(
                field, flat=True
            )
        )
    return found


def check_collections(
    by_label: dict[str, list[tuple[Record, dict[str, Any]]]], usernames: set[Any]
) -> list[Problem]:
    """Each collection row, share, pool and membership names users, cards and pools that are
    in the backup or the database, and a quantity from 1 to 999."""
    problems: list[Problem] = []
    # (record, field, kind, name) for every reference, checked together below.
    refs: list[tuple[Record, str, str, str]] = []

    def ref(record: Record, fields: dict[str, Any], name: str, size: int, kind: str) -> None:
        value = fields.get(name)
        key = _names(value, size)
        if key is None:
            what = "a name" if size == 1 else f"a list of {size} names"
            problems.append(
                Problem(record.line, f"fields.{name}", f"expected {what}, got {value!r}")
            )
        else:
            refs.append((record, f"fields.{name}", kind, key[0]))

    for record, fields in by_label["collection.collectioncard"]:
        ref(record, fields, "owner", 1, "user")
        ref(record, fields, "card", 1, "card")
        quantity = fields.get("quantity")
        if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= 999:
            problems.append(
                Problem(record.line, "fields.quantity", f"expected 1 to 999, got {quantity!r}")
            )
    for record, fields in by_label["collection.collectionshare"]:
        ref(record, fields, "owner", 1, "user")
        ref(record, fields, "reader", 1, "user")
    for record, fields in by_label["collection.pool"]:
        if not isinstance(fields.get("key"), str):
            problems.append(Problem(record.line, "fields.key", "expected the pool's key"))
        if fields.get("created_by") is not None:
            ref(record, fields, "created_by", 1, "user")
    for record, fields in by_label["collection.poolmember"]:
        ref(record, fields, "pool", 1, "pool")
        ref(record, fields, "user", 1, "user")
        if fields.get("invited_by") is not None:
            ref(record, fields, "invited_by", 1, "user")

    wanted: dict[str, set[str]] = {"user": set(), "card": set(), "pool": set()}
    for _, _, kind, name in refs:
        wanted[kind].add(name)
    pools = {f.get("key") for _, f in by_label["collection.pool"]}
    known = {
        "user": set(usernames) | _existing(User, "username", wanted["user"] - set(usernames)),
        "card": _existing(Card, "short_id", wanted["card"]),
        "pool": pools | _existing(Pool, "key", wanted["pool"] - pools),
    }
    missing = {
        "user": "no user {!r} in the backup or the database",
        "card": "the catalogue has no card with the short id {!r}; load the catalogue first "
        "(manage.py load_games, and import_cards for other sets)",
        "pool": "no pool with the key {!r} in the backup or the database",
    }
    for record, field, kind, name in refs:
        if name not in known[kind]:
            problems.append(Problem(record.line, field, missing[kind].format(name)))
    return problems


def clear_collections(records: list[Record]) -> None:
    """Empty the collections of the users a backup holds, so that each is exactly the
    backup's once restored (as a restored deck's cards are)."""
    names = [
        r.data["fields"]["username"]
        for r in records
        if r.data["model"] == "auth.user" and isinstance(r.data["fields"].get("username"), str)
    ]
    for start in range(0, len(names), _CHUNK):
        CollectionCard.objects.filter(owner__username__in=names[start : start + _CHUNK]).delete()
