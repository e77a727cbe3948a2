"""Decks past their documented limits (decks/services/intake.py): a 400 naming the limit,
before any card is looked up, and nothing stored."""

import base64
import json
import zlib

import pytest

from cardsite.cardlists.decklist import CODE_PREFIX, MAX_CODE_BYTES, MAX_CODE_CHARS
from cardsite.catalogue.models import Card

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nothing_stored")]

VALIDATE = "/api/v1/decks/validate/"


def code_of(body: bytes) -> str:
    payload = base64.urlsafe_b64encode(zlib.compress(body, 9)).decode().rstrip("=")
    return f"{CODE_PREFIX}.{payload}.{zlib.crc32(payload.encode()):08x}"


def orion_id():
    return Card.objects.filter(game__slug="conquest-of-orion", card_type__zone="main")[0].short_id


def refused(response, field, words):
    assert response.status_code == 400, response.content
    message = " ".join(response.json()["errors"][field])
    assert words in message, message


def test_a_decklist_of_more_than_a_thousand_lines_is_refused(api):
    text = "\n".join(f"1 Card {i}" for i in range(1001))
    body = {"game": "conquest-of-orion", "format": "constructed", "text": text}
    refused(api.post(VALIDATE, body), "text", "at most 1,000 lines")


def test_more_than_five_hundred_entries_are_refused(api):
    cards = [{"name": f"Card {i}", "quantity": 1} for i in range(501)]
    body = {"game": "conquest-of-orion", "format": "constructed", "cards": cards}
    refused(api.post(VALIDATE, body), "cards", "at most 500 entries")


def test_a_deck_far_larger_than_any_format_is_refused(signed_in):
    text = "\n".join(f"99 Card {i}" for i in range(400))
    body = {"game": "conquest-of-orion", "format": "constructed", "name": "Huge", "text": text}
    refused(signed_in.post("/api/v1/decks/", body), "text", "at most 100 cards")


@pytest.mark.parametrize(
    ("digits", "message"),
    [(400, "must be 1 to 99"), (5000, "a line has at most 500 characters")],
)
def test_a_quantity_of_hundreds_or_thousands_of_digits_is_a_line_problem(api, digits, message):
    text = "9" * digits + " Some Card\n"
    body = {"game": "conquest-of-orion", "format": "constructed", "text": text}
    response = api.post(VALIDATE, body)
    assert response.status_code == 200
    [problem] = [p for p in response.json()["problems"] if p["code"] == "unreadable_line"]
    assert problem["line"] == 1 and message in problem["message"]


@pytest.mark.parametrize("quantity", [0, -5, 100, True, "3"])
def test_a_deck_code_with_a_quantity_outside_one_to_ninety_nine_is_refused(signed_in, quantity):
    body = {
        "g": "conquest-of-orion",
        "f": "constructed",
        "c": None,
        "e": [[orion_id(), quantity, "main"]],
    }
    code = code_of(json.dumps(body).encode())
    payload = {"game": "conquest-of-orion", "format": "constructed", "name": "Q", "code": code}
    refused(signed_in.post("/api/v1/decks/", payload), "code", "quantity")


def test_a_zlib_bomb_pasted_as_a_deck_code_is_refused_without_inflating_it(signed_in):
    bomb = code_of(b'{"g":"' + b" " * (MAX_CODE_BYTES * 2) + b'"}')
    assert len(bomb) < MAX_CODE_CHARS
    payload = {"game": "conquest-of-orion", "format": "constructed", "name": "B", "code": bomb}
    refused(signed_in.post("/api/v1/decks/", payload), "code", "at most 1,000,000 bytes")


def test_a_deck_code_longer_than_its_limit_is_refused(signed_in):
    payload = {"game": "conquest-of-orion", "format": "constructed", "name": "L"}
    payload["code"] = "cs1." + "A" * MAX_CODE_CHARS + ".00000000"
    response = signed_in.post("/api/v1/decks/", payload)
    assert response.status_code == 400
    assert "20000" in json.dumps(response.json())


def test_a_code_of_two_million_entries_is_refused(signed_in):
    entries = [[orion_id(), 1, "main"]] * 2_000_001
    code = code_of(
        json.dumps({"g": "conquest-of-orion", "f": "x", "c": None, "e": entries}).encode()
    )
    payload = {"game": "conquest-of-orion", "format": "constructed", "name": "M", "code": code}
    assert signed_in.post("/api/v1/decks/", payload).status_code == 400


def test_only_twenty_unknown_names_get_suggestions_and_repeats_are_one_problem(api):
    text = "\n".join(f"1 Nowhere Card {i}" for i in range(30)) + "\n1 Nowhere Card 0\n"
    body = {"game": "conquest-of-orion", "format": "constructed", "text": text}
    problems = [
        p for p in api.post(VALIDATE, body).json()["problems"] if p["code"] == "unknown_card"
    ]
    assert len(problems) == 30
    assert problems[0]["lines"] == [1, 31]
    assert sum(1 for p in problems if p["suggestions"]) <= 20
