"""MAX_BUILT_DECKS holds on every path that makes a deck built: building, restoring a deleted
deck (it comes back unbuilt at the limit, and the page says so), forking and reverting (never
built), and restoring a backup (refused past the limit, naming it)."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import (
    Intake,
    RequestedCard,
    deck_create,
    deck_delete,
    deck_fork,
    deck_restore,
    deck_revert,
    deck_update,
)
from decks.services.building import MAX_BUILT_DECKS, deck_build
from engines.errors import InputError

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", password="x-Long-pass-9")


def built_decks(owner, n, prefix="Built"):
    """`n` built decks of `owner`'s, written straight in: what the limit counts is rows."""
    game = Game.objects.get(slug=ORION)
    Deck.objects.bulk_create(
        Deck(
            owner=owner,
            game=game,
            format="constructed",
            name=f"{prefix} {i}",
            built_at=timezone.now(),
        )
        for i in range(n)
    )


def one_deck(owner, name="Spare"):
    card = Card.objects.filter(game__slug=ORION, card_set__is_official=False).order_by("id")[0]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug="constructed",
        name=name,
        intake=Intake((RequestedCard(2, None, card.short_id),)),
    )


def built_count(owner):
    return Deck.objects.filter(owner=owner, built_at__isnull=False, deleted_at__isnull=True).count()


def test_restoring_a_built_deck_at_the_limit_brings_it_back_unbuilt(alice):
    built_decks(alice, MAX_BUILT_DECKS - 1)
    first = deck_build(deck=one_deck(alice, "First"), user=alice)
    deck_delete(deck=first)
    deck_build(deck=one_deck(alice, "Second"), user=alice)
    restored = deck_restore(deck=Deck.objects.get(pk=first.pk), owner=alice)
    assert restored.deleted_at is None and restored.built_at is None
    assert Deck.objects.get(pk=first.pk).built_at is None
    assert built_count(alice) == MAX_BUILT_DECKS


def test_restoring_a_built_deck_under_the_limit_keeps_it_built(alice):
    first = deck_build(deck=one_deck(alice), user=alice)
    deck_delete(deck=first)
    deck_restore(deck=Deck.objects.get(pk=first.pk), owner=alice)
    assert Deck.objects.get(pk=first.pk).built_at is not None


def test_the_restore_button_at_the_limit_says_the_deck_came_back_unbuilt(client, alice):
    built_decks(alice, MAX_BUILT_DECKS - 1)
    first = deck_build(deck=one_deck(alice, "First"), user=alice)
    deck_delete(deck=first)
    deck_build(deck=one_deck(alice, "Second"), user=alice)
    client.force_login(alice)
    response = client.post(reverse("decks:restore", args=[first.share_key]), follow=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert "back unbuilt" in body and f"{MAX_BUILT_DECKS} decks built" in body
    assert built_count(alice) == MAX_BUILT_DECKS


def test_a_fork_or_a_variant_of_a_built_deck_starts_unbuilt(alice, django_user_model):
    built = deck_build(deck=one_deck(alice), user=alice)
    bob = django_user_model.objects.create_user("bob", password="x-Long-pass-9")
    Deck.objects.filter(pk=built.pk).update(visibility=Deck.Visibility.PUBLIC)
    assert deck_fork(deck=built, owner=bob).built_at is None
    assert deck_fork(deck=built, owner=alice).built_at is None


def test_reverting_a_deck_to_an_older_version_never_builds_it(alice):
    deck = one_deck(alice)
    deck = deck_update(deck=deck, expected_version=None, changes={"name": "Renamed"}, author=alice)
    deck_revert(deck=deck, expected_version=deck.version, version=1, author=alice)
    assert Deck.objects.get(pk=deck.pk).built_at is None


def test_building_at_the_limit_is_still_refused_naming_it(alice):
    built_decks(alice, MAX_BUILT_DECKS)
    with pytest.raises(InputError, match=f"{MAX_BUILT_DECKS} decks built"):
        deck_build(deck=one_deck(alice), user=alice)
    assert built_count(alice) == MAX_BUILT_DECKS


def _restore(path):
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was restored"):
        call_command("restore_decks", str(path), stdout=io.StringIO(), stderr=err)
    return err.getvalue()


def test_a_backup_holding_more_built_decks_than_the_limit_is_refused_naming_it(alice, tmp_path):
    built_decks(alice, MAX_BUILT_DECKS + 1)  # as an older site, with no limit, could hold
    path = tmp_path / "backup.json"
    call_command("backup_decks", str(path), stdout=io.StringIO())
    Deck.objects.all().delete()
    err = _restore(path)
    assert f"more than {MAX_BUILT_DECKS} decks built" in err and "fields.built_at" in err
    assert not Deck.objects.exists()


def test_a_backup_that_would_add_to_the_built_decks_there_past_the_limit_is_refused(
    alice, tmp_path
):
    built_decks(alice, MAX_BUILT_DECKS // 2, prefix="Backed up")
    path = tmp_path / "backup.json"
    call_command("backup_decks", str(path), stdout=io.StringIO())
    Deck.objects.all().delete()
    built_decks(alice, MAX_BUILT_DECKS // 2 + 1, prefix="Since")
    err = _restore(path)
    assert f"'alice' would have more than {MAX_BUILT_DECKS} decks built" in err
    assert not Deck.objects.filter(name__startswith="Backed up").exists()


def test_a_backup_at_the_limit_restores_every_deck_built(alice, tmp_path):
    built_decks(alice, MAX_BUILT_DECKS)
    path = tmp_path / "backup.json"
    call_command("backup_decks", str(path), stdout=io.StringIO())
    Deck.objects.all().delete()
    call_command("restore_decks", str(path), stdout=io.StringIO())
    assert built_count(alice) == MAX_BUILT_DECKS
