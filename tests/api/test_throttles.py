import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **rates,
            },
        }

    return set_rates


def test_searches_are_throttled_more_strictly_than_reads_with_retry_after(api, rates):
    rates(search="2/min", read="100/min")
    assert api.get("/api/v1/cards/", {"q": "t:unit"}).status_code == 200
    assert api.get("/api/v1/cards/", {"q": "t:unit"}).status_code == 200
    refused = api.get("/api/v1/cards/", {"q": "t:unit"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["code"] == "throttled"
    assert api.get("/api/v1/cards/").status_code == 200  # plain reads still have budget


def test_each_scope_has_its_own_budget(api, rates):
    rates(validate="1/min")
    body = {"game": "fate-foretold", "format": "nest", "cards": []}
    assert api.post("/api/v1/decks/validate/", body, format="json").status_code == 200
    assert api.post("/api/v1/decks/validate/", body, format="json").status_code == 429
    assert api.get("/api/v1/games/").status_code == 200


def test_a_forged_forwarded_for_header_does_not_buy_a_fresh_budget(api, rates):
    rates(search="1/min")
    assert (
        api.get("/api/v1/cards/", {"q": "t:unit"}, HTTP_X_FORWARDED_FOR="10.0.0.1").status_code
        == 200
    )
    forged = api.get("/api/v1/cards/", {"q": "t:unit"}, HTTP_X_FORWARDED_FOR="10.0.0.2")
    assert forged.status_code == 429
