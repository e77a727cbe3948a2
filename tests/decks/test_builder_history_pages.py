"""The builder's undo, redo and checkpoint as plain forms: they work without JavaScript, from
the deck's history (so after any reload), and say why when they cannot."""

import pytest
from django.contrib.auth.models import User

from decks.models import Deck, DeckVersion
from decks.services import deck_set_quantity
from decks.services.history import NOTE_MAX
from tests.decks.test_builder_pages import make_deck, sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana(client):
    user = User.objects.create_user("dana", password="x-Long-pass-9")
    client.force_login(user)
    return user


def built(client):
    deck = make_deck(client, "conquest-of-orion/constructed", "Undo me")
    cards = list(sample("conquest-of-orion", card_type__name="Unit")[:2])
    for n, card in enumerate(cards, start=1):
        client.post(
            f"/decks/{deck.share_key}/edit/card/",
            {"card": card.short_id, "action": "add", "version": n},
        )
    return deck, cards


def test_the_builder_page_offers_undo_from_its_history_on_a_fresh_load(client, dana):
    deck, _ = built(client)
    page = client.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert 'id="undo" aria-label="Undo the last change to the cards"' in page
    assert 'id="undo" aria-label="Undo the last change to the cards" aria-keyshortcuts' in page
    assert 'data-undo="1" data-redo="0"' in page
    assert f'maxlength="{NOTE_MAX}"' in page


def test_undo_and_redo_without_javascript_come_back_to_the_builder(client, dana):
    deck, cards = built(client)
    response = client.post(f"/decks/{deck.share_key}/edit/undo/", {"version": 3})
    assert response.status_code == 302
    assert list(Deck.objects.get(pk=deck.pk).entries.values_list("card_id", flat=True)) == [
        cards[0].pk
    ]
    client.post(f"/decks/{deck.share_key}/edit/redo/", {"version": 4})
    assert Deck.objects.get(pk=deck.pk).entries.count() == 2
    # Both clicks, the undo and the redo are one folded version.
    assert DeckVersion.objects.filter(deck=deck).count() == 2


def test_an_undo_after_someone_elses_change_is_a_400_saying_who(client, dana):
    deck, cards = built(client)
    other = User.objects.create_user("sam", password="x-Long-pass-9")
    deck.refresh_from_db()
    deck_set_quantity(deck=deck, expected_version=3, card=cards[0].short_id, step=1, author=other)
    response = client.post(
        f"/decks/{deck.share_key}/edit/undo/", {"version": 4}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "sam changed this deck after your last change" in response.content.decode()
    assert Deck.objects.get(pk=deck.pk).version == 4


def test_a_checkpoint_closes_the_fold_and_a_note_too_long_is_refused(client, dana):
    deck, cards = built(client)
    url = f"/decks/{deck.share_key}/edit/checkpoint/"
    refused = client.post(url, {"note": "x" * (NOTE_MAX + 1), "version": 3}, HTTP_HX_REQUEST="1")
    assert refused.status_code == 400 and f"at most {NOTE_MAX}" in refused.content.decode()
    saved = client.post(url, {"note": "first draft", "version": 3}, HTTP_HX_REQUEST="true")
    assert "Checkpoint saved: version 3" in saved.content.decode()
    assert DeckVersion.objects.get(deck=deck, number=3).note == "first draft"
    client.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": cards[0].short_id, "action": "add", "version": 3},
    )
    assert list(DeckVersion.objects.filter(deck=deck).values_list("number", flat=True)) == [
        4,
        3,
        1,
    ]


def test_no_one_else_may_undo_or_checkpoint_a_deck(client, dana):
    deck, _ = built(client)
    client.force_login(User.objects.create_user("eve", password="x-Long-pass-9"))
    for action in ("undo", "redo", "checkpoint"):
        response = client.post(f"/decks/{deck.share_key}/edit/{action}/", {"version": 3})
        assert response.status_code == 404
