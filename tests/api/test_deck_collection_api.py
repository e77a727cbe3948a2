"""The API's side of decks against collections: what a deck lacks for the caller, building and
unbuilding, and the cards the caller's built decks compete for. Signed in only."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db


def cards(n):
    return list(
        Card.objects.filter(game__slug="conquest-of-orion", card_set__is_official=False).order_by(
            "id"
        )[:n]
    )


def make(owner, name, picks, visibility="public"):
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(n, None, c.short_id) for c, n in picks)),
    )


def signed_in(username):
    user = User.objects.create_user(username, password="x-Long-pass-9")
    api = APIClient()
    api.force_authenticate(user)
    return user, api


def test_missing_lists_each_card_lacking_by_short_id_name_and_quantity():
    alice, api = signed_in("alice")
    a, b = cards(2)
    deck = make(alice, "Half", [(a, 3), (b, 1)])
    CollectionCard.objects.create(owner=alice, card=a, quantity=1)
    body = api.get(f"/api/v1/decks/{deck.share_key}/missing/").json()
    assert body == {
        "missing": sorted(
            [
                {"card": a.short_id, "name": a.name, "quantity": 2},
                {"card": b.short_id, "name": b.name, "quantity": 1},
            ],
            key=lambda m: (m["name"], m["card"]),
        ),
        "buildable": False,
    }


def test_missing_is_for_signed_in_callers_only():
    alice, _ = signed_in("alice")
    deck = make(alice, "Public", [(cards(1)[0], 1)])
    assert APIClient().get(f"/api/v1/decks/{deck.share_key}/missing/").status_code in (401, 403)


def test_missing_of_someone_elses_private_deck_is_a_404():
    alice, _ = signed_in("alice")
    _, bob_api = signed_in("bob")
    deck = make(alice, "Secret", [(cards(1)[0], 1)], visibility="private")
    assert bob_api.get(f"/api/v1/decks/{deck.share_key}/missing/").status_code == 404


def test_build_and_unbuild_a_deck_you_own():
    alice, api = signed_in("alice")
    deck = make(alice, "Mine", [(cards(1)[0], 1)])
    response = api.post(f"/api/v1/decks/{deck.share_key}/build/")
    assert response.status_code == 200 and response.json()["built_at"]
    assert Deck.objects.get(pk=deck.pk).built_at is not None
    assert api.delete(f"/api/v1/decks/{deck.share_key}/build/").status_code == 204
    assert Deck.objects.get(pk=deck.pk).built_at is None


def test_building_someone_elses_readable_deck_is_a_403_and_a_private_one_a_404():
    alice, _ = signed_in("alice")
    _, bob_api = signed_in("bob")
    public = make(alice, "Public", [(cards(1)[0], 1)])
    private = make(alice, "Private", [(cards(1)[0], 1)], visibility="private")
    assert bob_api.post(f"/api/v1/decks/{public.share_key}/build/").status_code == 403
    assert bob_api.delete(f"/api/v1/decks/{public.share_key}/build/").status_code == 403
    assert bob_api.post(f"/api/v1/decks/{private.share_key}/build/").status_code == 404
    assert not Deck.objects.filter(built_at__isnull=False).exists()


def test_conflicts_list_each_over_used_card_with_the_decks_competing():
    alice, api = signed_in("alice")
    (a,) = cards(1)
    first = make(alice, "First", [(a, 3)])
    second = make(alice, "Second", [(a, 2)])
    CollectionCard.objects.create(owner=alice, card=a, quantity=4)
    for deck in (first, second):
        api.post(f"/api/v1/decks/{deck.share_key}/build/")
    assert api.get("/api/v1/collection/conflicts/").json() == {
        "count": 1,
        "results": [
            {
                "card": a.short_id,
                "name": a.name,
                "owned": 4,
                "needed": 5,
                "short": 1,
                "decks": [
                    {"id": first.share_key, "name": "First", "quantity": 3},
                    {"id": second.share_key, "name": "Second", "quantity": 2},
                ],
                "more_decks": 0,
                "other_members": False,
            }
        ],
    }
    api.delete(f"/api/v1/decks/{second.share_key}/build/")
    assert api.get("/api/v1/collection/conflicts/").json() == {"count": 0, "results": []}


def test_conflicts_are_for_signed_in_callers_only_and_never_name_anothers_decks():
    alice, api = signed_in("alice")
    _, bob_api = signed_in("bob")
    (a,) = cards(1)
    make(alice, "First", [(a, 3)])
    api.post(f"/api/v1/decks/{Deck.objects.get(name='First').share_key}/build/")
    assert APIClient().get("/api/v1/collection/conflicts/").status_code in (401, 403)
    assert bob_api.get("/api/v1/collection/conflicts/").json()["count"] == 0
    assert api.get("/api/v1/collection/conflicts/").json()["count"] == 1


def test_conflicts_cost_a_fixed_number_of_queries(django_assert_max_num_queries):
    alice, api = signed_in("alice")
    picks = cards(6)
    for i in range(5):
        deck = make(alice, f"Deck {i}", [(c, 3) for c in picks])
        api.post(f"/api/v1/decks/{deck.share_key}/build/")
    with django_assert_max_num_queries(9):
        body = api.get("/api/v1/collection/conflicts/").json()["results"]
    assert len(body) == 6 and all(len(c["decks"]) == 5 for c in body)
