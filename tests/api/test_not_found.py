"""Every /api/ path that names no endpoint is the API's JSON 404, in development (DEBUG on,
where Django would answer its HTML debug page) as in production, whatever the path holds."""

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

ODD_PATHS = [
    "/api/v1/decks/%0A/",
    "/api/v1/decks/%0D/",
    "/api/v1/decks/%0D%0A/",
    "/api/v1/%0A",
    "/api/%0A",
    "/api/v1/decks/abc/versions/%0A/",
    "/api/v1/decks/%00/",
    "/api/v1/decks/%E2%80%A8/",
    "/api/v1/decks/a%20b/",
    "/api/v1/decks/abc/%0A",
    "/api/v1/nothing/here/",
    "/api/v1/cards",
    "/api/v2/",
    "/api/v2/decks/",
    "/api/",
    "/api/v1/../v2/",
]


@pytest.mark.parametrize("debug", [True, False], ids=["debug", "production"])
@pytest.mark.parametrize("path", ODD_PATHS)
def test_an_api_path_matching_no_endpoint_is_a_json_404(path, debug):
    with override_settings(DEBUG=debug):
        response = Client().get(path)
    assert response.status_code == 404, response.content[:200]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "not_found" and body["detail"]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_writing_to_an_odd_api_path_with_debug_on_is_a_json_404_too(method):
    with override_settings(DEBUG=True):
        response = getattr(Client(enforce_csrf_checks=True), method)("/api/v1/decks/%0A/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_path_outside_the_api_keeps_the_sites_html_404():
    with override_settings(DEBUG=False):
        response = Client().get("/no-such-page/%0A/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
