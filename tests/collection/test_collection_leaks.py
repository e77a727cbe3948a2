"""A collection is read by its owner and by the users it was shared or pooled with, and by
nobody else: every other reader, signed in or not, gets a 404 or an answer without it."""

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from cardsite.collection.models import Pool, PoolMember
from cardsite.collection.services import collection_set_quantity

pytestmark = pytest.mark.django_db
# A count nobody else holds, so it can be looked for in any answer.
SECRET_COUNT = 787


@pytest.fixture
def keeper_card():
    keeper = User.objects.create_user("keeper", password="x-Long-pass-9")
    card = Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort").first()
    collection_set_quantity(owner=keeper, card=card, quantity=SECRET_COUNT)
    return keeper, card


@pytest.fixture(params=["anonymous", "another user", "invited to a pool, not yet agreed"])
def stranger(request, keeper_card):
    api = APIClient()
    if request.param != "anonymous":
        snoop = User.objects.create_user("snoop", password="x-Long-pass-9")
        api.force_authenticate(snoop)
        api.force_login(snoop)
        if request.param.startswith("invited"):
            pool = Pool.objects.create(name="Table", created_by=keeper_card[0])
            PoolMember.objects.create(pool=pool, user=keeper_card[0], accepted_at=timezone.now())
            PoolMember.objects.create(pool=pool, user=snoop, invited_by=keeper_card[0])
    return api


def test_no_path_shows_a_collection_to_a_stranger(keeper_card, stranger):
    keeper, card = keeper_card
    assert stranger.get("/collection/keeper/").status_code == 404
    answers = [
        stranger.get("/collection/keeper/"),
        stranger.get("/api/v1/collection/", {"owner": "keeper"}),
        stranger.get("/api/v1/collection/export/", {"as": "csv", "owner": keeper.pk}),
        stranger.get("/collection/export/csv", {"owner": "keeper"}),
        stranger.get(card.get_absolute_url()),
        stranger.get("/search/", {"q": card.name, "view": "list"}),
    ]
    for answer in answers:
        assert str(SECRET_COUNT) not in answer.content.decode()


def test_the_owner_and_a_reader_it_was_shared_with_see_it(keeper_card):
    from cardsite.collection.models import CollectionShare

    keeper, _ = keeper_card
    reader = User.objects.create_user("friend", password="x-Long-pass-9")
    CollectionShare.objects.create(owner=keeper, reader=reader)
    for user in (keeper, reader):
        api = APIClient()
        api.force_login(user)
        assert str(SECRET_COUNT) in api.get("/collection/keeper/").content.decode()
