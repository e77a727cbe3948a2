"""Terms that cannot apply are dropped, named, and offered the nearest valid term; a query whose
every term was dropped finds no cards. On the search page, in the API and in the builder."""

import html
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.search.compile import MAX_OFFERS
from cardsite.catalogue.selectors import card_search
from decks.models import Deck
from engines.filters.limits import MAX_QUERY_TERMS
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db


def dropped(query: str, game: str | None = None):
    return card_search(text=query, game=game).warnings


def test_a_misspelt_type_is_dropped_and_the_nearest_type_offered():
    [term] = dropped("t:achievment")
    assert term.term == "t:achievment"
    assert term.reason == "“achievment” is not a card type or classification of any game"
    assert term.suggestion == "t:achievement"
    assert term.query == "t:achievement"


def test_the_offered_query_keeps_every_other_term_and_finds_cards_without_warnings():
    query = "f:humans -t:achievment tier<=2"
    [term] = dropped(query, "conquest-of-orion")
    assert term.query == "f:humans -t:achievement tier<=2"
    fixed = card_search(text=term.query, game="conquest-of-orion")
    assert fixed.warnings == [] and fixed.cards.exists()


def test_a_value_with_nothing_near_is_dropped_without_an_offer():
    [term] = dropped("r:platinum")
    assert term.reason == "“platinum” is not a rarity of any game"
    assert (term.suggestion, term.query) == ("", "")


def test_within_one_game_the_reason_names_that_game():
    [term] = dropped("f:humanz", "conquest-of-orion")
    assert term.reason.endswith("of Conquest of Orion")
    assert term.suggestion == "f:humans"


def test_misspelt_keys_keywords_sets_games_and_sort_orders_are_offered_their_nearest():
    offered = {
        query: dropped(query, game)[0].suggestion
        for query, game in [
            ("tpye:unit", None),
            ("is:gaurdian", "conquest-of-orion"),
            ("s:ori-smpl", None),
            ("game:orian", None),
            ("timing:pasive", "conquest-for-the-capital"),
            ("t>unit", None),
        ]
    }
    assert offered == {
        "tpye:unit": "type:unit",
        "is:gaurdian": "is:guardian",
        "s:ori-smpl": "s:ori-smp",
        "game:orian": "game:conquest-of-orion",
        "timing:pasive": "timing:passive",
        "t>unit": "t:unit",
    }
    [order] = dropped("t:unit order:nmae")
    assert order.suggestion == "order:name"


def test_a_value_of_several_words_is_offered_as_its_slug():
    [term] = dropped('f:"hollowstar covenent"', "conquest-of-fates")
    assert term.suggestion == "f:hollowstar-covenant"
    assert card_search(text=term.query, game="conquest-of-fates").cards.exists()


def test_a_stat_of_another_game_says_whose_stat_it_is():
    [term] = dropped("cq>=3", "conquest-of-orion")
    assert term.reason == "cq is a stat of Conquest of Fates, not of Conquest of Orion"


def test_a_word_without_letters_is_dropped_rather_than_matching_every_name():
    [term] = dropped("???")
    assert "no letters or digits" in term.reason
    assert not card_search(text="???").cards.exists()


def test_a_query_whose_every_term_was_dropped_finds_no_cards():
    result = card_search(text="t:achievment r:platinum")
    assert result.nothing_applies
    assert not result.cards.exists()
    assert len(result.warnings) == 2


def test_a_dropped_term_beside_one_that_applies_leaves_that_one_searching():
    result = card_search(text="cloudglider r:platinum")
    assert not result.nothing_applies
    assert list(result.cards.values_list("name", flat=True)) == ["Cloudglider"]


def test_a_query_of_only_an_order_still_lists_every_card():
    result = card_search(text="order:cq dir:desc", game="conquest-of-fates")
    assert not result.nothing_applies and result.cards.count() == 84


def test_fifty_dropped_terms_are_each_named_in_a_bounded_number_of_queries(
    django_assert_max_num_queries,
):
    query = " ".join(f"t:achievment{i}" for i in range(MAX_QUERY_TERMS))
    # Per term its type and classification lookups; the valid values are read once.
    with django_assert_max_num_queries(2 * MAX_QUERY_TERMS + 4):
        result = card_search(text=query)
        assert list(result.cards) == []
    assert len(result.warnings) == MAX_QUERY_TERMS
    assert result.nothing_applies
    # Only the first few are scored against every valid value for an offer.
    assert [w.suggestion for w in result.warnings[:MAX_OFFERS]] == ["t:achievement"] * MAX_OFFERS
    assert not [w for w in result.warnings[MAX_OFFERS:] if w.suggestion]


# --- the search page -----------------------------------------------------------------------


def test_the_search_page_names_a_dropped_term_and_links_the_corrected_search(client):
    response = client.get(
        "/search/", {"q": "cloudglider -t:achievment", "game": "conquest-of-orion", "view": "list"}
    )
    page = response.content.decode()
    assert "<code>t:achievment</code> was left out" in page
    assert "is not a card type or classification of Conquest of Orion" in page
    link = html.unescape(page.split('Did you mean <a href="')[1].split('"')[0])
    params = parse_qs(urlsplit(link).query)
    assert params == {
        "q": ["cloudglider -t:achievement"],
        "game": ["conquest-of-orion"],
        "view": ["list"],
    }


def test_the_search_page_shows_no_cards_when_every_term_was_dropped(client):
    response = client.get("/search/", {"q": "t:achievment r:platinum"})
    page = response.content.decode()
    assert response.context["page"].paginator.count == 0
    assert "could be used, so no cards are shown" in page
    assert page.count("was left out") == 2


def test_each_dropped_term_is_its_own_list_item(client):
    page = client.get("/search/", {"q": "r:platinum t:achievment cloudglider"}).content.decode()
    banner = page.split('class="alert warning dropped-terms"')[1].split("</ul>")[0]
    assert banner.count("<li>") == 2


# --- the API -------------------------------------------------------------------------------


def test_the_api_lists_dropped_terms_with_their_offers(api):
    body = api.get("/api/v1/cards/", {"q": "cloudglider t:achievment"}).json()
    assert [c["name"] for c in body["results"]] == ["Cloudglider"]
    assert body["dropped"] == [
        {
            "term": "t:achievment",
            "position": 12,
            "reason": "“achievment” is not a card type or classification of any game",
            "suggestion": "t:achievement",
            "query": "cloudglider t:achievement",
        }
    ]
    assert body["warnings"] == [
        "“achievment” is not a card type or classification of any game; ignored "
        "“t:achievment” (position 12). Did you mean “t:achievement”?"
    ]


def test_the_api_finds_no_cards_when_every_term_was_dropped(api):
    body = api.get("/api/v1/cards/", {"q": "r:platinum"}).json()
    assert body["count"] == 0 and body["results"] == []
    assert body["dropped"][0]["suggestion"] is None


# --- the builder ---------------------------------------------------------------------------


def test_the_builders_search_shows_the_same_offer(client):
    user = User.objects.create_user("ines", password="x-Long-pass-9")
    client.force_login(user)
    client.post("/decks/new/", {"name": "Humans", "game_format": "conquest-of-orion/constructed"})
    deck = Deck.objects.get(name="Humans")
    response = client.get(
        f"/decks/{deck.share_key}/edit/", {"q": "f:humanz"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert "<code>f:humanz</code> was left out" in page
    assert "<code>f:humans</code></a>" in page
    assert "No cards match" in page


def test_an_offer_for_a_negated_comparison_keeps_its_operator():
    [term] = dropped("t!=achievment cloudglider")
    assert term.suggestion == "t!=achievement"
    assert term.query == "t!=achievement cloudglider"


def test_the_readme_states_how_many_dropped_terms_get_an_offer():
    readme = docs_text()
    limits = readme[readme.index("### Limits") :]
    assert f"offered for the first **{MAX_OFFERS}**" in limits
