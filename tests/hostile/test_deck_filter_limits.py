"""/decks/'s filters beyond their limits, or naming what does not exist: a 400 page naming the
limit or the name, the form still there, and no deck read."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.reading.finding import CARD_MAX, CHOICE_MAX, PAGE_MAX, Q_MAX, Q_WORDS
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db

DECK_TABLE = re.compile(r'\bFROM "decks_deck"(?!\w)')


def readme_limits() -> str:
    """The Limits table (docs/pages/operations.md), where each limit is stated for people."""
    text = docs_text()
    start = text.index("### Limits")
    return text[start : text.index("\n### ", start + 1)]


def refused(client, **params) -> str:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/decks/", params)
    assert response.status_code == 400, response.content[:300]
    assert not [q for q in queries.captured_queries if DECK_TABLE.search(q["sql"])]
    html = response.content.decode()
    assert 'class="deck-filters"' in html  # the form is there to put it right
    return re.search(r'<p class="alert error" role="alert">(.*?)</p>', html, re.S).group(1)


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"q": "x" * (Q_MAX + 1)}, f"q is at most {Q_MAX} characters"),
        ({"q": " ".join(["w"] * (Q_WORDS + 1))}, f"at most {Q_WORDS} words"),
        ({"card": "x" * (CARD_MAX + 1)}, f"card is at most {CARD_MAX} characters"),
        ({"game": "x" * (CHOICE_MAX + 1)}, f"game is at most {CHOICE_MAX} characters"),
        ({"format": "x" * (CHOICE_MAX + 1)}, f"format is at most {CHOICE_MAX} characters"),
        ({"faction": "x" * (CHOICE_MAX + 1)}, f"faction is at most {CHOICE_MAX} characters"),
        ({"sort": "oldest"}, "sort is one of updated, newest, name"),
        ({"legality": "legal-ish"}, "legality is one of legal, not-legal"),
        ({"page": str(PAGE_MAX + 1)}, "page is a whole number from 1 to 10,000"),
        ({"page": "0"}, "page is a whole number from 1 to 10,000"),
        ({"page": "9" * 5000}, "page is a whole number from 1 to 10,000"),
        ({"page": "two"}, "page is a whole number from 1 to 10,000"),
    ],
)
def test_a_filter_past_its_limit_is_a_400_naming_it(client, params, says):
    assert says in refused(client, **params)


def test_the_limits_themselves_are_accepted(client):
    for params in (
        {"q": " ".join(["w" * 9] * Q_WORDS)},
        {"card": "x" * CARD_MAX},
        {"page": str(PAGE_MAX)},
    ):
        assert client.get("/decks/", params).status_code == 200


def test_an_unknown_game_format_or_faction_is_a_400_naming_it(client):
    assert "There is no game “chess”." in refused(client, game="chess")
    assert "Conquest of Orion has no format “nest” (formats: constructed, limited)." in refused(
        client, game="conquest-of-orion", format="nest"
    )
    assert "No game has a format “blitz”." in refused(client, format="blitz")
    assert "Conquest of Orion has no faction “elves”." in refused(
        client, game="conquest-of-orion", faction="elves"
    )
    assert "No game has a faction “gnomes”." in refused(client, faction="gnomes")


def test_a_format_or_faction_of_some_game_is_accepted_without_a_game(client):
    assert client.get("/decks/", {"format": "nest"}).status_code == 200
    assert client.get("/decks/", {"faction": "elves"}).status_code == 200


def test_the_readme_states_the_deck_list_limits():
    row = next(line for line in readme_limits().splitlines() if "`/decks/`" in line)
    for stated in (f"{Q_MAX} characters", f"{Q_WORDS} words", f"{CARD_MAX} characters"):
        assert stated in row
    assert f"{PAGE_MAX:,}" in row and f"{CHOICE_MAX} characters" in row
