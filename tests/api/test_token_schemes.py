"""An API token is sent as `Authorization: Token <token>` or `Authorization: Bearer <token>`
(cardsite/api/authentication.py): the same token either way, and the schema says both."""

import json

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

COLLECTION = "/api/v1/collection/"


@pytest.fixture
def token():
    user = User.objects.create_user("alice", password="wonderland-42")
    return Token.objects.create(user=user).key


def _sent_as(authorization):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=authorization)
    return api


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer"])
def test_a_token_signs_in_under_either_scheme(token, scheme):
    response = _sent_as(f"{scheme} {token}").get(COLLECTION)
    assert response.status_code == 200


@pytest.mark.parametrize("scheme", ["Basic", "Bearer:", "JWT", "Tokens"])
def test_a_token_under_another_scheme_is_not_signed_in(token, scheme):
    response = _sent_as(f"{scheme} {token}").get(COLLECTION)
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
def test_a_wrong_token_under_either_scheme_is_a_401_even_where_signing_in_is_optional(scheme):
    response = _sent_as(f"{scheme} {'0' * 40}").get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_a_token_from_the_api_works_as_a_bearer_token_and_is_revoked_as_one():
    User.objects.create_user("alice", password="wonderland-42")
    body = {"username": "alice", "password": "wonderland-42"}
    key = APIClient().post("/api/v1/auth/token/", body, format="json").json()["token"]
    bearer = _sent_as(f"Bearer {key}")
    assert bearer.delete("/api/v1/auth/token/").status_code == 204
    assert bearer.get(COLLECTION).status_code == 401


def test_the_schema_describes_both_schemes_and_every_signed_in_operation_takes_either(api):
    served = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(served.content)
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"]["type"] == "http"
    assert schemes["bearerAuth"]["scheme"] == "bearer"
    assert schemes["tokenAuth"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Token"',
    }
    for operations in schema["paths"].values():
        for operation in operations.values():
            named = {name for requirement in operation["security"] for name in requirement}
            assert ("tokenAuth" in named) == ("bearerAuth" in named), operation["operationId"]


# Attacks on the Bearer scheme: it is DRF's token check under another word, so whatever that
# check refuses under `Token` it must refuse under `Bearer` too.


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
def test_a_deactivated_users_token_signs_in_under_neither_scheme(token, scheme):
    User.objects.filter(username="alice").update(is_active=False)
    response = _sent_as(f"{scheme} {token}").get(COLLECTION)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    # Nor where signing in is optional: a refused token is never read as no token.
    assert _sent_as(f"{scheme} {token}").get("/api/v1/games/").status_code == 401


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
@pytest.mark.parametrize("padding", [" ", "  ", "\t"])
def test_a_token_with_trailing_whitespace_is_the_same_token(token, scheme, padding):
    # A header's value is split on whitespace (as HTTP trims a field's value): the token alone.
    assert _sent_as(f"{scheme} {token}{padding}").get(COLLECTION).status_code == 200


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
@pytest.mark.parametrize("words", ["{token} extra", "{token} {token}", "", "  "])
def test_a_token_with_a_second_word_or_none_is_refused_under_either_scheme(token, scheme, words):
    response = _sent_as(f"{scheme} {words.format(token=token)}").get(COLLECTION)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_a_token_revoked_by_a_new_password_is_refused_as_a_bearer_token(token):
    user = User.objects.get(username="alice")
    user.set_password("another-Long-pass-7")
    user.save()
    assert _sent_as(f"Bearer {token}").get(COLLECTION).status_code == 401
