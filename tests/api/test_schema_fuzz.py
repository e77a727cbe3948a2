"""Schema fuzzing: schemathesis sends generated requests, valid and invalid, to every operation
of our OpenAPI schema, in-process through the WSGI app and on the test database, and checks
that none is a 5xx and that every answer is what the schema documents (status code, content
type, headers, body). Deterministic (fixed seed), bounded by MAX_EXAMPLES per operation."""

import copy
import json

import hypothesis
import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.api.schema import PAGING_PARAMETERS
from cardsite.catalogue.models import Card
from cardsite.catalogue.short_ids import short_id_for
from decks.models import Deck, Job

pytestmark = pytest.mark.django_db

FUZZ_SEED = 20_240_601
# Fuzzing-phase examples per operation, valid and invalid together; the coverage phase adds
# its own boundary and invalid cases on top. About a minute in all on SQLite on two cores.
MAX_EXAMPLES = 20
TOKEN = "f" * 40
OWN_DECK, OTHERS_DECK, JOB = "fuzz-own-deck", "fuzz-others-deck", "fuzz-goldfish-job"
# Path values that name something real, by the path they go in: random ones almost never do.
REAL_PATH_VALUES = {
    "/api/v1/decks/{id}/": {"id": [OWN_DECK, OTHERS_DECK]},
    "/api/v1/cards/{id}/": {"id": [short_id_for("conquest-for-the-capital", "CFC-RB", "1")]},
    "/api/v1/games/{slug}/": {"slug": ["conquest-of-orion", "fate-foretold"]},
    "/api/v1/jobs/{key}/": {"key": [JOB]},
}

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": FUZZ_SEED,
        # The same requests every run: a fixed seed, and no example database replaying
        # whatever failed on this machine before.
        "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True, "database": "none"},
        "auth": {"openapi": {"tokenAuth": {"api_key": f"Token {TOKEN}"}}},
        "checks": {
            # The schema gives shapes, not facts: a well-formed request can still name a game
            # that does not exist, a format the game lacks or the wrong password, and a 400
            # is the right answer to it.
            "positive_data_acceptance": {"enabled": False},
        },
    }
)
# Generated as /api/v1/schema/ serves it (a test below holds the two equal): fetching it through
# the app at import would need the database, which is not set up until the tests run. (Loading
# it in a fixture with schemathesis.pytest.from_fixture is no way out: schemathesis 4.32's lazy
# loader renames the test item through Node._nodeid, which pytest 9.2 no longer has.)
SERVED_SCHEMA = json.loads(
    OpenApiJsonRenderer().render(SchemaGenerator(api_version="v1").get_schema(public=True))
)


def _with_real_examples(served):
    """The schema with the real values as examples of its path parameters, for the fuzz only:
    the coverage phase builds its many body variants on an example, so they reach a real deck
    rather than a 404."""
    fuzzed = copy.deepcopy(served)
    for path, operations in fuzzed["paths"].items():
        for prefix, values in REAL_PATH_VALUES.items():
            if not path.startswith(prefix):
                continue
            for operation in operations.values():
                for parameter in operation.get("parameters", []):
                    if parameter["in"] == "path" and parameter["name"] in values:
                        choices = values[parameter["name"]]
                        parameter["examples"] = {value: {"value": value} for value in choices}
    return fuzzed


schema = schemathesis.openapi.from_dict(_with_real_examples(SERVED_SCHEMA), config=CONFIG)
schema.app = get_wsgi_application()


@schema.hook
def flatmap_path_parameters(context, parameters):
    """Half the time, swap in a value that names a real deck, card, game or job."""
    path = context.operation.path
    real = [
        {**parameters, name: value}
        for prefix, values in REAL_PATH_VALUES.items()
        if path.startswith(prefix)
        for name, choices in values.items()
        for value in choices
    ]
    return st.one_of(st.just(parameters), st.sampled_from(real)) if real else st.just(parameters)


CONCRETE_PATHS = {path for path in SERVED_SCHEMA["paths"] if "{" not in path}


@schema.hook
def filter_path_parameters(context, parameters):
    """OpenAPI matches concrete paths before templated ones: /decks/validate/ is the validator's
    URL, never the deck "validate", so such values are not this operation's to answer."""
    if not parameters:
        return True
    values = {name: str(value) for name, value in parameters.items()}
    return context.operation.path.format_map(values) not in CONCRETE_PATHS


@schema.hook
def filter_failure(context, failure, case, response):
    """Drop one kind of "schema-violating request accepted" (negative_data_rejection), which
    DRF answers so by design: an empty optional query value means the parameter is absent
    (as an HTML form sends it), and a bad page or page_size falls back to the default.

    Every other failure, and this check on anything else (bodies, headers, paths), stands."""
    if failure.code != "ST201":
        return True
    data = case.meta.phase.data
    names = ({data.parameter} | {m.parameter for m in data.mutations}) - {None}
    query = case.query or {}
    lenient = names and all(
        name in PAGING_PARAMETERS or (name in query and query[name] == "") for name in names
    )
    return not lenient


@pytest.fixture
def unthrottled(settings):
    # Our throttles read the rates from settings on each request (cardsite/api/throttles.py),
    # and the cache that counts requests starts empty for each test (tests/conftest.py).
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {scope: "1000000/min" for scope in rates},
    }


@pytest.fixture
def in_process(fuzzer):
    # Django closes "old" connections around each request, which inside the test's transaction
    # would drop it; its test client stops that the same way (and undoes this after each of its
    # own requests, hence after the fuzzer's set-up).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _deck(owner, visibility, share_key):
    client = APIClient()
    client.force_authenticate(owner)
    cards = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
    response = client.post(
        "/api/v1/decks/",
        {
            "game": "conquest-for-the-capital",
            "format": "faction-deck",
            "name": "Dwarves rush",
            "visibility": visibility,
            "cards": [{"id": c.short_id, "quantity": 1} for c in cards],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    Deck.objects.filter(share_key=response.json()["id"]).update(share_key=share_key)


@pytest.fixture
def fuzzer(settings):
    user = User.objects.create_user("fuzzer", password="fuzzer-42")
    Token.objects.create(user=user, key=TOKEN)
    _deck(user, "private", OWN_DECK)
    _deck(User.objects.create_user("other", password="other-42"), "public", OTHERS_DECK)
    client = APIClient()
    client.force_authenticate(user)
    # No broker yet, so the job runs now and its result is there to fetch.
    settings.CELERY_BROKER_URL = ""
    response = client.post(
        f"/api/v1/decks/{OWN_DECK}/goldfish/",
        {"runs": 10},
        format="json",
        HTTP_PREFER="respond-async",
    )
    assert response.status_code == 202, response.content
    Job.objects.filter(key=response.json()["id"]).update(key=JOB)
    return user


@pytest.fixture
def with_a_worker(settings, fuzzer):
    # As in production, large work is a 202 and a job for the worker rather than a million
    # simulated games inside the request. Nothing reads this queue: jobs are sent on commit,
    # and a test's transaction never commits.
    settings.CELERY_BROKER_URL = "memory://"
    settings.JOB_GOLDFISH_RUNS = 2_000


@schema.parametrize()
# The fixtures are made once per operation, not per example, on purpose: each example's writes
# are rolled back, so every example sees the same decks, job and token.
@hypothesis.settings(suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
def test_every_endpoint_answers_any_input_without_a_server_error_and_as_its_schema_says(
    case, fuzzer, unthrottled, with_a_worker, in_process
):
    # Each example runs in a savepoint that is rolled back, so a DELETE of the fuzzer's deck
    # does not take it away from the examples after it.
    with transaction.atomic():
        case.call_and_validate()
        transaction.set_rollback(True)


def test_the_fuzzed_schema_is_the_one_the_api_serves(api):
    served = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert served.status_code == 200
    assert json.loads(served.content) == SERVED_SCHEMA


# What the fuzz found, pinned here so that it stays fixed whatever the seed draws.


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/cards/%00/",
        "/api/v1/games/%00/formats/",
        "/api/v1/jobs/%00/",
        "/c/%00",
        "/cards/%00/elf-special-card/",
    ],
)
def test_a_nul_character_in_a_path_is_a_404_not_a_server_error(client, url):
    # PostgreSQL refuses a query holding NUL; SQLite does not, so this bites on PostgreSQL only.
    assert client.get(url).status_code == 404


def test_a_nul_character_in_a_game_slug_is_a_400_not_a_server_error(api):
    body = {"game": "fate\x00foretold", "format": "nest", "cards": []}
    response = api.post("/api/v1/decks/validate/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["game"]
    named = api.get("/api/v1/cards/named/", {"exact": "Elf", "game": "fate\x00foretold"})
    assert named.status_code == 400


def test_writing_to_an_unknown_api_url_is_a_json_404_not_a_csrf_refusal():
    response = Client(enforce_csrf_checks=True).put("/api/v1/decks/no%C2%84such/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
