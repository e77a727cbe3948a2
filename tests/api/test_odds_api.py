import pytest

pytestmark = pytest.mark.django_db


def test_the_odds_are_exact_to_nine_significant_digits(api):
    body = api.post(
        "/api/v1/odds/", {"deck_size": 60, "copies": 4, "draws": 7, "at_least": 1}, format="json"
    ).json()
    assert body["probability"] == pytest.approx(0.39949962574, rel=1e-9)
    numerator, denominator = map(int, body["exact"].split("/"))
    assert numerator / denominator == body["probability"]


def test_the_mulligan_raises_the_odds(api):
    plain = api.post(
        "/api/v1/odds/", {"deck_size": 40, "copies": 1, "draws": 7, "at_least": 1}, format="json"
    ).json()["probability"]
    again = api.post(
        "/api/v1/odds/",
        {"deck_size": 40, "copies": 1, "draws": 7, "at_least": 1, "mulligan": True},
        format="json",
    ).json()["probability"]
    assert again == pytest.approx(plain + (1 - plain) * plain)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"deck_size": 10, "copies": 11, "draws": 5, "at_least": 1}, "copies"),
        ({"deck_size": 10, "copies": -1, "draws": 5, "at_least": 1}, "copies"),
        ({"deck_size": 10, "copies": 2, "draws": 5}, "at_least"),
        ({"deck_size": "ten", "copies": 2, "draws": 5, "at_least": 1}, "deck_size"),
    ],
)
def test_impossible_inputs_are_a_400_naming_the_field(api, body, field):
    response = api.post("/api/v1/odds/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
