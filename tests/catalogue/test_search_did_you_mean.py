"""The search page: "did you mean" from the one name scorer when nothing matches, 60 results
a page, and a grid of faces beside the text list."""

import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.cache import cache

from cardsite.catalogue.models import Card
from cardsite.catalogue.views import SEARCH_PAGE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def page_for(client, **params):
    response = client.get("/search/", params)
    assert response.status_code == 200
    return response.content.decode()


def suggested_searches(page):
    """The searches the page's did-you-mean links ask for, in order."""
    links = re.findall(r'<a class="meant-search" href="([^"]+)"', page)
    return [parse_qs(urlparse(unescape(link)).query)["q"][0] for link in links]


def test_the_insite_as_an_exact_name_is_offered_the_exact_search_for_the_insight(client):
    page = page_for(client, q='!"The Insite"')
    assert "No cards match" in page and "Did you mean" in page
    assert suggested_searches(page) == ['!"The Insight"']
    card = Card.objects.filter(name="The Insight").first()
    assert f'href="{card.get_absolute_url()}"' in page


def test_deridx_is_offered_d_deridex(client):
    page = page_for(client, q="deridx")
    assert suggested_searches(page) == ["D'Deridex"]


def test_atavaa_names_no_card_closely_so_the_nearest_names_are_listed_as_the_named_api_does(
    client,
):
    page = page_for(client, q="atavaa")
    assert "Did you mean" not in page
    assert "No card is named close to that. The nearest names are" in page
    listed = re.findall(r'class="did-you-mean".*?</ul>', page, re.S)[0]
    api = client.get("/api/v1/cards/named/", {"fuzzy": "atavaa"}).json()
    for name in api["candidates"]:
        assert name.replace("'", "&#x27;") in listed


def test_the_other_terms_are_kept_and_the_suggested_name_takes_the_name_parts_place(client):
    page = page_for(client, q='!"The Insite" t:nest')
    assert suggested_searches(page) == ['!"The Insight" t:nest']
    page = page_for(client, q="quantam torpedos is:official")
    assert suggested_searches(page) == ['"Quantum Torpedoes" is:official']


def test_a_suggested_search_that_would_still_find_nothing_offers_only_the_card(client):
    page = page_for(client, q="insite t:unit")
    assert suggested_searches(page) == []
    assert "Did you mean" in page and ">The Insight</a>" in page


def test_suggestions_keep_to_the_game_chosen(client):
    page = page_for(client, q="insite", game="conquest-of-orion")
    assert "The Insight" not in page
    page = page_for(client, q="insite", game="fate-foretold")
    assert suggested_searches(page) == ['"The Insight"']
    assert "game=fate-foretold" in page


def test_a_name_part_longer_than_the_fuzzy_limit_gets_no_suggestion(client):
    words = " ".join(["insite"] * 11)
    page = page_for(client, q=words)
    assert "No cards match" in page and "did-you-mean" not in page


def test_a_negated_name_is_not_what_the_searcher_meant(client):
    page = page_for(client, q="-insite zzyzx")
    assert "The Insight" not in page


def test_the_search_page_shows_60_results_a_page_with_a_next_link(client):
    assert SEARCH_PAGE == 60
    total = Card.objects.count()
    assert total > 2 * SEARCH_PAGE
    for view in ("grid", "list"):
        page = page_for(client, q="order:name", view=view)
        if view == "grid":
            grid = page.split('class="face-grid"')[1].split("</ul>")[0]
            assert grid.count("<img ") == 60
        else:
            assert page.count("<tr>") == 61  # the header's row and sixty cards
        assert re.search(r'href="[^"]*page=2[^"]*" rel="next"', page)


def test_the_grid_shows_lazy_faces_with_alt_text_and_the_toggle_keeps_the_query(client):
    page = page_for(client, q="t:unit")
    faces = re.findall(r"<img [^>]*>", page.split('class="face-grid')[1].split("</ul>")[0])
    assert faces and all('loading="lazy"' in f and 'alt="' in f and "/face" in f for f in faces)
    assert 'href="?q=t%3Aunit&amp;view=list"' in page
    listed = page_for(client, q="t:unit", view="list")
    assert "results-list" in listed and 'href="?q=t%3Aunit&amp;view=grid"' in listed
