"""Schema fuzzing: schemathesis sends generated requests, valid and invalid, to every operation
of our OpenAPI schema, in-process through the WSGI app and on the test database, once as an
anonymous client and once with a token, and runs every check it has on each answer: no 5xx;
status code, content type, headers and body as the schema documents them; invalid requests
refused and valid ones accepted; authentication enforced where the schema requires it;
missing required headers refused; undeclared methods a 405 with Allow; a deleted resource
gone; answers within max_response_time. Every answer is also validated against the schema by
openapi-core, as a server-side OpenAPI validator would read it (a second reading of the same
schema: it refused the nulls of nullable fields that had no type). Deterministic (fixed seed),
bounded by MAX_EXAMPLES per operation."""

import copy
import datetime as dt
import functools
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import Client
from django.utils import timezone
from hypothesis import strategies as st
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest
from openapi_core.deserializing.media_types.util import plain_loads
from openapi_core.validation.response.exceptions import MissingData
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.core.control import SkipTest
from schemathesis.core.failures import FailureGroup, as_reported_failure
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.hypothesis.reporting import ignore_hypothesis_output
from schemathesis.pytest._keys import track_schema
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from werkzeug.datastructures import Headers

from cardsite.api.parsers import bad_text_message
from cardsite.catalogue.models import Card
from cardsite.catalogue.short_ids import short_id_for
from decks.models import Deck, Job
from tests.api.conftest import served_schema
from tests.api.fuzz_refusals import CHANGE, REFUSED_FOR_A_FACT, REPLACE, REVERT

pytestmark = pytest.mark.django_db

FUZZ_SEED = 20_240_601
# Fuzzing-phase examples per operation, valid and invalid together; the coverage phase adds
# its own boundary and invalid cases on top. About a minute and a half in all, for both
# clients, on SQLite on two cores.
MAX_EXAMPLES = 20
TOKEN = "f" * 40
OWN_DECK, OTHERS_DECK, JOB = "fuzz-own-deck", "fuzz-others-deck", "fuzz-goldfish-job"
A_CARD = short_id_for("conquest-for-the-capital", "CFC-RB", "1")
# Path values that name something real, by the path they go in: random ones almost never do.
REAL_PATH_VALUES = {
    "/api/v1/decks/{id}/": {"id": [OWN_DECK, OTHERS_DECK]},
    "/api/v1/decks/{id}/versions/{number}/": {"number": [1]},
    "/api/v1/cards/{id}/": {"id": [A_CARD]},
    "/api/v1/collection/cards/{card_id}/": {"card_id": [A_CARD]},
    "/api/v1/jobs/{key}/": {"key": [JOB]},
}


def _config(token: str | None) -> schemathesis.Config:
    return schemathesis.Config.from_dict(
        {
            "seed": FUZZ_SEED,
            # The same requests every run: a fixed seed, and no example database replaying
            # whatever failed on this machine before.
            "generation": {
                "max-examples": MAX_EXAMPLES,
                "deterministic": True,
                "database": "none",
            },
            # Without a token, schemathesis sends none where signing in is optional, and a
            # made-up one where it is required.
            **(
                {"auth": {"openapi": {"tokenAuth": {"api_key": f"Token {token}"}}}} if token else {}
            ),
            "checks": {
                # Every check, as `--checks all` runs them; max_response_time only runs with a
                # limit, and this is the one `--checks all` gives it. The slowest answer here
                # (a goldfish run inline) takes about 1.5 s.
                "enabled": True,
                "max_response_time": 10.0,
                # A body past the byte limit (cardsite/middleware.py) is refused with a 413
                # before it is read, whichever of its values broke the schema: a refusal too.
                "negative_data_rejection": {
                    "expected-statuses": [
                        *(str(s) for s in (400, 401, 403, 404, 405, 406, 409, 413, 415)),
                        *(str(s) for s in (422, 428, 429)),
                        "5xx",
                    ]
                },
            },
        }
    )


# Generated as /api/v1/schema/ serves it (tests/api/conftest.py; a test below holds the two
# equal): fetching it through the app at import would need the database, which is not set up
# until the tests run. (Loading it in a fixture with schemathesis.pytest.from_fixture is no way
# out: schemathesis 4.32's lazy loader renames the test item through Node._nodeid, which pytest
# 9.2 no longer has.)
SERVED_SCHEMA = served_schema()


# Bodies that name real things (a user's password, a card), as examples of the operations that
# take them: a generated password or card name never is one.
A_DECK = {"game": "conquest-for-the-capital", "format": "faction-deck", "cards": [{"id": A_CARD}]}
REAL_BODIES = {
    ("/api/v1/auth/token/", "post"): {"username": "fuzzer", "password": "fuzzer-42"},
    ("/api/v1/decks/", "post"): {**A_DECK, "name": "Fuzzed"},
    ("/api/v1/decks/validate/", "post"): A_DECK,
    ("/api/v1/goldfish/", "post"): {**A_DECK, "runs": 10},
    ("/api/v1/playtest/", "post"): {**A_DECK, "seed": 1, "actions": [{"do": "draw"}]},
    ("/api/v1/proxies.pdf", "post"): A_DECK,
}


def _with_real_examples(served):
    """The schema with the real values as examples of its path parameters and bodies, for the
    fuzz only: the coverage phase builds its many variants on an example, so they reach a real
    deck or card rather than a 404 or a 400 for a card that does not exist."""
    fuzzed = copy.deepcopy(served)
    for (path, method), body in REAL_BODIES.items():
        content = fuzzed["paths"][path][method]["requestBody"]["content"]["application/json"]
        content["examples"] = {"real": {"value": body}}
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


# What a valid id or number of these paths looks like (their schema's patterns).
VALID_PATH_VALUE = re.compile(r"[A-Za-z0-9_-]+")


def flatmap_path_parameters(context, parameters):
    """Half the time, swap in a value that names a real deck, card or job (games are an enum).
    Only over a value that was valid already: a case generated to break the path's pattern
    stays broken, or schemathesis, still counting it as invalid, would hold the answer to its
    real value against it (with an unknown query parameter, a 200 that "accepted" it)."""
    path = context.operation.path
    real = [
        {**parameters, name: value}
        for prefix, values in REAL_PATH_VALUES.items()
        if path.startswith(prefix)
        for name, choices in values.items()
        if VALID_PATH_VALUE.fullmatch(str(parameters.get(name, "")))
        for value in choices
    ]
    return st.one_of(st.just(parameters), st.sampled_from(real)) if real else st.just(parameters)


CONCRETE_PATHS = {path for path in SERVED_SCHEMA["paths"] if "{" not in path}


def filter_path_parameters(context, parameters):
    """OpenAPI matches concrete paths before templated ones: /decks/validate/ is the validator's
    URL, never the deck "validate", so such values are not this operation's to answer."""
    if not parameters:
        return True
    values = {name: str(value) for name, value in parameters.items()}
    try:
        return context.operation.path.format_map(values) not in CONCRETE_PATHS
    except KeyError:  # only some of a path's parameters: none of it is concrete yet
        return True


# 400s that name no field: cards that are not in the catalogue (or not of the deck's game), a
# NUL in a query string, and /cards/named/'s rule across two parameters.
UNKNOWN_CARDS = {"unknown_card", "wrong_game", "unreadable_line", "unknown_zone"}
EXACTLY_ONE_NAME = "Give exactly one of fuzzy= or exact=."


def _errors(errors, path=""):
    """(field, message) for every message in a 400's `errors`, nested fields dotted."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            yield from _errors(value, f"{path}.{key}" if path else str(key))
    elif isinstance(errors, list) and all(isinstance(m, str) for m in errors):
        yield from ((path, message) for message in errors)
    elif isinstance(errors, list):
        for index, value in enumerate(errors):
            yield from _errors(value, f"{path}.{index}")


def _refused_for_a_fact(operation, body):
    if body.get("code") == "invalid_cards":
        return {p["code"] for p in body["problems"]} <= UNKNOWN_CARDS
    if "errors" not in body:
        return body["detail"] in (EXACTLY_ONE_NAME, bad_text_message())
    return all(
        any(
            (operations is None or operation in operations)
            and re.fullmatch(field, named)
            and re.match(message, said)
            for operations, field, message in REFUSED_FOR_A_FACT
        )
        for named, said in _errors(body["errors"])
    )


def filter_failure(context, failure, case, response):
    """Keep every failure but a well-formed request refused for a fact (above), and a deck
    write's precondition: a PUT names the version it replaces in If-Match or in its body (a
    choice across header and body that OpenAPI cannot state; 428 when it names neither; a revert
    likewise, with If-Match or `expected_version`), and
    an If-Match that is not the deck's ETag is a 412, as a stale body version is the 409 that
    the check already accepts."""
    if failure.code != "ST202":
        return True
    operation = context.operation.label
    preconditions = {(428, REPLACE), (412, REPLACE), (412, CHANGE), (428, REVERT), (412, REVERT)}
    if (response.status_code, operation) in preconditions:
        return False
    return not (response.status_code == 400 and _refused_for_a_fact(operation, response.json()))


@functools.cache
def _schema(token: str | None) -> Any:
    fuzzed = schemathesis.openapi.from_dict(
        _with_real_examples(SERVED_SCHEMA), config=_config(token)
    )
    fuzzed.app = get_wsgi_application()
    for hook in (flatmap_path_parameters, filter_path_parameters, filter_failure):
        fuzzed.hook(hook)
    return fuzzed


# One test per operation, named as schemathesis names them. Schemathesis' own parametrize()
# builds every operation's coverage cases while pytest collects (two minutes, for any run that
# merely collects tests/api); here an operation's test is built when it runs.
OPERATIONS = [
    f"{method.upper()} {path}"
    for path, operations in SERVED_SCHEMA["paths"].items()
    for method in operations
    if method in {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
]


def _fuzz(token: str | None, label: str, config: pytest.Config) -> None:
    """Every phase schemathesis' pytest plugin runs for one operation (examples, coverage,
    fuzzing), with every check, failures reported as the plugin reports them. It uses the
    plugin's test builder (schemathesis is pinned), since its lazy loader cannot run here."""
    schema = _schema(token)
    operation = schema.find_operation_by_label(label)
    assert operation is not None, label
    # Checks that run once after every operation (the plugin runs them at the session's end).
    track_schema(config, schema)
    test = build_operation_test(
        config=schema.config,
        operation=operation,
        test_func=_call_and_validate,
        given_kwargs={},
        feedback=FeedbackSources(constants_value_source=make_constants_value_source(schema)),
    )
    try:
        with ignore_hypothesis_output():
            test()
    except FailureGroup as exc:
        raise as_reported_failure(exc) from None
    except SkipTest as exc:
        pytest.skip(str(exc))


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
    # Old enough to propose, so that proposals are fuzzed past the account-age 403.
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - dt.timedelta(hours=2))
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


# openapi-core reads text/plain as text but has no reader for text/csv (a collection's
# export), which is text all the same; it parses application/xml (the Cockatrice exports) into
# elements, where the schema says what they are on the wire: a string.
OPENAPI_CORE = OpenAPI.from_dict(
    SERVED_SCHEMA,
    config=Config(
        extra_media_type_deserializers={"text/csv": plain_loads, "application/xml": plain_loads}
    ),
)


@dataclass(frozen=True)
class _Answer:
    """A schemathesis response as openapi-core's Response protocol reads one."""

    status_code: int
    content_type: str
    headers: Headers
    data: bytes


def _validated_by_openapi_core(response: Any) -> None:
    """openapi-core's validate_response on the answer, for the operation the request named.
    A request with a method the path does not declare (schemathesis sends them on purpose,
    for the 405) has no operation to validate its answer against."""
    request = response.request
    headers = Headers(
        [(name, value) for name, values in response.headers.items() for value in values]
    )
    answer = _Answer(
        response.status_code,
        (headers.get("Content-Type") or "").lower(),
        headers,
        response.content,
    )
    try:
        OPENAPI_CORE.validate_response(RequestsOpenAPIRequest(request), answer)
    except MissingData:
        # openapi-core takes an empty body for a missing one; an empty text (the export of an
        # empty collection) is a string as the schema says.
        if response.content or not answer.content_type.startswith("text/"):
            raise
    except Exception as exc:
        causes = []
        cause: BaseException | None = exc
        while cause is not None:
            causes.append(f"{type(cause).__name__}: {cause}")
            cause = cause.__cause__
        detail = "; ".join(causes)
        for error in getattr(exc.__cause__, "schema_errors", ()):
            detail += f"\n  {error.message} at {list(error.absolute_path)}"
        raise AssertionError(
            f"openapi-core refused the answer to {request.method} {request.url}: "
            f"{response.status_code} {answer.content_type}\n{detail}\n"
            f"{response.content[:500]!r}"
        ) from None


def _call_and_validate(case: Any) -> None:
    # Each example runs in a savepoint that is rolled back, so a DELETE of the fuzzer's deck
    # does not take it away from the examples after it.
    with transaction.atomic():
        response = case.call_and_validate()
        if response.request.method.lower() == case.operation.method.lower():
            _validated_by_openapi_core(response)
        transaction.set_rollback(True)


# The fixtures are made once per operation, not per example, on purpose: each example's writes
# are rolled back, so every example sees the same decks, job and token.
@pytest.mark.parametrize("label", OPERATIONS)
def test_every_endpoint_answers_an_anonymous_client_as_its_schema_says(
    label, request, fuzzer, unthrottled, with_a_worker, in_process
):
    _fuzz(None, label, request.config)


@pytest.mark.parametrize("label", OPERATIONS)
def test_every_endpoint_answers_a_client_with_a_token_as_its_schema_says(
    label, request, fuzzer, unthrottled, with_a_worker, in_process
):
    _fuzz(TOKEN, label, request.config)


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


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("page_size", "0"),
        ("page_size", "201"),
        ("page_size", "ten"),
        ("page_size", ""),
        ("page", "0"),
        ("page", "1.5"),
        ("page", "last"),
    ],
)
@pytest.mark.parametrize("url", ["/api/v1/cards/", "/api/v1/decks/", "/api/v1/sets/"])
def test_a_page_or_page_size_that_is_not_a_whole_number_in_range_is_a_400_naming_it(
    api, url, name, value
):
    response = api.get(url, {name: value})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [name]


def test_a_page_past_the_last_is_still_a_404(api):
    assert api.get("/api/v1/games/", {"page": 99}).status_code == 404


def test_an_empty_filter_value_is_no_filter_and_an_unknown_game_is_a_400(api):
    assert api.get("/api/v1/decks/", {"game": "", "format": ""}).status_code == 200
    assert api.get("/api/v1/cards/", {"game": ""}).status_code == 200
    unknown = api.get("/api/v1/decks/", {"game": "magic"})
    assert unknown.status_code == 400
    assert list(unknown.json()["errors"]) == ["game"]


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/v1/odds/", {"deck_size": "40", "copies": 3, "draws": 7, "at_least": 1}, "deck_size"),
        ("/api/v1/odds/", {"deck_size": 40.0, "copies": 3, "draws": 7, "at_least": 1}, "deck_size"),
        ("/api/v1/odds/", {"deck_size": 40, "copies": True, "draws": 7, "at_least": 1}, "copies"),
        ("/api/v1/auth/token/", {"username": 12, "password": "x"}, "username"),
        ("/api/v1/decks/validate/", {**A_DECK, "cards": [{"name": 12}]}, "cards"),
        (
            "/api/v1/decks/validate/",
            {**A_DECK, "cards": [{"id": A_CARD, "quantity": "2"}]},
            "cards",
        ),
        ("/api/v1/goldfish/", {**A_DECK, "runs": 10.0}, "runs"),
        ("/api/v1/goldfish/", {**A_DECK, "seed": "7"}, "seed"),
    ],
)
def test_a_body_holds_the_json_types_the_schema_gives_it(api, url, body, field):
    # The API reads JSON only, so a client can always send a real integer, boolean or string.
    response = api.post(url, body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


@pytest.mark.parametrize(
    "name", [" ", "\t\u3000", "x" * 121, " " + "x" * 120], ids=["space", "tab", "long", "padded"]
)
def test_a_deck_name_that_is_blank_or_longer_than_the_schema_allows_is_a_400(api, fuzzer, name):
    api.force_authenticate(fuzzer)
    response = api.patch(f"/api/v1/decks/{OWN_DECK}/", {"name": name}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["name"]


def test_a_change_to_a_deck_gives_its_cards_as_a_list_or_as_text_not_both(api, fuzzer):
    api.force_authenticate(fuzzer)
    body = {"cards": [{"id": A_CARD}], "text": "1 Something"}
    response = api.patch(f"/api/v1/decks/{OWN_DECK}/", body, format="json")
    assert response.status_code == 400


def test_a_posted_deck_s_format_zones_and_policy_are_its_game_s_in_the_schema_too():
    # One anyOf branch a game: the schema refuses what the code refuses, so a generated
    # "valid" body is one the code takes. The rules sit under allOf, beside the body's own
    # properties, so that a generated client still sees one body of every field.
    schema = SERVED_SCHEMA["components"]["schemas"]["GoldfishListRequest"]
    rules = {keyword: rule[keyword] for rule in schema["allOf"] for keyword in rule}
    orion = next(
        b for b in rules["anyOf"] if b["properties"]["game"]["enum"] == ["conquest-of-orion"]
    )
    assert orion["properties"]["format"]["enum"] == ["constructed", "limited"]
    assert orion["properties"]["policy"]["properties"]["turns"]["maximum"] == 50
    assert orion["properties"]["policy"]["additionalProperties"] is False
    assert rules["oneOf"] == [{"required": ["cards"]}, {"required": ["text"]}]
    assert {"runs", "seed", "policy", "game", "format", "cards", "text"} <= set(
        schema["properties"]
    )
