"""Dump and restore of users' decks round-trips, into a catalogue loaded afresh.

Each test builds several users with decks in every game (public, unlisted and private, a fork,
cards in several zones, planned cards, a history of several versions with notes and a revert,
unicode everywhere), writes a real backup file, deletes the people, and
reloads the catalogue so that every game, faction and card comes back under a new integer key,
as in a fresh database. Only then is the backup restored.
"""

import gzip
import io
import json
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from cardsite.catalogue.models import Card, Faction, Game
from cardsite.collection.models import CollectionCard
from cardsite.collection.services.pools import pool_accept, pool_create, pool_invite
from cardsite.collection.services.sharing import collection_share
from decks.models import Deck, DeckEntry
from decks.services import (
    Intake,
    RequestedCard,
    deck_create,
    deck_fork,
    deck_revert,
    deck_set_quantity,
    deck_update,
    print_profile_set,
)
from tests.decks.backup_support import (
    backup_by_command,
    backup_by_dumpdata,
    delete_people,
    everything,
    read_backup_file,
    reload_catalogue,
    restore_by_command,
    restore_by_loaddata,
    run,
    to_milliseconds,
)

pytestmark = pytest.mark.django_db

UNICODE = "Élan vital — 🐉 ドラゴン, ½ \u2018quoted\u2019 ✓\nsecond line"


def requests(game: str, zones: dict[str, int]) -> list[RequestedCard]:
    """The first cards of each zone of a game, two or three of each, placed in that zone."""
    wanted = []
    for zone, count in zones.items():
        cards = Card.objects.filter(game__slug=game, card_type__zone=zone).order_by(
            "card_set__code", "number_sort", "number"
        )[:count]
        assert len(cards) == count, (game, zone)
        wanted += [RequestedCard(2 + i % 2, None, c.short_id, zone) for i, c in enumerate(cards)]
    return wanted


def first_faction(game: str) -> str:
    return Faction.objects.filter(game__slug=game).order_by("name").first().name


@pytest.fixture
def people():
    """Three people, a group, two API tokens and six decks across the five games."""
    moderators = Group.objects.create(name="Moderators")
    moderators.permissions.add(Permission.objects.get(codename="change_deck"))
    alice = User.objects.create_user(
        "alice", "alice@example.org", "wonderland-42", first_name="Alice"
    )
    bob = User.objects.create_user("bob", password="builder-42", last_name="Bâtisseur")
    bob.groups.add(moderators)
    zoe = User.objects.create_user("zoë", password="ünïcode-42", is_staff=True)
    zoe.user_permissions.add(Permission.objects.get(codename="view_deck"))
    Token.objects.create(user=alice)
    Token.objects.create(user=zoe)
    print_profile_set(user=zoe, back_offset_x=1.3, back_offset_y=-2.7)

    def game(slug):
        return Game.objects.get(slug=slug)

    rush = deck_create(
        owner=alice,
        game=game("conquest-for-the-capital"),
        format_slug="faction-deck",
        name="Dwarves rush",
        description=UNICODE,
        visibility="public",
        faction="Dwarves",
        intake=Intake(tuple(requests("conquest-for-the-capital", {"battle": 4, "upgrade": 3}))),
    )
    deck_update(deck=rush, expected_version=1, changes={"name": "Dwarves rush, tuned"})
    planned = requests("conquest-for-the-capital", {"battle": 6})[-2:]
    deck_update(
        deck=rush,
        expected_version=2,
        changes={},
        maybe={c.short_id: 2 for c in planned},
        author=alice,
        note=f"Planned: {UNICODE[:40]}",
    )
    deck_set_quantity(deck=rush, expected_version=3, card=planned[0].short_id, step=1, author=bob)
    deck_revert(deck=rush, expected_version=4, version=3, author=alice)
    deck_update(deck=rush, expected_version=5, changes={}, maybe={planned[1].short_id: 1})
    deck_create(
        owner=alice,
        game=game("fate-foretold"),
        format_slug="nest",
        name="Nest of sigils",
        visibility="unlisted",
        intake=Intake(tuple(requests("fate-foretold", {"nest": 5, "sigils": 2}))),
    )
    deck_create(
        owner=bob,
        game=game("conquest-alpha-tactics"),
        format_slug="faction-deck",
        name="Targets first",
        faction=first_faction("conquest-alpha-tactics"),
        intake=Intake(tuple(requests("conquest-alpha-tactics", {"main": 5, "targets": 3}))),
    )
    fork = deck_fork(deck=rush, owner=bob)
    deck_update(deck=fork, expected_version=1, changes={"description": "Bob\u2019s take ✓"})
    deck_update(deck=fork, expected_version=2, changes={"visibility": "unlisted"})
    deck_create(
        owner=zoe,
        game=game("conquest-of-orion"),
        format_slug="constructed",
        name="Orion, privately",
        description="日本語のデッキ",
        intake=Intake(tuple(requests("conquest-of-orion", {"main": 6}))),
    )
    deck_create(
        owner=zoe,
        game=game("conquest-of-fates"),
        format_slug="standard",
        name="Empty for now",
        visibility="public",
        intake=Intake(),
    )
    # Collections: alice owns cards and lets bob read them; zoë and alice pool, bob is invited.
    for quantity, card in zip((1, 3, 999), Card.objects.order_by("short_id")[:3], strict=True):
        CollectionCard.objects.create(owner=alice, card=card, quantity=quantity)
    CollectionCard.objects.create(owner=zoe, card=Card.objects.order_by("-short_id")[0], quantity=2)
    collection_share(owner=alice, reader_username="bob")
    pool = pool_create(user=zoe, name="Zoë's table ✓")
    pool_invite(pool=pool, by=zoe, username="alice")
    pool_accept(user=alice, pool=pool)
    pool_invite(pool=pool, by=alice, username="bob")
    return [alice, bob, zoe]


@pytest.mark.parametrize(
    ("backup", "restore", "name", "exact_times"),
    [
        (backup_by_command, restore_by_command, "decks.json.gz", True),
        (backup_by_dumpdata, restore_by_loaddata, "decks.json", False),
        (backup_by_command, restore_by_loaddata, "decks.json.gz", True),
    ],
    ids=["backup_decks and restore_decks", "dumpdata and loaddata", "backup_decks and loaddata"],
)
def test_people_and_decks_come_back_exactly_into_a_catalogue_loaded_afresh(
    people, tmp_path, backup, restore, name, exact_times
):
    before = everything()
    used = {short_id for deck in before["decks"].values() for short_id, _, _ in deck["entries"]}
    old_keys = dict(Card.objects.filter(short_id__in=used).values_list("short_id", "pk"))
    old_games = dict(Game.objects.values_list("slug", "pk"))
    path = tmp_path / name

    backup(path)
    delete_people(people)
    reload_catalogue()
    assert all(Card.objects.get(short_id=s).pk != pk for s, pk in old_keys.items())
    assert all(Game.objects.get(slug=s).pk != pk for s, pk in old_games.items())
    restore(path)

    after = everything()
    if exact_times:
        assert after == before
    else:  # dumpdata writes times to the millisecond
        assert to_milliseconds(after) == to_milliseconds(before)
    assert len(after["decks"]) == 6 and sum(len(d["entries"]) for d in after["decks"].values())
    assert sum(len(d["versions"]) for d in after["decks"].values()) == 13
    assert sum(len(d["maybe"]) for d in after["decks"].values()) == 1
    fork = next(d for d in after["decks"].values() if d["forked_from"])
    assert after["decks"][fork["forked_from"]]["name"] == "Dwarves rush, tuned"
    assert (fork["owner"], fork["version"], fork["visibility"]) == ("bob", 3, "unlisted")
    assert User.objects.get(username="alice").check_password("wonderland-42")
    assert after["printers"] == {"zoë": (Decimal("1.3"), Decimal("-2.7"))}
    assert [(o, q) for o, _, q, _ in after["collections"]] == [
        ("alice", 1),
        ("alice", 3),
        ("alice", 999),
        ("zoë", 2),
    ]
    assert [(o, r) for o, r, _ in after["shares"]] == [("alice", "bob")]
    (pool,) = after["pools"].values()
    assert [(u, accepted is not None) for u, _, accepted in pool[3]] == [
        ("alice", True),
        ("bob", False),
        ("zoë", True),
    ]


def test_a_backup_names_cards_by_short_id_and_nothing_by_integer_key(people, tmp_path):
    path = tmp_path / "decks.json.gz"
    out = run("backup_decks", str(path))

    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzipped, as the name asks
    assert "3 users, 2 tokens, 1 print profile, 6 decks, " in out
    objects = read_backup_file(path)
    assert not [o for o in objects if "pk" in o and o["model"] != "authtoken.token"]
    entries = [o["fields"] for o in objects if o["model"] == "decks.deckentry"]
    assert len(entries) == DeckEntry.objects.count()
    short_ids = set(Card.objects.values_list("short_id", flat=True))
    for entry in entries:
        assert isinstance(entry["card"], list) and len(entry["card"]) == 1
        assert entry["card"][0] in short_ids and len(entry["card"][0]) == 8
        assert isinstance(entry["deck"][0], str)
    rush = next(o["fields"] for o in objects if o["fields"].get("name") == "Dwarves rush, tuned")
    assert rush["game"] == ["conquest-for-the-capital"]
    assert rush["faction"] == ["conquest-for-the-capital", "dwarves"]
    assert rush["owner"] == ["alice"]
    assert rush["description"] == UNICODE  # written as itself, not as escapes
    assert "ドラゴン" in gzip.decompress(path.read_bytes()).decode("utf-8")


def test_a_restore_missing_a_card_in_the_catalogue_names_each_line_and_restores_nothing(
    people, tmp_path
):
    path = tmp_path / "decks.json"
    run("backup_decks", str(path))
    delete_people(people)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    entry = next(o for o in json.loads(text) if o["model"] == "decks.deckentry")
    short_id = entry["fields"]["card"][0]
    Card.objects.filter(short_id=short_id).delete()
    expected = [
        n
        for n, line in enumerate(lines, start=1)
        if '"decks.deckentry"' in line and f'"card": ["{short_id}"]' in line
    ]
    assert expected

    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was restored") as refusal:
        call_command("restore_decks", str(path), stdout=io.StringIO(), stderr=err)

    assert f"{len(expected)} problem(s)" in str(refusal.value)
    assert err.getvalue().splitlines() == [
        f"{path}: line {n}, fields.card: the catalogue has no card with the short id "
        f"'{short_id}'; load the catalogue first (manage.py load_games, and import_cards "
        "for other sets)"
        for n in expected
    ]
    assert not User.objects.exists() and not Deck.objects.exists()


def test_a_backup_the_database_refuses_at_its_last_row_restores_nothing_at_all(people, tmp_path):
    # The checks look at references, not values: a hand-edited quantity of 0 reaches the
    # database's own check, after every user, token, deck and other entry has been written
    # in the restore's transaction.
    path = tmp_path / "decks.json"
    run("backup_decks", str(path))
    delete_people(people)
    groups = set(Group.objects.values_list("name", flat=True))  # those migrations made
    lines = path.read_text(encoding="utf-8").splitlines()
    last = max(n for n, line in enumerate(lines) if '"decks.deckentry"' in line)
    lines[last] = (
        lines[last]
        .replace('"quantity": 2,', '"quantity": 0,')
        .replace('"quantity": 3,', '"quantity": 0,')
    )
    assert '"quantity": 0,' in lines[last]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was restored: 1 problem"):
        call_command("restore_decks", str(path), stdout=io.StringIO(), stderr=err)

    assert err.getvalue().startswith(
        f"{path}: line {last + 1}: the database refused this, so nothing was restored"
    )
    assert not User.objects.exists()
    assert set(Group.objects.values_list("name", flat=True)) == groups
    assert not Token.objects.exists()
    assert not Deck.objects.exists() and not DeckEntry.objects.exists()


def test_restoring_over_the_live_data_puts_restored_decks_back_and_keeps_newer_ones(
    people, tmp_path
):
    path = tmp_path / "decks.json.gz"
    run("backup_decks", str(path))
    before = everything()
    alice = people[0]
    rush = Deck.objects.get(name="Dwarves rush, tuned")
    deck_update(
        deck=rush,
        expected_version=rush.version,
        changes={"name": "Changed after the backup"},
        intake=Intake(tuple(requests("conquest-for-the-capital", {"battle": 1}))),
        maybe={},
    )
    deck_set_quantity(
        deck=rush,
        expected_version=rush.version,
        card=requests("conquest-for-the-capital", {"upgrade": 4})[-1].short_id,
        zone="maybe",
        step=1,
    )
    assert rush.versions.count() == 8
    Token.objects.filter(user=alice).delete()
    Token.objects.create(user=alice)
    newer = deck_create(
        owner=alice,
        game=Game.objects.get(slug="conquest-of-fates"),
        format_slug="standard",
        name="Made after the backup",
        intake=Intake(),
    )

    out = run("restore_decks", str(path))

    assert "3 users, 2 tokens, 1 print profile, 6 decks, " in out
    after = everything()
    assert after["decks"].pop(newer.share_key)["name"] == "Made after the backup"
    assert after == before


def test_a_collection_row_naming_an_unknown_card_user_or_pool_is_named_by_line(people, tmp_path):
    path = tmp_path / "decks.json"
    run("backup_decks", str(path))
    delete_people(people)
    objects = json.loads(path.read_text(encoding="utf-8"))
    row = next(o for o in objects if o["model"] == "collection.collectioncard")
    row["fields"].update(card=["NOSUCHID"], quantity=1000)
    share = next(o for o in objects if o["model"] == "collection.collectionshare")
    share["fields"]["reader"] = ["nobody"]
    member = next(o for o in objects if o["model"] == "collection.poolmember")
    member["fields"]["pool"] = ["no-such-pool"]
    path.write_text("[\n" + ",\n".join(json.dumps(o) for o in objects) + "\n]\n")

    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was restored"):
        call_command("restore_decks", str(path), stdout=io.StringIO(), stderr=err)

    problems = err.getvalue()
    line = 2 + objects.index(row)
    assert f"line {line}, fields.card: the catalogue has no card with the short id" in problems
    assert f"line {line}, fields.quantity: expected 1 to 999, got 1000" in problems
    assert f"line {2 + objects.index(share)}, fields.reader: no user 'nobody'" in problems
    assert f"line {2 + objects.index(member)}, fields.pool: no pool with the key" in problems
    assert not User.objects.exists() and not CollectionCard.objects.exists()


def test_restoring_a_user_makes_their_collection_exactly_the_backups(people, tmp_path):
    path = tmp_path / "decks.json.gz"
    run("backup_decks", str(path))
    alice = User.objects.get(username="alice")
    CollectionCard.objects.filter(owner=alice).delete()
    CollectionCard.objects.create(owner=alice, card=Card.objects.order_by("pk").last(), quantity=5)
    before = everything()["collections"]
    run("restore_decks", str(path))
    after = everything()["collections"]
    assert [q for o, _, q, _ in after if o == "alice"] == [1, 3, 999]
    assert [r for r in after if r[0] == "zoë"] == [r for r in before if r[0] == "zoë"]
