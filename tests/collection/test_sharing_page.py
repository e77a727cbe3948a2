"""/collection/sharing/: who reads my collection, whose I read, and my pool, on one page."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cardsite.collection.models import CollectionShare, Pool, PoolMember
from cardsite.collection.services.pools import pool_create, pool_invite
from cardsite.collection.services.sharing import collection_share

pytestmark = pytest.mark.django_db
PAGE = "/collection/sharing/"


def signed_in(name: str) -> tuple[Client, User]:
    user = User.objects.create_user(name, password="x-Long-pass-9")
    client = Client()
    client.force_login(user)
    return client, user


def test_the_sharing_page_sends_anonymous_visitors_to_log_in():
    response = Client().get(PAGE)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_page_lists_my_readers_and_links_the_collections_i_may_read():
    client, ann = signed_in("ann")
    bob = User.objects.create_user("bob")
    collection_share(owner=ann, reader_username="bob")
    collection_share(owner=bob, reader_username="ann")
    page = client.get(PAGE).content.decode()
    assert 'aria-label="Remove bob"' in page
    assert 'href="/collection/bob/"' in page


def test_sharing_from_the_page_redirects_with_a_message():
    client, ann = signed_in("ann")
    User.objects.create_user("bob")
    response = client.post(PAGE, {"action": "share", "username": "bob"}, follow=True)
    assert "bob can now read your collection." in response.content.decode()
    assert CollectionShare.objects.filter(owner=ann, reader__username="bob").exists()
    client.post(PAGE, {"action": "unshare", "username": "bob"})
    assert not CollectionShare.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "share", "username": "nobody"},
        {"action": "share", "username": "ann"},
        {"action": "share"},
        {"action": "fly"},
        {},
        {"action": "accept", "pool": "\u00b2"},
        {"action": "accept", "pool": "9" * 40},
        {"action": "accept", "pool": "-1"},
        {"action": "invite", "pool": "1", "username": "ann"},
        {"action": "create", "name": "x" * 81},
    ],
)
def test_a_refused_action_shows_the_page_again_with_the_reason_and_stores_nothing(data):
    client, _ = signed_in("ann")
    response = client.post(PAGE, data)
    assert response.status_code == 400
    assert 'id="sharing-error"' in response.content.decode()
    assert not CollectionShare.objects.exists()
    assert not Pool.objects.exists()


def test_a_pool_is_made_and_an_invitation_accepted_from_the_page():
    ann_client, _ = signed_in("ann")
    bob_client, bob = signed_in("bob")
    ann_client.post(PAGE, {"action": "create", "name": "Tuesday club"})
    pool = Pool.objects.get()
    ann_client.post(PAGE, {"action": "invite", "pool": str(pool.pk), "username": "bob"})
    page = bob_client.get(PAGE).content.decode()
    assert "Tuesday club" in page and "from ann" in page
    bob_client.post(PAGE, {"action": "accept", "pool": str(pool.pk)})
    assert PoolMember.objects.get(user=bob).accepted_at is not None
    assert "You pool your collection with" in bob_client.get(PAGE).content.decode()
    bob_client.post(PAGE, {"action": "leave"})
    assert not PoolMember.objects.filter(user=bob).exists()


def test_a_stranger_cannot_accept_or_see_someone_elses_pool_by_its_id():
    _, ann = signed_in("ann")
    eve_client, _ = signed_in("eve")
    pool = pool_create(user=ann, name="Hidden circle")
    User.objects.create_user("bob")
    pool_invite(pool=pool, by=ann, username="bob")
    for action in ("accept", "decline", "invite"):
        response = eve_client.post(PAGE, {"action": action, "pool": str(pool.pk), "username": "x"})
        assert response.status_code == 400
        assert "Hidden circle" not in response.content.decode()
    assert pool.members.count() == 2


def test_declining_all_invitations_from_the_page_says_how_many():
    bob_client, bob = signed_in("bob")
    for name in ("ann", "cy"):
        maker = User.objects.create_user(name)
        pool_invite(pool=pool_create(user=maker, name=f"{name}'s club"), by=maker, username="bob")
    page = bob_client.get(PAGE).content.decode()
    assert 'value="decline_all"' in page and "expires after 14 days" in page
    response = bob_client.post(PAGE, {"action": "decline_all"}, follow=True)
    assert "2 invitations declined." in response.content.decode()
    assert not PoolMember.objects.filter(user=bob).exists()
    assert 'value="decline_all"' not in bob_client.get(PAGE).content.decode()
