"""Deleting a deck from its pages (asking first), My decks' Recently deleted list, and Undo."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_create, deck_delete

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("tidy", password="x-Long-pass-9")


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def make_deck(owner, name="Spring Cleaning"):
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=name,
        visibility="public",
        intake=Intake(tuple([RequestedCard(2, None, card.short_id)])),
    )


def test_the_delete_button_leads_to_a_page_that_asks_first(signed_in, owner):
    deck = make_deck(owner)
    page = signed_in.get(deck.get_absolute_url()).content.decode()
    assert f'href="/decks/{deck.share_key}/delete/"' in page
    assert '<dialog id="delete-dialog"' in page
    asked = signed_in.get(f"/decks/{deck.share_key}/delete/")
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Delete Spring Cleaning?" in text
    assert "You can restore it from" in text and "for 30 days" in text
    assert f'action="/decks/{deck.share_key}/delete/"' in text
    assert f'href="{deck.get_absolute_url()}">Cancel' in text
    assert Deck.objects.get(pk=deck.pk).deleted_at is None


def test_cancelling_from_the_builder_goes_back_to_the_builder(signed_in, owner):
    deck = make_deck(owner)
    edit = signed_in.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert f'href="/decks/{deck.share_key}/delete/?from=edit"' in edit
    asked = signed_in.get(f"/decks/{deck.share_key}/delete/?from=edit").content.decode()
    assert f'href="/decks/{deck.share_key}/edit/">Cancel' in asked


def test_deleting_leads_to_my_decks_with_an_undo_button(signed_in, owner):
    deck = make_deck(owner)
    response = signed_in.post(f"/decks/{deck.share_key}/delete/")
    assert response.status_code == 302
    assert response["Location"] == f"/decks/mine/?deleted={deck.share_key}"
    assert Deck.objects.get(pk=deck.pk).deleted_at is not None
    page = signed_in.get(response["Location"]).content.decode()
    assert "Deleted “Spring Cleaning”." in page
    assert f'action="/decks/{deck.share_key}/restore/"' in page
    assert ">Undo</button>" in page


def test_my_decks_lists_recently_deleted_decks_with_date_days_left_and_restore(signed_in, owner):
    kept = make_deck(owner, "Still Here")
    gone = make_deck(owner, "Gone Away")
    deck_delete(deck=gone)
    Deck.objects.filter(pk=gone.pk).update(deleted_at=timezone.now() - timedelta(days=10))
    other = make_deck(User.objects.create_user("other", password="x-Long-pass-9"), "Not Mine")
    deck_delete(deck=other)
    page = signed_in.get("/decks/mine/").content.decode()
    listed, deleted = page.split("Recently deleted", 1)
    assert "Still Here" in listed and "Gone Away" not in listed
    assert "Gone Away" in deleted and "Not Mine" not in deleted
    when = (timezone.now() - timedelta(days=10)).strftime("%-d %b %Y")
    assert when in deleted
    assert '<td data-label="Days left">20</td>' in deleted
    assert 'aria-label="Restore Gone Away"' in deleted
    assert kept.share_key not in deleted


def test_my_decks_has_no_recently_deleted_section_when_nothing_was_deleted(signed_in, owner):
    make_deck(owner)
    assert "Recently deleted" not in signed_in.get("/decks/mine/").content.decode()


def test_restoring_brings_the_deck_back_and_says_so(signed_in, owner):
    deck = make_deck(owner)
    deck_delete(deck=deck)
    response = signed_in.post(f"/decks/{deck.share_key}/restore/")
    assert response["Location"] == f"/decks/mine/?restored={deck.share_key}"
    page = signed_in.get(response["Location"]).content.decode()
    assert f'Restored <a href="{deck.get_absolute_url()}">Spring Cleaning</a>' in page
    assert "Recently deleted" not in page
    assert signed_in.get(deck.get_absolute_url()).status_code == 200
    # Undo pressed twice: the deck is simply back.
    assert signed_in.post(f"/decks/{deck.share_key}/restore/").status_code == 302


def test_a_deck_deleted_31_days_ago_cannot_be_restored_from_the_page(signed_in, owner):
    deck = make_deck(owner)
    deck_delete(deck=deck)
    Deck.objects.filter(pk=deck.pk).update(deleted_at=timezone.now() - timedelta(days=31))
    response = signed_in.post(f"/decks/{deck.share_key}/restore/")
    assert response.status_code == 400
    assert "more than 30 days ago and can no longer be restored" in response.content.decode()
    assert Deck.objects.get(pk=deck.pk).deleted_at is not None


def test_nobody_else_can_delete_or_restore_a_deck(client, owner):
    deck = make_deck(owner)
    client.force_login(User.objects.create_user("intruder", password="x-Long-pass-9"))
    assert client.get(f"/decks/{deck.share_key}/delete/").status_code == 404
    assert client.post(f"/decks/{deck.share_key}/delete/").status_code == 404
    deck_delete(deck=deck)
    assert client.post(f"/decks/{deck.share_key}/restore/").status_code == 404
    assert Deck.objects.get(pk=deck.pk).deleted_at is not None


def test_signed_out_visitors_are_sent_to_log_in_and_restoring_takes_a_post(client, owner):
    deck = make_deck(owner)
    for url in (f"/decks/{deck.share_key}/delete/", f"/decks/{deck.share_key}/restore/"):
        response = client.post(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(owner)
    assert client.get(f"/decks/{deck.share_key}/restore/").status_code == 405
