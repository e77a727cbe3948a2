"""A deck's end: a soft delete that hides it from every reader, a restore within 30 days, and a
purge after that which removes it, its entries and its pictures for good."""

import io
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.exports.images import deck_images_folder
from decks.models import DELETED_KEEP_DAYS, Deck, DeckEntry
from decks.reading.selectors import deck_for_reader, decks_deleted, decks_listed, deleted_deck_of
from decks.services import (
    Intake,
    RequestedCard,
    deck_create,
    deck_delete,
    deck_fork,
    deck_restore,
    decks_purge,
)
from engines.errors import InputError

pytestmark = pytest.mark.django_db
NAME = "Lost Fleet Omega"


@pytest.fixture
def owner():
    return User.objects.create_user("fleet", password="x-Long-pass-9")


@pytest.fixture
def card():
    return Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")


def make_deck(owner, card, visibility="public", name=NAME):
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake(tuple([RequestedCard(3, None, card.short_id)])),
    )


def deleted_days_ago(deck, days):
    deck_delete(deck=deck)
    Deck.objects.filter(pk=deck.pk).update(deleted_at=timezone.now() - timedelta(days=days))
    deck.refresh_from_db()
    return deck


def test_deleting_a_deck_hides_it_from_every_reader_without_changing_it(owner, card):
    deck = make_deck(owner, card)
    version, updated = deck.version, deck.updated_at
    deck_delete(deck=deck)
    stored = Deck.objects.get(pk=deck.pk)
    assert stored.deleted_at is not None
    assert (stored.version, stored.updated_at) == (version, updated)
    assert deck_for_reader(deck_id=deck.share_key, user=owner) is None
    assert not decks_listed(user=owner, mine=True).exists()
    assert not decks_listed().exists()
    assert not decks_listed(card=card.short_id).exists()
    assert [d.pk for d in decks_deleted(user=owner)] == [deck.pk]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/decks/{id}/"),
        ("get", "/api/v1/decks/{id}/export/?as=text"),
        ("get", "/api/v1/decks/{id}/proxies.pdf"),
        ("post", "/api/v1/decks/{id}/goldfish/"),
        ("post", "/api/v1/decks/{id}/fork/"),
        ("patch", "/api/v1/decks/{id}/"),
        ("delete", "/api/v1/decks/{id}/"),
        ("get", "/decks/{id}/"),
        ("get", "/decks/{id}/edit/"),
        ("get", "/decks/{id}/goldfish/"),
        ("get", "/decks/{id}/proxies.pdf"),
        ("get", "/decks/{id}/proxies/"),
        ("get", "/decks/{id}/proxies-preview.png"),
        ("get", "/decks/{id}/export.txt"),
        ("get", "/decks/{id}/export.json"),
        ("get", "/decks/{id}/og.png"),
        ("get", "/decks/{id}/delete/"),
    ],
)
def test_a_deleted_deck_is_a_404_on_every_path_even_for_its_owner(owner, card, method, path):
    deck = make_deck(owner, card)
    deck_delete(deck=deck)
    api = APIClient()
    api.force_authenticate(owner)
    api.force_login(owner)
    response = getattr(api, method)(path.format(id=deck.share_key), {}, format="json")
    assert response.status_code == 404, (path, response.status_code)
    assert NAME.encode() not in response.content


def test_a_deleted_deck_is_in_no_list_or_search(owner, card):
    deck = make_deck(owner, card)
    deck_delete(deck=deck)
    api = APIClient()
    api.force_authenticate(owner)
    for params in ({}, {"mine": "true"}, {"card": card.short_id}, {"card": card.name}):
        body = api.get("/api/v1/decks/", params).content.decode()
        assert NAME not in body and deck.share_key not in body
    assert NAME not in api.get("/decks/").content.decode()


def test_a_fork_stops_naming_its_source_while_the_source_is_deleted(owner, card):
    source = make_deck(owner, card)
    copy = deck_fork(deck=source, owner=User.objects.create_user("copier", password="x-Long-9"))
    api = APIClient()
    api.force_authenticate(copy.owner)
    url = f"/api/v1/decks/{copy.share_key}/"
    assert api.get(url).json()["forked_from"] == source.share_key
    deck_delete(deck=source)
    assert api.get(url).json()["forked_from"] is None
    deck_restore(deck=source, owner=owner)
    assert api.get(url).json()["forked_from"] == source.share_key


def test_a_deck_deleted_29_days_ago_is_restored_as_it_was(owner, card):
    deck = deleted_days_ago(make_deck(owner, card), 29)
    assert deck.days_left == 1
    deck_restore(deck=deck, owner=owner)
    restored = deck_for_reader(deck_id=deck.share_key, user=owner)
    assert restored is not None and restored.deleted_at is None
    assert restored.entries.get().quantity == 3
    assert not decks_deleted(user=owner)


def test_a_deck_deleted_31_days_ago_cannot_be_restored(owner, card):
    deck = deleted_days_ago(make_deck(owner, card), 31)
    with pytest.raises(InputError, match=f"more than {DELETED_KEEP_DAYS} days ago"):
        deck_restore(deck=deck, owner=owner)
    assert Deck.objects.get(pk=deck.pk).deleted_at is not None
    # Nor is it offered any more, though the daily purge has not removed it yet.
    assert not decks_deleted(user=owner)
    assert deleted_deck_of(deck_id=deck.share_key, user=owner) == deck


def test_only_its_owner_may_restore_a_deck(owner, card):
    deck = deleted_days_ago(make_deck(owner, card), 1)
    someone = User.objects.create_user("someone", password="x-Long-pass-9")
    with pytest.raises(InputError, match="owner"):
        deck_restore(deck=deck, owner=someone)
    assert deleted_deck_of(deck_id=deck.share_key, user=someone) is None


def test_the_purge_removes_decks_deleted_30_days_ago_with_their_entries_and_pictures(owner, card):
    old = deleted_days_ago(make_deck(owner, card, name="Old"), DELETED_KEEP_DAYS)
    recent = deleted_days_ago(make_deck(owner, card, name="Recent"), DELETED_KEEP_DAYS - 1)
    live = make_deck(owner, card, name="Live")
    fork = deck_fork(deck=old, owner=owner)
    pictures = deck_images_folder(old.share_key)
    pictures.mkdir(parents=True)
    (pictures / "og-0.png").write_bytes(b"png")

    assert decks_purge() == 1

    assert not Deck.objects.filter(pk=old.pk).exists()
    assert not DeckEntry.objects.filter(deck_id=old.pk).exists()
    assert not pictures.exists()
    assert set(Deck.objects.values_list("pk", flat=True)) == {recent.pk, live.pk, fork.pk}
    fork.refresh_from_db()
    assert fork.forked_from is None and fork.entries.count() == 1


def test_the_purge_works_through_a_backlog_in_batches(owner, card, monkeypatch):
    monkeypatch.setattr("decks.services.lifecycle.PURGE_BATCH", 2)
    for n in range(5):
        deleted_days_ago(make_deck(owner, card, name=f"Old {n}"), DELETED_KEEP_DAYS + 1)
    assert decks_purge() == 5
    assert not Deck.objects.exists()


def test_the_purge_decks_command_says_how_many_it_removed(owner, card):
    deleted_days_ago(make_deck(owner, card), DELETED_KEEP_DAYS + 5)
    out = io.StringIO()
    call_command("purge_decks", stdout=out)
    assert out.getvalue().strip() == "Purged 1 deleted deck."
    assert not Deck.objects.exists()


def test_celery_beat_purges_deleted_decks_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["purge-deleted-decks"]
    assert entry == {"task": "decks.tasks.purge_deleted_decks", "schedule": 86400.0}
    from decks.tasks import purge_deleted_decks

    assert purge_deleted_decks.name == entry["task"]
