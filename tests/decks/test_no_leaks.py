"""A private deck exists for its owner only: every other reader, signed in or not, gets a 404
or an answer without it, on every path that reads decks."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import Resolver404, resolve
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard, CollectionShare
from cardsite.collection.selectors import can_read_collection
from cardsite.collection.services.pools import pool_create, pool_invite
from cardsite.collection.services.sharing import collection_share, collection_unshare
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
        ("get", "/embed/decks/{id}/"),
        ("get", "/oembed/?url=http://testserver/decks/{id}/"),
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


# Collections: a collection is readable by its owner, the users it is shared with and the
# members of a pool its owner accepted; by nobody else, on any path, page or API.
HOARD = 777  # an unusual quantity: any page or answer holding it shows the hoard


def _shows_hoard(content: bytes) -> bool:
    return re.search(rb"(?<![\w,.])777(?![\w,.])", content) is not None


@pytest.fixture
def hoard():
    """`keeper` owns 777 of one card, shares with `friend`, and pools with `partner`; their
    public deck holds that card and is built."""
    keeper = User.objects.create_user("keeper", password="x-Long-pass-9")
    card = Card.objects.filter(card_set__code="ORI-RB").exclude(name="Cloudglider").first()
    CollectionCard.objects.create(owner=keeper, card=card, quantity=HOARD)
    User.objects.create_user("friend", password="x-Long-pass-9")
    collection_share(owner=keeper, reader_username="friend")
    deck = deck_create(
        owner=keeper,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Shown deck",
        visibility="public",
        intake=Intake(tuple([RequestedCard(3, None, card.short_id)])),
    )
    Deck.objects.filter(pk=deck.pk).update(built_at=timezone.now())
    return keeper, card, deck


def _client(user: User | None) -> APIClient:
    api = APIClient()
    api.signed_in = user is not None
    if user is not None:
        api.force_authenticate(user)
        api.force_login(user)
    return api


@pytest.fixture(params=["anonymous", "another user", "invited to the pool", "share revoked"])
def outsider(request, hoard):
    keeper, _, _ = hoard
    if request.param == "anonymous":
        return _client(None)
    user = User.objects.create_user("outsider", password="x-Long-pass-9")
    if request.param == "invited to the pool":
        # Invited but never accepted: an invitation counts for nothing.
        pool_invite(
            pool=pool_create(user=keeper, name="Keeper's pool"), by=keeper, username=user.username
        )
    if request.param == "share revoked":
        collection_share(owner=keeper, reader_username=user.username)
        assert can_read_collection(owner=keeper, viewer=user)
        collection_unshare(owner=keeper, reader=user)
    assert not can_read_collection(owner=keeper, viewer=user)
    return _client(user)


@pytest.mark.parametrize(
    "path",
    [
        "/collection/keeper/",
        "/collection/",
        "/collection/sharing/",
        "/api/v1/collection/",
        "/api/v1/collection/?game=conquest-of-orion",
        "/api/v1/collection/?owner=keeper",
        "/api/v1/collection/export/?as=text",
        "/api/v1/collection/export/?as=csv",
        "/api/v1/collection/conflicts/",
        "/api/v1/collection/shares/",
        "/api/v1/collection/pool/",
        "/search/?q=own>=1",
        "/search/?q=is:owned",
        "/search/?q=own>=700",
        "/api/v1/cards/?q=own>=1",
        "/api/v1/cards/?q=is:owned",
        "/api/v1/cards/{card}/",
        "/cards/{card}/",
        "/decks/?buildable=1",
        "/decks/{deck}/",
        "/decks/{deck}/export.txt",
        "/api/v1/decks/{deck}/",
        "/api/v1/decks/{deck}/missing/",
        "/api/v1/decks/{deck}/export/?as=text",
    ],
)
def test_no_path_shows_a_collection_to_anyone_it_was_not_shared_with(hoard, outsider, path):
    _, card, deck = hoard
    response = outsider.get(path.format(card=card.short_id, deck=deck.share_key))
    assert response.status_code < 500, path
    assert not _shows_hoard(response.content), path
    # Signed in, the outsider owns nothing: no list of owned cards may name the hoard's card
    # (anonymously, `own` terms are dropped and every card may be listed).
    owned_list = path.startswith(("/collection/keeper", "/api/v1/collection/")) or "own" in path
    if owned_list and outsider.signed_in:
        assert card.name.encode() not in response.content, path


def test_a_pool_invitee_or_a_stranger_cannot_build_read_or_change_anothers_collection(
    hoard, outsider
):
    keeper, card, deck = hoard
    for method, path, body in (
        ("put", f"/api/v1/collection/cards/{card.pk}/", {"quantity": 0}),
        ("post", f"/api/v1/decks/{deck.share_key}/build/", {}),
        ("delete", f"/api/v1/decks/{deck.share_key}/build/", {}),
        ("delete", "/api/v1/collection/shares/friend/", {}),
    ):
        getattr(outsider, method)(path, body, format="json")
    assert CollectionCard.objects.get(owner=keeper, card=card).quantity == HOARD
    assert Deck.objects.get(pk=deck.pk).built_at is not None
    assert CollectionShare.objects.filter(owner=keeper, reader__username="friend").exists()


def test_a_reader_with_a_share_reads_the_collection_and_loses_it_when_revoked(hoard):
    keeper, _, _ = hoard
    friend = User.objects.get(username="friend")
    assert can_read_collection(owner=keeper, viewer=friend)
    collection_unshare(owner=keeper, reader=friend)
    assert not can_read_collection(owner=keeper, viewer=friend)
    try:
        resolve("/collection/keeper/")
    except Resolver404:
        pytest.skip("the collection page (/collection/<username>/) is not routed on this branch")
    collection_share(owner=keeper, reader_username="friend")
    reader = _client(friend)
    assert _shows_hoard(reader.get("/collection/keeper/").content)
    collection_unshare(owner=keeper, reader=friend)
    revoked = reader.get("/collection/keeper/")
    assert revoked.status_code in (403, 404)
    assert not _shows_hoard(revoked.content)


def test_a_reader_cannot_change_a_shared_collection(hoard):
    keeper, card, _ = hoard
    reader = _client(User.objects.get(username="friend"))
    reader.put(f"/api/v1/collection/cards/{card.pk}/", {"quantity": 1}, format="json")
    reader.post("/api/v1/collection/import/", {"text": f"5 {card.name}"}, format="json")
    assert list(CollectionCard.objects.filter(owner=keeper).values_list("quantity", flat=True)) == [
        HOARD
    ]
