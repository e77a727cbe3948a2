"""The deck builder without JavaScript: every control is a form that works on its own."""

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card
from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def builder(client):
    user = User.objects.create_user("dana", password="x-Long-pass-9")
    client.force_login(user)
    return client


def make_deck(client, game_format="fate-foretold/nest", name="My Nest"):
    response = client.post("/decks/new/", {"name": name, "game_format": game_format})
    assert response.status_code == 302
    return Deck.objects.get(name=name)


def test_building_a_deck_needs_an_account(client):
    assert client.get("/decks/new/")["Location"].startswith("/accounts/login/")


def test_a_new_deck_starts_empty_and_opens_in_the_builder(builder):
    deck = make_deck(builder)
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert "No cards yet" in page and "not legal in Nest" in page


def test_searching_in_the_builder_uses_the_query_language_within_the_decks_game(builder):
    deck = make_deck(builder)
    page = builder.get(f"/decks/{deck.share_key}/edit/", {"q": "t:sigil"}).content.decode()
    assert "King" in page and "Queen" in page
    assert (
        "Galaxy"
        not in builder.get(f"/decks/{deck.share_key}/edit/", {"q": "galaxy"}).content.decode()
    )


def test_adding_and_removing_a_card_changes_the_deck_and_its_version(builder):
    deck = make_deck(builder)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    url = f"/decks/{deck.share_key}/edit/card/"
    builder.post(url, {"card": angel.short_id, "action": "add", "version": 1})
    builder.post(url, {"card": angel.short_id, "action": "add", "version": 2})
    deck.refresh_from_db()
    assert [(e.card.name, e.quantity, e.zone) for e in deck.entries.all()] == [
        ("The Angel", 2, "nest")
    ]
    assert deck.version == 3
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert "The Angel appears 2 times" in page
    builder.post(url, {"card": angel.short_id, "zone": "nest", "action": "remove", "version": 3})
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert "appears 2 times" not in page


def test_the_panel_alone_comes_back_for_htmx(builder):
    deck = make_deck(builder)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    response = builder.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": angel.short_id, "action": "add", "version": 1},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="deck-panel"') and "<html" not in html
    assert 'data-version="2"' in html


def test_an_edit_from_a_stale_page_is_refused_and_says_so(builder):
    deck = make_deck(builder)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    url = f"/decks/{deck.share_key}/edit/card/"
    builder.post(url, {"card": angel.short_id, "action": "add", "version": 1})
    response = builder.post(
        url, {"card": angel.short_id, "action": "add", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert "changed elsewhere" in response.content.decode()
    deck.refresh_from_db()
    assert deck.entries.get().quantity == 1


def test_pasting_a_decklist_replaces_the_cards_and_reports_unknown_ones(builder):
    deck = make_deck(builder)
    url = f"/decks/{deck.share_key}/edit/import/"
    response = builder.post(
        url, {"decklist": "1 The Angel\n1 The Angle\n", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert "did you mean The Angel" in response.content.decode()
    assert not deck.entries.exists()
    builder.post(url, {"decklist": "Nest:\n1 The Angel\nSigils:\n1 King\n", "version": 1})
    assert sorted(deck.entries.values_list("zone", flat=True)) == ["nest", "sigils"]


def test_settings_change_name_format_and_visibility(builder):
    deck = make_deck(builder, "conquest-alpha-tactics/targets", "T")
    builder.post(
        f"/decks/{deck.share_key}/edit/settings/",
        {"name": "Short", "format": "targets-short-2p", "visibility": "public", "version": 1},
    )
    deck.refresh_from_db()
    assert (deck.name, deck.format, deck.visibility) == ("Short", "targets-short-2p", "public")


def test_the_builder_of_someone_elses_deck_is_a_404(builder, client):
    deck = make_deck(builder)
    other = User.objects.create_user("eve", password="x-Long-pass-9")
    client.force_login(other)
    assert client.get(f"/decks/{deck.share_key}/edit/").status_code == 404


def test_a_public_deck_can_be_copied_from_its_page(builder, client):
    deck = make_deck(builder)
    deck.visibility = "public"
    deck.save()
    other = User.objects.create_user("finn", password="x-Long-pass-9")
    client.force_login(other)
    response = client.post(f"/decks/{deck.share_key}/fork/")
    copy = Deck.objects.get(owner=other)
    assert response["Location"] == f"/decks/{copy.share_key}/edit/"


def test_the_deck_page_shows_a_badge_for_every_format_of_its_game(builder):
    deck = make_deck(builder, "conquest-alpha-tactics/faction-deck", "Romulans")
    page = builder.get(f"/decks/{deck.share_key}/").content.decode()
    for name in ["Faction deck", "Target deck", "Short Game target deck, 2 players"]:
        assert f"{name}: not legal" in page


def test_the_curve_shows_the_games_main_number(builder):
    deck = make_deck(builder, "conquest-of-fates/standard", "Curve")
    for card in Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit")[:5]:
        builder.post(
            f"/decks/{deck.share_key}/edit/card/", {"card": card.short_id, "action": "add"}
        )
    assert (
        "Cards by Conquest Value" in builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    )
