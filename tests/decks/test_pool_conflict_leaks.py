"""Pooling shares copies of cards, never decks: a pool member's built deck the reader may not
see (private, unlisted, deleted) is never named, linked or counted out on any page or API
answer that shows built decks competing; it is only "another pool member's deck"."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard, Pool, PoolMember
from decks.models import Deck
from decks.reading.owning import built_conflicts
from decks.services import Intake, RequestedCard, deck_create
from decks.services.building import deck_build

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"


def make(owner, name, card, quantity, visibility):
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake((RequestedCard(quantity, None, card.short_id),)),
    )
    return deck_build(deck=deck, user=owner)


@pytest.fixture
def pool():
    """Alice and Bob pooled one copy of a card. Bob built a private, an unlisted and a (since
    deleted) deck of it, each taking a number of copies no other deck takes; Alice built one
    public deck of it."""
    alice = User.objects.create_user("alice", password="x-Long-pass-9")
    bob = User.objects.create_user("bob", password="x-Long-pass-9")
    group = Pool.objects.create(name="Tuesday group", created_by=alice)
    for user in (alice, bob):
        PoolMember.objects.create(pool=group, user=user, accepted_at=timezone.now())
    card = Card.objects.filter(game__slug=ORION, card_set__is_official=False).order_by("id")[0]
    CollectionCard.objects.create(owner=alice, card=card, quantity=1)
    mine = make(alice, "Alice Aggro", card, 2, "public")
    secret = make(bob, "Bob Secret Brew", card, 3, "private")
    unlisted = make(bob, "Bob Unlisted Tech", card, 4, "unlisted")
    gone = make(bob, "Bob Deleted Idea", card, 5, "private")
    Deck.objects.filter(pk=gone.pk).update(deleted_at=timezone.now())
    return {
        "alice": alice,
        "bob": bob,
        "card": card,
        "mine": mine,
        "hidden": [secret, unlisted, gone],
    }


def assert_hides(body, hidden):
    for deck in hidden:
        assert deck.name not in body
        assert deck.share_key not in body


def test_the_conflicts_api_names_another_members_private_or_unlisted_deck_only_as_theirs(pool):
    api = APIClient()
    api.force_authenticate(pool["alice"])
    response = api.get("/api/v1/collection/conflicts/")
    assert_hides(response.content.decode(), pool["hidden"])
    (conflict,) = response.json()["results"]
    # 2 (Alice) + 3 (private) + 4 (unlisted); the deleted deck takes nothing.
    assert (conflict["owned"], conflict["needed"], conflict["short"]) == (1, 9, 8)
    assert conflict["decks"] == [
        {"id": pool["mine"].share_key, "name": "Alice Aggro", "quantity": 2}
    ]
    assert conflict["more_decks"] == 0 and conflict["other_members"] is True


def test_the_collection_page_names_another_members_deck_only_as_theirs(client, pool):
    client.force_login(pool["alice"])
    body = client.get(reverse("collection:home")).content.decode()
    assert_hides(body, pool["hidden"])
    assert "Alice Aggro" in body and "another pool member&#x27;s deck" in body.replace(
        "'", "&#x27;"
    )
    assert "takes 3" not in body and "takes 4" not in body and "takes 5" not in body


@pytest.mark.parametrize("page", ["decks:deck", "decks:edit"])
def test_the_deck_page_and_builder_name_another_members_deck_only_as_theirs(client, pool, page):
    client.force_login(pool["alice"])
    body = client.get(reverse(page, args=[pool["mine"].share_key])).content.decode()
    assert_hides(body, pool["hidden"])
    assert "another pool member&#x27;s deck" in body.replace("'", "&#x27;")
    for quantity in (3, 4, 5):
        assert f"deck ({quantity})" not in body and f"deck&#x27;s deck ({quantity})" not in body


@pytest.mark.parametrize(
    "path", ["/api/v1/decks/{}/missing/", "/decks/{}/missing.txt", "/decks/{}/"]
)
def test_no_answer_about_a_deck_names_a_pool_members_hidden_deck(client, pool, path):
    client.force_login(pool["alice"])
    body = client.get(path.format(pool["mine"].share_key)).content.decode()
    assert_hides(body, pool["hidden"])


def test_the_owner_still_sees_their_own_private_and_unlisted_decks_named(pool):
    (conflict,) = built_conflicts(user=pool["bob"])
    assert [d.name for d, _ in conflict.decks] == [
        "Alice Aggro",
        "Bob Secret Brew",
        "Bob Unlisted Tech",
    ]
    assert not conflict.hidden
