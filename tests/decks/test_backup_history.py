"""A deck's history and planned cards in a backup: every version comes back as it was, into a
catalogue loaded afresh; a backup from before versions were kept gives each deck a baseline;
a history that cannot be read is refused by line and field, and nothing is restored.

The people, their decks and the helpers are those of test_backups.py."""

import json

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.documents import DocumentError
from cardsite.catalogue.models import Card
from decks.backups.backup import check_backup, read_backup, restore_backup
from decks.models import Deck, DeckVersion, MaybeEntry
from decks.services.history import state_at
from tests.decks import test_backups
from tests.decks.backup_support import (
    backup_by_command,
    delete_people,
    everything,
    read_backup_file,
    reload_catalogue,
    restore_by_command,
    run,
)

pytestmark = pytest.mark.django_db
# The same three people and six decks, with their histories and planned cards.
people = test_backups.people


def every_state() -> dict[str, dict[int, object]]:
    """Every kept version of every deck, rebuilt: {share key: {number: state}}."""
    return {
        deck.share_key: {
            n: state_at(deck, n) for n in deck.versions.values_list("number", flat=True)
        }
        for deck in Deck.objects.all()
    }


def test_every_version_of_every_deck_rebuilds_the_same_after_a_restore_into_a_fresh_catalogue(
    people, tmp_path
):
    states, before = every_state(), everything()
    assert sum(len(v) for v in states.values()) == 13
    path = tmp_path / "decks.json.gz"

    backup_by_command(path)
    delete_people(people)
    assert not DeckVersion.objects.exists() and not MaybeEntry.objects.exists()
    reload_catalogue()
    restore_by_command(path)

    assert every_state() == states
    # Notes, authors and times too, to the microsecond.
    assert {k: d["versions"] for k, d in everything()["decks"].items()} == {
        k: d["versions"] for k, d in before["decks"].items()
    }
    rush = Deck.objects.get(name="Dwarves rush, tuned")
    authors = [v.author.username if v.author else None for v in rush.versions.order_by("number")]
    assert authors == ["alice", None, "alice", "bob", "alice", None]
    assert rush.versions.get(number=5).note == "Reverted to version 3"


def test_an_old_backup_without_versions_restores_each_deck_with_a_baseline_version(
    people, tmp_path
):
    path = tmp_path / "decks.json"
    backup_by_command(path)
    before = everything()
    old = [
        o
        for o in read_backup_file(path)
        if o["model"] not in ("decks.deckversion", "decks.maybeentry")
    ]
    path.write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    delete_people(people)
    reload_catalogue()

    out = run("restore_decks", str(path))

    assert "0 maybe entries, 6 deck versions" in out
    for deck in Deck.objects.all():
        (baseline,) = deck.versions.all()
        assert (baseline.number, baseline.author, baseline.changes) == (
            deck.version,
            deck.owner,
            [],
        )
        assert baseline.created_at == deck.updated_at
        kept = before["decks"][deck.share_key]
        assert sorted(map(tuple, baseline.snapshot["cards"])) == kept["entries"]
        assert baseline.snapshot["settings"]["name"] == kept["name"]
        assert state_at(deck, deck.version).deck_cards() == {
            (s, z): q for s, z, q in kept["entries"]
        }
        # What came before the baseline was never in the backup, and is not made up.
        assert deck.version == 1 or not deck.versions.filter(number__lt=deck.version).exists()


def test_a_backup_whose_history_cannot_be_read_names_each_line_and_field_and_restores_nothing(
    people, tmp_path
):
    path = tmp_path / "decks.json"
    backup_by_command(path)
    objects = read_backup_file(path)
    delete_people(people)
    versions = [o["fields"] for o in objects if o["model"] == "decks.deckversion"]
    maybe = next(o["fields"] for o in objects if o["model"] == "decks.maybeentry")
    rush = next(o["fields"] for o in objects if o["fields"].get("name") == "Dwarves rush, tuned")
    rush_versions = [v for v in versions if v["deck"] == [rush["share_key"]]]
    orion_card = Card.objects.filter(game__slug="conquest-of-orion").first().short_id
    rush_versions[0]["snapshot"] = None  # the oldest: nothing to rebuild from
    rush_versions[1]["changes"] = [["abc", "battle", "1", 2]]
    rush_versions[2]["snapshot"] = {"cards": [["abc", 2]], "settings": {}}
    rush_versions[3]["author"] = ["nobody"]
    rush_versions[4]["number"] = 4  # twice
    rush_versions[5]["number"] = 99  # the deck is at version 6
    maybe["card"] = [orion_card]
    objects.append({"model": "decks.deckversion", "fields": {**versions[-1], "deck": ["gone"]}})
    objects.append(
        {
            "model": "decks.maybeentry",
            "fields": {"deck": ["gone"], "card": ["nocard"], "quantity": 1},
        }
    )
    text = "[\n" + ",\n".join(json.dumps(o) for o in objects) + "\n]\n"
    lines = {id(o): n for n, o in enumerate(objects, start=2)}  # one object per line, after "["

    problems = check_backup(read_backup(text.encode()))

    def line(fields):
        return next(lines[id(o)] for o in objects if o["fields"] is fields)

    found = {(p.line, p.field) for p in problems}
    assert found == {
        (line(rush_versions[0]), "fields.snapshot"),
        (line(rush_versions[1]), "fields.changes[0]"),
        (line(rush_versions[2]), "fields.snapshot.cards[0]"),
        (line(rush_versions[3]), "fields.author"),
        (line(rush_versions[4]), "fields.number"),
        (line(rush_versions[5]), "fields.number"),
        (line(maybe), "fields.card"),
        (len(objects), "fields.deck"),
        (len(objects) + 1, "fields.deck"),
        (len(objects) + 1, "fields.card"),
    }, problems
    messages = " | ".join(str(p) for p in problems)
    assert "must hold the whole deck" in messages and "has a version 4 already" in messages
    assert "past the deck's own version, 6" in messages
    assert f"card {orion_card!r} is a conquest-of-orion card" in messages
    with pytest.raises(DocumentError):
        restore_backup(read_backup(text.encode()))
    assert not User.objects.exists() and not DeckVersion.objects.exists()
