"""What the backup tests share: the whole state of people and their decks, read by natural
keys only, and the ways a backup is written and restored (commands, dumpdata, loaddata)."""

import gzip
import io
import json

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard, CollectionShare, Pool
from decks.models import Deck, PrintProfile


def everything() -> dict:
    """All the people, their tokens, groups and decks, keyed and linked by natural keys only."""
    return {
        "users": {
            u.username: {
                "password": u.password,
                "email": u.email,
                "names": (u.first_name, u.last_name),
                "flags": (u.is_active, u.is_staff, u.is_superuser),
                "date_joined": u.date_joined,
                "last_login": u.last_login,
                "groups": sorted(g.name for g in u.groups.all()),
                "permissions": sorted(p.codename for p in u.user_permissions.all()),
            }
            for u in User.objects.all()
        },
        "groups": {
            g.name: sorted(p.codename for p in g.permissions.all()) for g in Group.objects.all()
        },
        "tokens": {t.user.username: (t.key, t.created) for t in Token.objects.all()},
        "printers": {
            p.user.username: (p.back_offset_x, p.back_offset_y) for p in PrintProfile.objects.all()
        },
        "decks": {
            d.share_key: {
                "owner": d.owner.username,
                "game": d.game.slug,
                "format": d.format,
                "faction": d.faction.slug if d.faction else None,
                "name": d.name,
                "description": d.description,
                "visibility": d.visibility,
                "version": d.version,
                "forked_from": d.forked_from.share_key if d.forked_from else None,
                "parent_version": d.parent_version,
                "created_at": d.created_at,
                "updated_at": d.updated_at,
                "entries": sorted(
                    (e.card.short_id, e.zone, e.quantity) for e in d.entries.select_related("card")
                ),
                "maybe": sorted(
                    (m.card.short_id, m.quantity) for m in d.maybe.select_related("card")
                ),
                "versions": [
                    (
                        v.number,
                        v.author.username if v.author else None,
                        v.created_at,
                        v.note,
                        v.changes,
                        v.setting_changes,
                        v.snapshot,
                    )
                    for v in d.versions.select_related("author").order_by("number")
                ],
            }
            for d in Deck.objects.select_related("owner", "game", "faction", "forked_from")
        },
        "collections": sorted(
            (c.owner.username, c.card.short_id, c.quantity, c.updated_at)
            for c in CollectionCard.objects.select_related("owner", "card")
        ),
        "shares": sorted(
            (s.owner.username, s.reader.username, s.created_at)
            for s in CollectionShare.objects.select_related("owner", "reader")
        ),
        "pools": {
            p.key: (
                p.name,
                p.created_by.username if p.created_by else None,
                p.created_at,
                sorted(
                    (
                        m.user.username,
                        m.invited_by.username if m.invited_by else None,
                        m.accepted_at,
                    )
                    for m in p.members.select_related("user", "invited_by")
                ),
            )
            for p in Pool.objects.select_related("created_by")
        },
    }


def to_milliseconds(value):
    """`everything()` with every time cut to the millisecond, as dumpdata writes them."""
    if isinstance(value, dict):
        return {k: to_milliseconds(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return type(value)(to_milliseconds(v) for v in value)
    if hasattr(value, "microsecond"):
        return value.replace(microsecond=value.microsecond // 1000 * 1000)
    return value


def delete_people(people):
    User.objects.filter(pk__in=[p.pk for p in people]).delete()
    Group.objects.filter(name="Moderators").delete()
    Pool.objects.all().delete()  # a pool outlives its maker's account (created_by is nulled)
    assert not Deck.objects.exists() and not Token.objects.exists()
    assert not CollectionCard.objects.exists() and not CollectionShare.objects.exists()
    assert not PrintProfile.objects.exists()


def reload_catalogue() -> None:
    """As in a fresh database: the catalogue deleted and loaded again under new keys."""
    Card.objects.all().delete()
    Game.objects.all().delete()
    call_command("load_games", stdout=io.StringIO())


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def backup_by_command(path):
    run("backup_decks", str(path))


def restore_by_command(path):
    run("restore_decks", str(path))


def backup_by_dumpdata(path):
    run(
        "dumpdata",
        "auth.group",
        "auth.user",
        "authtoken.token",
        "decks.printprofile",
        "decks.deck",
        "decks.deckentry",
        "decks.maybeentry",
        "decks.deckversion",
        "collection.collectioncard",
        "collection.collectionshare",
        "collection.pool",
        "collection.poolmember",
        natural_foreign=True,
        natural_primary=True,
        output=str(path),
    )


def restore_by_loaddata(path):
    run("loaddata", str(path))


def read_backup_file(path) -> list[dict]:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
