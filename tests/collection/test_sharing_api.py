"""The API of sharing and pooling: a signed-in user's own settings, by token or session."""

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.collection.models import CollectionShare, Pool, PoolMember

pytestmark = pytest.mark.django_db


def client_for(name: str) -> APIClient:
    user = User.objects.create_user(name, password="x-Long-pass-9")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/collection/shares/"),
        ("post", "/api/v1/collection/shares/"),
        ("delete", "/api/v1/collection/shares/bob/"),
        ("get", "/api/v1/collection/pool/"),
        ("post", "/api/v1/collection/pool/"),
        ("post", "/api/v1/collection/pool/invite/"),
        ("post", "/api/v1/collection/pool/accept/"),
        ("post", "/api/v1/collection/pool/decline/"),
        ("post", "/api/v1/collection/pool/leave/"),
    ],
)
def test_every_sharing_endpoint_needs_a_signed_in_user(method, path):
    response = getattr(APIClient(), method)(path, {}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_share_made_by_token_lists_on_both_sides_and_is_deleted_by_username():
    ann, bob = client_for("ann"), client_for("bob")
    made = ann.post("/api/v1/collection/shares/", {"username": "BOB"}, format="json")
    assert made.status_code == 201
    assert made.json() == {"readers": ["bob"], "shared_with": []}
    assert bob.get("/api/v1/collection/shares/").json() == {"readers": [], "shared_with": ["ann"]}
    assert ann.delete("/api/v1/collection/shares/bob/").status_code == 204
    assert ann.delete("/api/v1/collection/shares/bob/").status_code == 404
    assert not CollectionShare.objects.exists()


@pytest.mark.parametrize(
    "body",
    [{}, {"username": 12}, {"username": None}, {"username": "x" * 151}, {"username": "nobody"}],
)
def test_a_bad_share_is_a_400_naming_the_username(body):
    ann = client_for("ann")
    response = ann.post("/api/v1/collection/shares/", body, format="json")
    assert response.status_code == 400
    assert "username" in response.json()["errors"]
    assert not CollectionShare.objects.exists()


def test_deleting_a_share_of_nobody_or_a_huge_name_is_a_404():
    ann = client_for("ann")
    for name in ("nobody", "x" * 5000, "%C2%B2"):
        assert ann.delete(f"/api/v1/collection/shares/{name}/").status_code == 404


def test_a_pool_is_made_joined_and_left_through_the_api():
    ann, bob = client_for("ann"), client_for("bob")
    made = ann.post("/api/v1/collection/pool/", {"name": "Club"}, format="json")
    assert made.status_code == 201
    pool = made.json()["pool"]
    assert pool["members"] == [{"username": "ann", "accepted": True}]
    invited = ann.post("/api/v1/collection/pool/invite/", {"username": "bob"}, format="json")
    assert invited.json()["pool"]["members"][1] == {"username": "bob", "accepted": False}
    waiting = bob.get("/api/v1/collection/pool/").json()
    assert waiting == {
        "pool": None,
        "invitations": [{"pool": pool["id"], "name": "Club", "invited_by": "ann"}],
        "invitations_waiting": 1,
    }
    joined = bob.post("/api/v1/collection/pool/accept/", {"pool": pool["id"]}, format="json")
    assert joined.status_code == 200
    assert joined.json()["pool"]["members"] == [
        {"username": "ann", "accepted": True},
        {"username": "bob", "accepted": True},
    ]
    assert bob.post("/api/v1/collection/pool/leave/").json()["pool"] is None
    assert bob.post("/api/v1/collection/pool/leave/").status_code == 400


@pytest.mark.parametrize(
    "pool",
    ['"1"', "1.5", "true", "null", "0", "-1", str(2**63), "Infinity", "NaN", '"\u00b2"', "999999"],
)
def test_accepting_a_pool_takes_an_invitation_id_and_nothing_else(pool):
    ann, bob = client_for("ann"), client_for("bob")
    ann.post("/api/v1/collection/pool/", {"name": "Club"}, format="json")
    response = bob.post(
        "/api/v1/collection/pool/accept/",
        f'{{"pool": {pool}}}',
        content_type="application/json",
    )
    assert response.status_code in (400, 404)
    assert not PoolMember.objects.filter(user__username="bob").exists()


def test_a_pool_id_of_someone_elses_pool_reads_as_no_pool():
    ann, bob = client_for("ann"), client_for("bob")
    pool = ann.post("/api/v1/collection/pool/", {"name": "Private club"}, format="json")
    pool_id = pool.json()["pool"]["id"]
    for path in ("accept", "decline"):
        response = bob.post(f"/api/v1/collection/pool/{path}/", {"pool": pool_id}, format="json")
        assert response.status_code == 404
        assert "Private club" not in response.content.decode()


def test_inviting_without_a_pool_names_the_pool():
    ann = client_for("ann")
    client_for("bob")
    response = ann.post("/api/v1/collection/pool/invite/", {"username": "bob"}, format="json")
    assert response.status_code == 400
    assert "pool" in response.json()["errors"]
    assert not Pool.objects.exists()


def test_a_pool_name_past_the_limit_is_a_400_naming_the_name():
    ann = client_for("ann")
    response = ann.post("/api/v1/collection/pool/", {"name": "x" * 81}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()["errors"]


def test_declining_all_invitations_through_the_api_leaves_none_waiting():
    bob = client_for("bob")
    for name in ("ann", "cy"):
        maker = client_for(name)
        maker.post("/api/v1/collection/pool/", {"name": f"{name}'s club"}, format="json")
        maker.post("/api/v1/collection/pool/invite/", {"username": "bob"}, format="json")
    assert bob.get("/api/v1/collection/pool/").json()["invitations_waiting"] == 2
    declined = bob.post("/api/v1/collection/pool/decline-all/")
    assert declined.status_code == 200
    assert declined.json() == {"pool": None, "invitations": [], "invitations_waiting": 0}
    assert not PoolMember.objects.filter(user__username="bob").exists()
    assert client_for("dee").post("/api/v1/collection/pool/decline-all/").status_code == 200
