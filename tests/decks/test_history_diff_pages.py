"""Two versions of a deck side by side, and the history page's parameters refused by name."""

import re

import pytest

from decks.history.pages import NUMBER_MAX
from decks.services import (
    deck_update,
)
from tests.decks.test_history_pages import add, cards, history_url, new_deck, text_of

pytestmark = pytest.mark.django_db

GAME = "conquest-of-orion"
PASSWORD = "x-Long-pass-9"


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("historian", password=PASSWORD)


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user("stranger", password=PASSWORD)


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def test_two_versions_side_by_side_mark_every_difference_in_words(client, owner):
    a, b, c = cards(3)
    deck = new_deck(owner, [a, b])
    add(deck, a)
    add(deck, b, step=-1)
    add(deck, c)
    deck_update(deck=deck, expected_version=4, changes={"format": "limited"}, author=owner)
    response = client.get(f"{history_url(deck)}diff/?from=1&to=5")
    assert response.status_code == 200
    html = response.content.decode()
    rows = {
        name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))
        for row in re.findall(r"<tr class=\"[\w-]+\">.*?</tr>", html, re.S)
        for name in (a.name, b.name, c.name)
        if f">{name}</a>" in row
    }
    assert 'class="changed"' in html and "1 → 2" in rows[a.name]
    assert "only in version 1" in rows[b.name]
    assert "only in version 5" in rows[c.name]
    text = text_of(response)
    assert "Version 1 not legal in Constructed" in text
    assert "Version 5 not legal in Limited" in text
    assert re.search(r"Format Constructed Limited", text)


def test_the_diff_compares_with_the_current_version_by_default(client, owner):
    deck = new_deck(owner, cards(1))
    add(deck, cards(2)[1])
    response = client.get(f"{history_url(deck)}diff/?from=1")
    assert "Version 1 and version 2" in text_of(response)


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ("", 400, "from is a whole number from 1 to 2,147,483,647"),
        ("from=x", 400, "from is a whole number"),
        ("from=%C2%B2", 400, "from is a whole number"),
        ("from=1&to=%EF%BC%91", 400, "to is a whole number"),
        ("from=-1", 400, "from is a whole number"),
        ("from=0", 400, "from is a whole number"),
        ("from=1&to=2147483648", 400, "to is a whole number from 1 to 2,147,483,647"),
        ("from=" + "9" * 30, 400, "from is a whole number from 1 to 2,147,483,647"),
        ("from=1&to=" + "9" * 5000, 400, "to is a whole number"),
        ("from=3", 404, "from: version 3 of this deck was never kept."),
        ("from=1&to=40", 404, "to: version 40 of this deck was never kept."),
        ("from=1000000000", 404, "from: version 1000000000 of this deck was never kept."),
        ("from=1&to=2147483647", 404, "to: version 2147483647 of this deck was never kept."),
    ],
)
def test_a_bad_diff_version_is_refused_naming_the_parameter(client, owner, query, status, says):
    deck = new_deck(owner, cards(1))
    add(deck, cards(2)[1])
    response = client.get(f"{history_url(deck)}diff/?{query}")
    assert response.status_code == status
    assert says in text_of(response)


@pytest.mark.parametrize("page", ["0", "-3", "two", "\u00b2", "9" * 5000, str(NUMBER_MAX + 1)])
def test_a_bad_history_page_number_is_a_400_naming_it(client, owner, page):
    deck = new_deck(owner, cards(1))
    response = client.get(history_url(deck), {"page": page})
    assert response.status_code == 400
    assert "page is a whole number from 1 to 1,000,000,000" in text_of(response)


def test_a_page_past_the_last_shows_the_last(client, owner):
    deck = new_deck(owner, cards(1))
    response = client.get(history_url(deck), {"page": str(NUMBER_MAX)})
    assert response.status_code == 200 and 'id="version-1"' in response.content.decode()
