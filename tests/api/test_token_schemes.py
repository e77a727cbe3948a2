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
