"""A body past Django's DATA_UPLOAD_MAX_MEMORY_SIZE is a 413 naming the limit, JSON under
/api/, and nothing is written: Django's own answer was a bare HTML 400 (the schema fuzz met
it with a 12 MB JSON body)."""

import io
import json

import pytest
import yaml
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.collection.models import CollectionCard
from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    client = APIClient()
    client.force_authenticate(User.objects.create_user("heavy", password="x-Long-pass-9"))
    return client


def oversized_json() -> str:
    return json.dumps(
        {"game": "conquest-of-orion", "text": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    )


@pytest.mark.parametrize(
    "url", ["/api/v1/decks/", "/api/v1/decks/validate/", "/api/v1/collection/import/"]
)
def test_an_api_body_past_the_limit_is_a_json_413_naming_it(api, url):
    response = api.post(url, data=oversized_json(), content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    limit = f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}"
    assert f"at most {limit} bytes" in response.json()["detail"]
    assert len(response.content) < 200
    assert not Deck.objects.exists()


def test_a_page_form_past_the_limit_is_a_plain_413_naming_it(client):
    body = "q=" + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = client.post(
        "/accounts/login/", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert b"at most" in response.content


def test_a_body_within_the_limit_reaches_the_view(api):
    response = api.post(
        "/api/v1/decks/validate/",
        data=json.dumps({"game": "conquest-of-orion", "text": "1 Nothing by this name"}),
        content_type="application/json",
    )
    assert response.status_code != 413


def test_the_schema_names_the_413_on_every_operation_with_a_body(client):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert "413" in operation["responses"], f"{method.upper()} {path}"


# Attacks on the limit: a body whose size its headers do not tell, or tell wrongly, and a
# multipart body whose fields (not files) are past it.


def test_a_multipart_upload_whose_fields_are_past_the_limit_is_a_json_413(api):
    # Files do not count towards the limit, but a form's other fields do: Django refuses them
    # while the view reads the body, which answered its bare HTML 400 even under /api/.
    fields = {
        "game": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        "csv": io.BytesIO(b"name,quantity\n"),
    }
    response = api.post("/api/v1/collection/import/csv/", fields, format="multipart")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    limit = f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}"
    assert f"at most {limit} bytes" in response.json()["detail"]
    assert not CollectionCard.objects.exists()


def test_a_page_form_upload_whose_fields_are_past_the_limit_is_a_plain_413(client):
    fields = {"username": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE, "password": "x"}
    response = client.post("/accounts/login/", fields)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")
    assert b"at most" in response.content


def test_a_multipart_upload_with_a_file_past_the_limit_still_reaches_the_view(api):
    # The CSV upload's own limit (1 MB) names the file; the body limit is for fields only.
    big = io.BytesIO(b"name,quantity\n" + b"x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    big.name = "big.csv"
    fields = {"game": "conquest-of-orion", "csv": big}
    response = api.post("/api/v1/collection/import/csv/", fields, format="multipart")
    assert response.status_code == 400
    assert "csv" in response.json()["errors"]


def test_a_content_length_claiming_more_than_the_limit_is_a_413_whatever_is_sent(api):
    body = b'{"game": "conquest-of-orion", "text": "1 Nothing by this name"}'
    response = api.generic(
        "POST", "/api/v1/decks/validate/", body, "application/json", CONTENT_LENGTH=str(10**12)
    )
    assert response.status_code == 413


@pytest.mark.parametrize("length", ["100", "", "-5", "lots"])
def test_a_body_its_content_length_understates_is_read_no_further_than_it_says(api, length):
    # Django reads no more than the Content-Length (none, for a missing, negative or unreadable
    # one, as for a chunked body under WSGI): the rest is never parsed, whatever its size.
    body = oversized_json().encode()
    response = api.generic(
        "POST",
        "/api/v1/collection/import/",
        body,
        "application/json",
        CONTENT_LENGTH=length,
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert not CollectionCard.objects.exists()
