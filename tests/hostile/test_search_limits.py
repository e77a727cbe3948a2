"""Searches and typed names beyond their limits are refused with a 400 that names the limit,
alike on SQLite and PostgreSQL, before any card is looked at."""

import re

import pytest
import yaml
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card
from engines.filters.limits import (
    MAX_FUZZY_CHARS,
    MAX_FUZZY_WORDS,
    MAX_NAME_CHARS,
    MAX_QUERY_TERMS,
    QUERY_NUMBER_MAX,
    QUERY_NUMBER_MIN,
)
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db


def readme_limits() -> str:
    """The Limits table (docs/pages/operations.md), where each limit is stated for people."""
    text = docs_text()
    start = text.index("### Limits")
    return text[start : text.index("\n### ", start + 1)]


CARD_TABLE = re.compile(r'\bFROM "catalogue_card"(?!_)')


def search(api, q: str, **params):
    """The API's answer to `q`, and the queries it ran that read the card table."""
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/v1/cards/", {"q": q, **params})
    card_reads = [q["sql"] for q in queries.captured_queries if CARD_TABLE.search(q["sql"])]
    return response, card_reads


def refused(response) -> str:
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "invalid_query"
    return body["detail"]


def test_fifty_terms_are_searched_and_fifty_one_are_a_400_naming_the_limit(api):
    response, card_reads = search(api, " ".join(["cq>=1"] * MAX_QUERY_TERMS))
    assert response.status_code == 200
    assert card_reads  # the search ran: so an empty list below means it never started

    query = " ".join(["cq>=1"] * (MAX_QUERY_TERMS + 1))
    response, card_reads = search(api, query)
    assert "at most 50 terms" in refused(response)
    assert response.json()["position"] == query.rindex("cq>=1")
    assert card_reads == []


def test_two_hundred_characters_of_name_words_are_searched_and_more_are_a_400(api):
    words = [f"{letter}" * 10 for letter in "abcdefghijklmnopqrstu"]
    response, _ = search(api, " ".join(words[:20]))
    assert response.status_code == 200

    response, card_reads = search(api, " ".join(words[:21]))
    assert f"at most {MAX_NAME_CHARS} characters" in refused(response)
    assert card_reads == []


def test_phrases_exact_names_and_name_terms_count_as_name_words_too(api):
    long_word = "x" * 101
    for query in (f'"{long_word}" "{long_word}"', f"!{long_word} name:{long_word}"):
        response, _ = search(api, query)
        assert f"at most {MAX_NAME_CHARS} characters" in refused(response)


@pytest.mark.parametrize(
    "term",
    [
        "cq>=99999999999999999999",
        "cq<-99999999999999999999",
        "tier=2147483648",
        "hp!=-2147483649",
        "cq>9223372036854775808",
    ],
)
def test_a_number_no_stat_can_hold_is_a_400_naming_the_term_on_every_database(api, term):
    response, card_reads = search(api, f"t:unit {term}")
    detail = refused(response)
    assert term in detail
    assert "between -2,147,483,648 and 2,147,483,647" in detail
    assert response.json()["position"] == len("t:unit ")
    assert card_reads == []


def test_the_largest_and_smallest_numbers_a_stat_holds_are_searched_alike_everywhere(api):
    with_cq = Card.objects.filter(game__slug="conquest-of-fates", stats__has_key="cq").count()
    response, _ = search(api, "cq<=2147483647 cq>=-2147483648", game="conquest-of-fates")
    assert response.status_code == 200
    assert response.json()["count"] == with_cq


def test_the_search_page_shows_the_same_refusal_beside_its_form(client):
    page = client.get("/search/", {"q": "cq>=99999999999999999999"})
    assert page.status_code == 400
    assert "between -2,147,483,648 and 2,147,483,647" in page.content.decode()

    page = client.get("/search/", {"q": " ".join(["cq>=1"] * 51)})
    assert page.status_code == 400
    assert "at most 50 terms" in page.content.decode()


def test_a_fuzzy_name_of_ten_words_is_matched_and_of_eleven_is_a_400_naming_the_limit(api):
    ten = " ".join(["horse"] * MAX_FUZZY_WORDS)
    assert api.get("/api/v1/cards/named/", {"fuzzy": ten}).status_code in (200, 404)

    response = api.get("/api/v1/cards/named/", {"fuzzy": ten + " pale"})
    assert response.status_code == 400
    assert response.json()["errors"]["fuzzy"] == [
        f"a name to match may have at most {MAX_FUZZY_WORDS} words; got 11"
    ]


def test_a_fuzzy_name_longer_than_any_card_name_is_a_400_naming_the_limit(api):
    response = api.get("/api/v1/cards/named/", {"fuzzy": "h" * (MAX_FUZZY_CHARS + 1)})
    assert response.status_code == 400
    assert f"at most {MAX_FUZZY_CHARS} characters" in response.json()["errors"]["fuzzy"][0]


def test_a_search_of_more_words_than_a_name_has_offers_no_did_you_mean(api):
    query = " ".join(f"zq{n}x" for n in range(MAX_FUZZY_WORDS + 2))
    response, _ = search(api, query)
    assert response.status_code == 200
    assert response.json()["count"] == 0
    assert response.json()["suggestions"] == []


def test_the_api_schema_states_every_search_limit(api):
    schema = yaml.safe_load(api.get("/api/v1/schema/").content)
    cards = schema["paths"]["/api/v1/cards/"]["get"]["parameters"]
    q = next(p for p in cards if p["name"] == "q")["description"]
    assert "50 terms" in q and "200 characters of name words" in q
    assert "-2,147,483,648" in q and "2,147,483,647" in q
    named = schema["paths"]["/api/v1/cards/named/"]["get"]["parameters"]
    fuzzy = next(p for p in named if p["name"] == "fuzzy")["description"]
    assert "10 words" in fuzzy and "120 characters" in fuzzy


def test_the_readme_states_every_search_limit():
    limits = readme_limits()
    assert f"**{MAX_QUERY_TERMS} terms**" in limits
    assert f"**{MAX_NAME_CHARS} characters of name words**" in limits
    assert f"{QUERY_NUMBER_MIN:,} to {QUERY_NUMBER_MAX:,}" in limits
    assert f"**{MAX_FUZZY_WORDS} words, {MAX_FUZZY_CHARS} characters**" in limits
