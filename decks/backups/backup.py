"""Backups of what people made: their accounts, API tokens, printer offsets, decks and
collections (with who reads them and their pools).

A backup is a Django fixture, the JSON list `dumpdata` writes, with natural keys throughout:
users and groups by name, printer profiles by their user, decks by share key, deck entries by
(share key, card short id, zone), planned cards by (share key, short id), a deck's versions by
(share key, number), collection rows by (username, short id), shares by (owner, reader),
pools by their key, and the catalogue rows decks point at by game slug, (game slug, faction
slug) and short id. No integer key appears, so a backup restores into a fresh database whose
catalogue was loaded again (`load_games`, `import_cards`) and whose keys all differ. `manage.py
loaddata` can read it; `restore_backup` adds what loaddata lacks: the whole file is checked
against the catalogue first, every reference that does not resolve is named by line and field,
and the restore is one transaction.

The catalogue itself is not in a backup: it is rebuilt from its fixtures and import files.
Neither are background jobs (their results expire within hours) nor format settings (site
configuration, which `dumpdata decks.formatsetting --natural-foreign` covers).
"""

from __future__ import annotations

import datetime as dt
import gzip
import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth.models import Group, User
from django.core import serializers
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction
from rest_framework.authtoken.models import Token

from cardsite.cardlists.decklist import MAX_QUANTITY
from cardsite.catalogue.documents import DocumentError, Problem, Record, read_json_list
from cardsite.catalogue.models import Card, Faction, Game
from cardsite.collection.models import CollectionCard, CollectionShare, Pool, PoolMember
from decks.backups.collection import check_collections, clear_collections
from decks.backups.history import baselines, check_versions
from decks.models import Deck, DeckEntry, DeckVersion, MaybeEntry, PrintProfile
from decks.services.building import MAX_BUILT_DECKS, built_counts_locked
from decks.services.write import MAX_MAYBE

# In the order they are written and restored: everything a row points at comes before it.
MODELS: tuple[type[models.Model], ...] = (
    Group,
    User,
    Token,
    PrintProfile,
    Deck,
    DeckEntry,
    MaybeEntry,
    DeckVersion,
    CollectionCard,
    CollectionShare,
    Pool,
    PoolMember,
)
LABELS = tuple(model._meta.label_lower for model in MODELS)
_CHUNK = 900  # rows per query, under SQLite's limit on bound parameters


@dataclass
class BackupSummary:
    counts: dict[type[models.Model], int]

    def __str__(self) -> str:
        return ", ".join(
            f"{n} {model._meta.verbose_name if n == 1 else model._meta.verbose_name_plural}".lower()
            for model, n in self.counts.items()
        )


def _querysets() -> list[models.QuerySet]:
    # Related rows fetched up front: a natural key reads its row's relations, one query
    # each otherwise.
    return [
        Group.objects.prefetch_related("permissions__content_type").order_by("name"),
        User.objects.prefetch_related("groups", "user_permissions__content_type").order_by("pk"),
        Token.objects.select_related("user").order_by("user_id"),
        PrintProfile.objects.select_related("user").order_by("user_id"),
        Deck.objects.select_related("owner", "game", "faction__game", "forked_from").order_by("pk"),
        DeckEntry.objects.select_related("deck", "card").order_by("pk"),
        MaybeEntry.objects.select_related("deck", "card").order_by("pk"),
        DeckVersion.objects.select_related("deck", "author").order_by("deck_id", "number"),
        CollectionCard.objects.select_related("owner", "card").order_by("owner_id", "card_id"),
        CollectionShare.objects.select_related("owner", "reader").order_by("pk"),
        Pool.objects.select_related("created_by").order_by("pk"),
        PoolMember.objects.select_related("pool", "user", "invited_by").order_by("pk"),
    ]


class _Encoder(DjangoJSONEncoder):
    """DjangoJSONEncoder rounds times to the millisecond; a restored deck should say it was last
    changed exactly when it was."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime):
            return o.isoformat()
        return super().default(o)


def _chunks(items: Iterable[models.Model], size: int) -> Iterator[list[models.Model]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def write_backup(out: IO[str]) -> BackupSummary:
    """Every user, group, token, printer profile, deck, deck entry, planned card, deck
    version, collection row, share, pool and pool membership, as a fixture with natural keys,
    one object per line."""
    counts: dict[type[models.Model], int] = {}
    # The isolation level can only be set by a transaction's first statement, so not when the
    # caller (a test) already opened one around this.
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            # One snapshot for every table: a deck saved while the backup runs must not have
            # its entries written without the deck, or the backup would not restore. (SQLite's
            # read transaction is a snapshot already.)
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        out.write("[")
        first = True
        for queryset in _querysets():
            count = 0
            for chunk in _chunks(queryset.iterator(chunk_size=2000), 2000):
                for obj in serializers.serialize(
                    "python", chunk, use_natural_foreign_keys=True, use_natural_primary_keys=True
                ):
                    out.write("\n" if first else ",\n")
                    out.write(json.dumps(obj, cls=_Encoder, ensure_ascii=False))
                    first = False
                    count += 1
            counts[queryset.model] = count
        out.write("\n]\n")
    return BackupSummary(counts)


def read_backup(raw: bytes) -> list[Record]:
    """The objects of a backup file (gzipped or not), each with the line it starts on."""
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise DocumentError([Problem(None, "", f"not a readable gzip file: {exc}")]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DocumentError([Problem(line, "", "the file is not UTF-8 text")]) from None
    return read_json_list(text)


def _key(value: Any, size: int) -> tuple[str, ...] | None:
    """A natural key as the backup writes it (a list of `size` strings), or None."""
    if isinstance(value, list) and len(value) == size and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def check_backup(records: list[Record]) -> list[Problem]:
    """Everything in a backup that cannot be restored here, each with its line and field:
    above all, cards, games and factions the catalogue does not have."""
    problems: list[Problem] = []
    by_label: dict[str, list[tuple[Record, dict[str, Any]]]] = {label: [] for label in LABELS}
    for record in records:
        data = record.data
        if not isinstance(data, dict) or not isinstance(data.get("fields"), dict):
            problems.append(Problem(record.line, "", "expected an object with model and fields"))
        elif data.get("model") not in LABELS:
            problems.append(
                Problem(
                    record.line,
                    "model",
                    f"{data.get('model')!r} is not part of a deck backup "
                    f"(expected one of {', '.join(LABELS)})",
                )
            )
        else:
            by_label[data["model"]].append((record, data["fields"]))

    usernames = {f.get("username") for _, f in by_label["auth.user"]}
    deck_games = {f.get("share_key"): _key(f.get("game"), 1) for _, f in by_label["decks.deck"]}

    def wanted(label: str, field: str, size: int) -> set[tuple[str, ...]]:
        return {k for _, f in by_label[label] if (k := _key(f.get(field), size))}

    games = {g for (g,) in wanted("decks.deck", "game", 1)}
    known_games = set(Game.objects.filter(slug__in=games).values_list("slug", flat=True))
    factions = wanted("decks.deck", "faction", 2)
    known_factions = set(
        Faction.objects.filter(game__slug__in={g for g, _ in factions}).values_list(
            "game__slug", "slug"
        )
    )
    short_ids = [
        s for (s,) in wanted("decks.deckentry", "card", 1) | wanted("decks.maybeentry", "card", 1)
    ]
    card_games: dict[str, str] = {}
    for start in range(0, len(short_ids), _CHUNK):
        card_games.update(
            Card.objects.filter(short_id__in=short_ids[start : start + _CHUNK]).values_list(
                "short_id", "game__slug"
            )
        )
    owners = [
        u
        for (u,) in wanted("decks.deck", "owner", 1)
        | wanted("authtoken.token", "user", 1)
        | wanted("decks.printprofile", "user", 1)
        | wanted("decks.deckversion", "author", 1)
    ]
    known_users = usernames | set(
        User.objects.filter(username__in=[u for u in owners if u not in usernames]).values_list(
            "username", flat=True
        )
    )
    forked = [k for (k,) in wanted("decks.deck", "forked_from", 1) if k not in deck_games]
    known_decks = set(deck_games) | set(
        Deck.objects.filter(share_key__in=forked).values_list("share_key", flat=True)
    )

    def reference(
        record: Record, fields: dict[str, Any], name: str, size: int
    ) -> tuple[str, ...] | None:
        value = fields.get(name)
        key = _key(value, size)
        if key is None:
            what = "a name" if size == 1 else f"a list of {size} names"
            problems.append(
                Problem(record.line, f"fields.{name}", f"expected {what}, got {value!r}")
            )
        return key

    for record, fields in by_label["authtoken.token"] + by_label["decks.printprofile"]:
        if (user := reference(record, fields, "user", 1)) and user[0] not in known_users:
            problems.append(
                Problem(
                    record.line, "fields.user", f"no user {user[0]!r} in the backup or the database"
                )
            )
    for record, fields in by_label["decks.deck"]:
        if not isinstance(fields.get("share_key"), str):
            problems.append(Problem(record.line, "fields.share_key", "expected the share key"))
        if (owner := reference(record, fields, "owner", 1)) and owner[0] not in known_users:
            problems.append(
                Problem(
                    record.line,
                    "fields.owner",
                    f"no user {owner[0]!r} in the backup or the database",
                )
            )
        if (game := reference(record, fields, "game", 1)) and game[0] not in known_games:
            problems.append(
                Problem(record.line, "fields.game", f"the catalogue has no game {game[0]!r}")
            )
        if fields.get("faction") is not None:
            faction = reference(record, fields, "faction", 2)
            if faction and faction not in known_factions:
                problems.append(
                    Problem(
                        record.line,
                        "fields.faction",
                        f"the catalogue has no faction {faction[1]!r} in {faction[0]!r}",
                    )
                )
        if fields.get("forked_from") is not None:
            source = reference(record, fields, "forked_from", 1)
            if source and source[0] not in known_decks:
                problems.append(
                    Problem(
                        record.line,
                        "fields.forked_from",
                        f"no deck with share key {source[0]!r} in the backup or the database",
                    )
                )
    for record, fields in by_label["decks.deckentry"] + by_label["decks.maybeentry"]:
        deck = reference(record, fields, "deck", 1)
        if deck and deck[0] not in deck_games:
            problems.append(
                Problem(record.line, "fields.deck", f"no deck {deck[0]!r} in the backup")
            )
        card = reference(record, fields, "card", 1)
        if card is None:
            continue
        card_game = card_games.get(card[0])
        deck_game = deck_games.get(deck[0]) if deck else None
        if card_game is None:
            problems.append(
                Problem(
                    record.line,
                    "fields.card",
                    f"the catalogue has no card with the short id {card[0]!r}; load the "
                    "catalogue first (manage.py load_games, and import_cards for other sets)",
                )
            )
        elif deck and deck_game and card_game != deck_game[0]:
            problems.append(
                Problem(
                    record.line,
                    "fields.card",
                    f"card {card[0]!r} is a {card_game} card, but deck {deck[0]!r} "
                    f"is for {deck_game[0]}",
                )
            )
    problems += _check_built(by_label["decks.deck"])
    problems += _check_plans(by_label["decks.maybeentry"])
    deck_versions = {f.get("share_key"): f.get("version") for _, f in by_label["decks.deck"]}
    problems += check_versions(by_label["decks.deckversion"], deck_versions, known_users)
    problems += check_collections(by_label, usernames)
    return problems


def _built(fields: dict[str, Any]) -> bool:
    return fields.get("built_at") is not None and fields.get("deleted_at") is None


def _check_built(decks: list[tuple[Record, dict[str, Any]]]) -> list[Problem]:
    """A backup is refused when it holds more than MAX_BUILT_DECKS built decks of one user,
    on the line of the first one past it: the limit holds on a restore as on the site."""
    problems: list[Problem] = []
    counts: dict[tuple[str, ...], int] = {}
    for record, fields in decks:
        owner = _key(fields.get("owner"), 1)
        if owner is None or not _built(fields):
            continue
        counts[owner] = counts.get(owner, 0) + 1
        if counts[owner] == MAX_BUILT_DECKS + 1:
            problems.append(Problem(record.line, "fields.built_at", _too_many_built(owner[0])))
    return problems


def _check_plans(maybe: list[tuple[Record, dict[str, Any]]]) -> list[Problem]:
    """A deck's planned cards are held to the limits every write holds them to (MAX_MAYBE
    different cards, 1 to MAX_QUANTITY copies of each), so a restore cannot leave a plan that
    no write could make: each problem on the line of the row past the limit."""
    problems: list[Problem] = []
    counts: dict[tuple[str, ...], int] = {}
    for record, fields in maybe:
        quantity = fields.get("quantity")
        if isinstance(quantity, int) and not 1 <= quantity <= MAX_QUANTITY:
            problems.append(
                Problem(
                    record.line,
                    "fields.quantity",
                    f"A planned card's quantity is 1 to {MAX_QUANTITY}; this one is {quantity}.",
                )
            )
        deck = _key(fields.get("deck"), 1)
        if deck is None:
            continue
        counts[deck] = counts.get(deck, 0) + 1
        if counts[deck] == MAX_MAYBE + 1:
            problems.append(
                Problem(
                    record.line,
                    "fields.deck",
                    f"A deck plans at most {MAX_MAYBE} different cards; deck {deck[0]!r} "
                    "plans more.",
                )
            )
    return problems


def _too_many_built(username: str) -> str:
    return (
        f"{username!r} would have more than {MAX_BUILT_DECKS} decks built, the most at once "
        "(MAX_BUILT_DECKS); unbuild some (set built_at to null) and restore again"
    )


def _refuse_past_built_limit(records: list[Record]) -> None:
    """After the restore's rows are written, in its transaction: the owners of its built decks
    (locked, as building locks them) may not hold more than MAX_BUILT_DECKS built, counting the
    decks the database held already that the backup does not mention."""
    owners = {
        r.data["fields"]["owner"][0]
        for r in records
        if _is(r, "decks.deck") and _built(r.data["fields"])
    }
    if not owners:
        return
    ids = dict(User.objects.filter(username__in=owners).values_list("pk", "username"))
    over = [ids[pk] for pk, n in built_counts_locked(owner_ids=ids).items() if n > MAX_BUILT_DECKS]
    if over:
        raise DocumentError([Problem(None, "", _too_many_built(name)) for name in sorted(over)])


def restore_backup(records: list[Record]) -> BackupSummary:
    """Put back everything in a backup, in one transaction, or nothing (DocumentError).

    Rows are matched by natural key: a user, group or deck that exists is overwritten with the
    backup's copy, and a restored deck's cards, like a restored user's collection, are exactly
    the backup's. Nothing else the backup does not mention is deleted, except a user's API
    token when the backup holds another one (a user has one token). A restore that would
    leave a user more than MAX_BUILT_DECKS built decks is refused whole.
    """
    problems = check_backup(records)
    if problems:
        raise DocumentError(problems)
    counts = dict.fromkeys(MODELS, 0)
    by_label = {model._meta.label_lower: model for model in MODELS}
    current: Record | None = None
    try:
        with transaction.atomic():
            share_keys = [r.data["fields"]["share_key"] for r in records if _is(r, "decks.deck")]
            for start in range(0, len(share_keys), _CHUNK):
                for model in (DeckEntry, MaybeEntry, DeckVersion):
                    model.objects.filter(
                        deck__share_key__in=share_keys[start : start + _CHUNK]
                    ).delete()
            clear_collections(records)
            for record in records:
                if _is(record, "authtoken.token"):
                    fields = record.data["fields"]
                    Token.objects.filter(user__username=fields["user"][0]).exclude(
                        key=record.data.get("pk")
                    ).delete()
            objects = serializers.deserialize(
                "python", [r.data for r in records], handle_forward_references=True
            )
            deferred = []
            for record in records:
                current = record
                obj = next(objects)
                obj.save()
                if obj.deferred_fields:
                    deferred.append((record, obj))
                counts[by_label[record.data["model"]]] += 1
            for record, obj in deferred:
                current = record
                obj.save_deferred_fields()
            current = None  # what fails from here on fails at commit, on no one line
            counts[DeckVersion] += baselines(share_keys, records)
            _refuse_past_built_limit(records)
    except (DeserializationError, DatabaseError, ValidationError, ObjectDoesNotExist) as exc:
        detail = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
        raise DocumentError(
            [
                Problem(
                    current.line if current else None,
                    "",
                    f"the database refused this, so nothing was restored: {detail}",
                )
            ]
        ) from exc
    return BackupSummary(counts)


def _is(record: Record, label: str) -> bool:
    return record.data["model"] == label
