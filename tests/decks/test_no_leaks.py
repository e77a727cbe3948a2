"""A private deck exists for its owner only: every other reader, signed in or not, gets a 404
or an answer without it, on every path that reads decks."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_branch, deck_create

pytestmark = pytest.mark.django_db
SECRET = "Secret Strategy Zeta"


@pytest.fixture
def private_deck():
    owner = User.objects.create_user("keeper", password="x-Long-pass-9")
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=SECRET,
        visibility="private",
        intake=Intake(tuple([RequestedCard(3, None, card.short_id)])),
    )
    return deck, card


@pytest.fixture(params=["anonymous", "another user"])
def stranger(request):
    api = APIClient()
    if request.param == "another user":
        api.force_authenticate(User.objects.create_user("snoop", password="x-Long-pass-9"))
        api.force_login(User.objects.get(username="snoop"))
    return api


def test_private_decks_are_in_no_list_or_search(private_deck, stranger):
    deck, card = private_deck
    for params in (
        {},
        {"mine": "true"},
        {"game": "conquest-of-orion"},
        {"format": "constructed"},
        {"card": card.short_id},
        {"card": card.name},
    ):
        body = stranger.get("/api/v1/decks/", params)
        assert SECRET not in body.content.decode() and deck.share_key not in body.content.decode()
    assert SECRET not in stranger.get("/decks/").content.decode()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/decks/{id}/"),
        ("get", "/api/v1/decks/{id}/export/?as=text"),
        ("get", "/api/v1/decks/{id}/export/?as=json"),
        ("get", "/api/v1/decks/{id}/export/?as=code"),
        ("get", "/api/v1/decks/{id}/export/?as=tts"),
        ("get", "/api/v1/decks/{id}/proxies.pdf"),
        ("get", "/api/v1/decks/{id}/proxies.png?page=1"),
        ("post", "/api/v1/decks/{id}/goldfish/"),
        ("post", "/api/v1/decks/{id}/fork/"),
        ("get", "/api/v1/decks/{id}/versions/"),
        ("get", "/api/v1/decks/{id}/versions/1/"),
        ("get", "/api/v1/decks/{id}/diff/?from=1"),
        ("post", "/api/v1/decks/{id}/revert/"),
        ("get", "/api/v1/decks/{id}/variants/"),
        ("post", "/api/v1/decks/{id}/variants/"),
        ("get", "/api/v1/decks/compare/?a={id}&b={id}"),
        ("patch", "/api/v1/decks/{id}/"),
        ("delete", "/api/v1/decks/{id}/"),
        ("get", "/decks/{id}/"),
        ("get", "/decks/{id}/proxies.pdf"),
        ("get", "/decks/{id}/goldfish/"),
        ("get", "/decks/{id}/edit/"),
        ("post", "/decks/{id}/edit/maybe/"),
        ("get", "/decks/{id}/proxies/"),
        ("get", "/decks/{id}/proxies-preview.png"),
        ("get", "/decks/{id}/export.txt"),
        ("get", "/decks/{id}/export.json"),
        ("get", "/decks/{id}/og.png"),
        ("get", "/decks/{id}/tts.json"),
        ("get", "/decks/{id}/tts.json?expires=99999999999&sig=x"),
        ("get", "/decks/{id}/tts/00000000000000000000.png"),
        ("get", "/api/v1/decks/{id}/missing/"),
        ("post", "/api/v1/decks/{id}/build/"),
        ("delete", "/api/v1/decks/{id}/build/"),
        ("get", "/decks/{id}/missing.txt"),
        ("post", "/decks/{id}/build/"),
        ("get", "/decks/{id}/delete/"),
        ("post", "/decks/{id}/delete/"),
        ("get", "/decks/{id}/variants/"),
        ("post", "/decks/{id}/variants/"),
        ("get", "/decks/compare/?a={id}"),
        ("get", "/decks/compare/?a={id}&b={id}"),
        ("get", "/decks/compare/?b={id}&a=https://x.example/decks/{id}/"),
    ],
)
def test_every_path_to_a_private_deck_is_closed_to_strangers(private_deck, stranger, method, path):
    deck, _ = private_deck
    response = getattr(stranger, method)(path.format(id=deck.share_key), {}, format="json")
    assert response.status_code in (302, 401, 403, 404), (path, response.status_code)
    if response.status_code == 302:  # the builder sends strangers to log in, not to the deck
        assert "/accounts/login/" in response["Location"]
    assert SECRET.encode() not in response.content


def test_the_owner_still_reads_everything(private_deck):
    deck, _ = private_deck
    api = APIClient()
    api.force_authenticate(deck.owner)
    assert api.get(f"/api/v1/decks/{deck.share_key}/").json()["name"] == SECRET
    assert SECRET in api.get("/api/v1/decks/", {"mine": "true"}).content.decode()


@pytest.fixture
def public_deck():
    owner = User.objects.create_user("sharer", password="x-Long-pass-9")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Open Book",
        visibility="public",
    )


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_private_deck_compared_with_a_public_one_is_a_404_like_no_deck(
    private_deck, public_deck, stranger, side
):
    deck, _ = private_deck
    ids = {"a": public_deck.share_key, "b": public_deck.share_key, side: deck.share_key}
    hidden = stranger.get("/api/v1/decks/compare/", ids)
    missing = stranger.get("/api/v1/decks/compare/", {**ids, side: "no-such-deck-id"})
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content
    assert SECRET.encode() not in hidden.content


def test_a_private_variant_or_parent_is_never_named_to_others(private_deck, public_deck, stranger):
    deck, _ = private_deck
    # A public variant of the private deck (made while it was public), and a private variant
    # of the public deck: neither private deck shows through the public one.
    public_child = deck_branch(deck=deck, owner=deck.owner, name="Child in the open")
    Deck.objects.filter(pk=public_child.pk).update(visibility="public")
    hidden_child = deck_branch(deck=public_deck, owner=deck.owner, name=SECRET + " II")
    Deck.objects.filter(pk=hidden_child.pk).update(visibility="private")
    for path in (
        f"/api/v1/decks/{public_child.share_key}/",
        f"/api/v1/decks/{public_child.share_key}/versions/1/",
        f"/api/v1/decks/{public_deck.share_key}/variants/",
        "/api/v1/decks/",
    ):
        response = stranger.get(path)
        assert response.status_code == 200, path
        assert deck.share_key not in response.content.decode(), path
        assert hidden_child.share_key not in response.content.decode(), path
        assert SECRET not in response.content.decode(), path
