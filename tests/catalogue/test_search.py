"""The search language against the real fixtures. The same tests run on SQLite (FTS5) and
PostgreSQL (tsvector and trigram indexes)."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card
from cardsite.catalogue.search.examples import BY_GAME, GENERAL
from cardsite.catalogue.selectors import card_search
from engines.filters.syntax import QuerySyntaxError

pytestmark = pytest.mark.django_db


def names(query: str, game: str | None = None) -> list[str]:
    return list(card_search(text=query, game=game).cards.values_list("name", flat=True))


def warnings(query: str, game: str | None = None) -> list[str]:
    return [str(w) for w in card_search(text=query, game=game).warnings]


def test_bare_words_match_names_in_any_order_ignoring_case_and_punctuation():
    assert names("deridex") == ["D'Deridex"]
    assert names("HORSE pale") == ["Death, the Pale Horse"]


def test_an_accented_name_is_found_without_its_accents():
    card = Card.objects.filter(card_set__code="FF-SMP").first()
    card.name = "The Café Oracle"
    card.save()
    assert names("cafe oracle", "fate-foretold") == ["The Café Oracle"]
    assert names("café", "fate-foretold") == ["The Café Oracle"]


def test_a_quoted_phrase_must_appear_as_written():
    assert names('"pale horse"') == ["Death, the Pale Horse"]
    assert names('"horse pale"') == []


def test_an_exact_name_matches_only_that_name():
    assert names('!"Galaxy"', "conquest-alpha-tactics") == ["Galaxy"]
    assert names('!"Galax"', "conquest-alpha-tactics") == []


def test_type_matches_types_and_classifications():
    assert set(names("t:sigil", "fate-foretold")) >= {"King", "Queen"}
    horses = names("t:horse", "fate-foretold")
    assert sorted(horses) == [
        "Death, the Pale Horse",
        "Famine",
        "Pestilence, the Black Horse",
        "War",
    ]


def test_a_card_with_no_stated_type_matches_no_t_term():
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    assert galaxy.card_type is None
    tactics = "conquest-alpha-tactics"
    for query in ("t:weapon", "t:ship", "type:troops", "t:planet"):
        assert "Galaxy" not in names(query, tactics), query
    assert names("t:weapon -is:sample", tactics) == ["Phaser"]


def test_t_weapon_finds_a_card_only_once_it_has_that_type():
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    assert "Galaxy" not in names("t:weapon", "conquest-alpha-tactics")
    galaxy.card_type = galaxy.game.card_types.get(name="Weapon")
    galaxy.save()
    cache.clear()
    assert "Galaxy" in names("t:weapon", "conquest-alpha-tactics")


def test_rules_text_matches_words_and_their_beginnings():
    found = card_search(text="o:draw", game="conquest-for-the-capital").cards
    assert found.exists()
    assert all("draw" in c.rules_text.lower() for c in found)


def test_rules_text_phrases_keep_their_word_order():
    phrase = card_search(text='o:"up to 6"', game="conquest-for-the-capital").cards
    assert phrase.count() == 4  # one "draw up to 6" Upgrade per faction
    assert not card_search(text='o:"6 to up"', game="conquest-for-the-capital").cards.exists()


def test_faction_matches_name_beginning_and_abbreviation():
    assert names("f:dwarves t:upgrade", "conquest-for-the-capital") == names(
        "f:dwarf t:upgrade", "conquest-for-the-capital"
    )
    romulan = card_search(text="f:r", game="conquest-alpha-tactics").cards
    assert romulan.exists() and all(c.factions.filter(name="Romulan").exists() for c in romulan)


def test_set_matches_by_code():
    assert card_search(text="s:cfc-smp", game="conquest-for-the-capital").cards.count() == 80


def test_rarity_compares_in_the_games_order():
    silver_up = card_search(text="r>=silver", game="conquest-of-orion").cards
    assert silver_up.exists()
    assert set(silver_up.values_list("rarity__name", flat=True)) == {"Silver", "Gold"}
    assert set(
        card_search(text="r<silver", game="conquest-of-orion").cards.values_list(
            "rarity__name", flat=True
        )
    ) == {"Copper"}


def test_is_matches_keywords_attributes_and_effect_types():
    apex = card_search(text="is:apex", game="conquest-of-fates").cards
    assert apex.count() == 6
    scoring = card_search(text="is:s", game="conquest-alpha-tactics").cards
    assert "Galaxy" in scoring.values_list("name", flat=True)


def test_is_sample_and_is_official_split_the_catalogue():
    total = Card.objects.filter(game__slug="conquest-of-orion").count()
    sample = card_search(text="is:sample", game="conquest-of-orion").cards.count()
    official = card_search(text="is:official", game="conquest-of-orion").cards.count()
    assert (sample, official, sample + official) == (82, 11, total)


@pytest.mark.parametrize(
    ("query", "check"),
    [
        ("cq=3", lambda s: s["cq"] == 3),
        ("cq:3", lambda s: s["cq"] == 3),
        ("cq!=3", lambda s: s["cq"] != 3),
        ("cq<2", lambda s: s["cq"] < 2),
        ("cq<=2", lambda s: s["cq"] <= 2),
        ("cq>7", lambda s: s["cq"] > 7),
        ("cq>=7", lambda s: s["cq"] >= 7),
    ],
)
def test_numeric_stats_compare_with_every_operator(query, check):
    found = card_search(text=query, game="conquest-of-fates").cards
    assert found.exists()
    assert all(check(c.stats) for c in found)


def test_stat_aliases_use_the_names_players_use():
    assert names("dmg>=4 hp>=5", "conquest-of-orion") == names(
        "damage>=4 health>=5", "conquest-of-orion"
    )
    assert "Cloudglider" in names("dmg=4 hp=5", "conquest-of-orion")
    assert names("atk>=3", "conquest-for-the-capital") == names(
        "attack>=3", "conquest-for-the-capital"
    )
    assert "Infantry" in names("cp=15", "conquest-alpha-tactics")


def test_a_card_without_the_stat_never_matches_a_comparison():
    assert "Osiris" not in names("dmg<100", "conquest-of-orion")
    assert "Osiris" not in names("dmg!=3", "conquest-of-orion")


def test_choice_stats_match_their_values():
    passive = card_search(text="timing:passive", game="conquest-for-the-capital").cards
    assert passive.exists() and all(c.stats["timing"] == "passive" for c in passive)
    assert "Earth" in names("planet:federation -is:sample", "conquest-alpha-tactics")


def test_negation_excludes_what_it_negates():
    assert "Cloudglider" not in names("-dmg=4", "conquest-of-orion")
    assert set(names("t:unit -is:sample", "conquest-of-orion")) == {
        "Forerunner",
        "Expedition Escort",
        "Osiris",
        "Cloudglider",
        "Plated Voyager",
        "Heliokraken",
    }


def test_or_and_parentheses_combine_terms():
    assert sorted(names("cloudglider or heliokraken")) == ["Cloudglider", "Heliokraken"]
    assert names("(cloudglider or heliokraken) dmg=5") == ["Heliokraken"]
    assert names("-(cloudglider or heliokraken) dmg>=4 -is:sample", "conquest-of-orion") == []


def test_order_by_a_stat_descending_puts_the_highest_first():
    cqs = [
        c.stats["cq"]
        for c in card_search(text="t:unit order:cq dir:desc", game="conquest-of-fates").cards
    ]
    assert cqs == sorted(cqs, reverse=True)


def test_the_default_order_is_by_name_and_total():
    found = list(card_search(text="t:unit", game="conquest-of-orion").cards)
    assert [c.name for c in found] == sorted(c.name for c in found)


def test_an_unknown_key_is_ignored_with_a_warning():
    assert names("cloudglider foo:bar") == ["Cloudglider"]
    assert warnings("cloudglider foo:bar") == [
        "unknown key “foo”; ignored “foo:bar” (position 12)."
    ]


def test_a_value_that_cannot_apply_is_ignored_with_a_warning():
    assert names("is:nonsense cloudglider") == ["Cloudglider"]
    assert (
        "“nonsense” is not a keyword or attribute of any game"
        in warnings("is:nonsense cloudglider")[0]
    )
    assert "cq needs a whole number" in warnings("cq>=lots", "conquest-of-fates")[0]


@pytest.mark.parametrize(
    ("query", "position"),
    [
        ("(t:unit", 0),
        ("t:unit)", 6),
        ("or t:unit", 0),
        ("t:unit or", 7),
        ('o:"unclosed', 2),
    ],
)
def test_a_query_that_cannot_be_parsed_names_the_problem_and_its_position(query, position):
    with pytest.raises(QuerySyntaxError) as excinfo:
        card_search(text=query)
    assert excinfo.value.position == position


@pytest.mark.parametrize("example", GENERAL, ids=lambda e: e.query)
def test_every_general_example_on_the_syntax_page_finds_cards_without_warnings(example):
    result = card_search(text=example.query)
    assert result.warnings == []
    assert result.cards.exists()


@pytest.mark.parametrize(
    ("game", "example"),
    [(g, e) for g, es in BY_GAME.items() for e in es],
    ids=lambda v: v if isinstance(v, str) else v.query,
)
def test_every_game_example_on_the_syntax_page_finds_cards_without_warnings(game, example):
    result = card_search(text=example.query, game=game)
    assert result.warnings == []
    assert result.cards.exists()


# --- the API ---------------------------------------------------------------------------------


def test_the_api_searches_with_q_and_carries_the_warnings(api):
    body = api.get("/api/v1/cards/", {"q": "cloudglider is:nonsense"}).json()
    assert [c["name"] for c in body["results"]] == ["Cloudglider"]
    assert len(body["warnings"]) == 1


def test_an_unparseable_api_query_is_a_400_with_the_position(api):
    response = api.get("/api/v1/cards/", {"q": "t:unit or"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_query"
    assert response.json()["position"] == 7


def test_a_search_that_finds_nothing_suggests_close_names(api):
    body = api.get("/api/v1/cards/", {"q": "plated voyagr"}).json()
    assert body["count"] == 0
    assert "Plated Voyager" in body["suggestions"]


def test_a_search_runs_the_same_bounded_number_of_queries_whatever_the_page_size(api):
    counts = []
    for page_size in (1, 20, 200):
        cache.clear()  # each time cold: a cached search would skip the search itself
        with CaptureQueriesContext(connection) as queries:
            response = api.get(
                "/api/v1/cards/",
                {"q": "f:humans t:unit is:guardian or cq>=3", "page_size": page_size},
            )
        assert response.status_code == 200
        counts.append(sum(q["sql"].lstrip().upper().startswith("SELECT") for q in queries))
    # games; faction, keyword, type and classification lookups, and the matching card ids of
    # the three many-to-many terms; the matching ids in order, then the page's cards; a
    # prefetch each for classifications, factions, keywords, rulings and errata
    assert counts == [15, 15, 15]


def test_a_repeated_search_comes_from_the_cache_until_the_catalogue_changes(api, client):
    query = {"q": "f:humans t:unit", "page_size": 5}
    with CaptureQueriesContext(connection) as cold:
        first = api.get("/api/v1/cards/", query).json()
    with CaptureQueriesContext(connection) as warm:
        again = api.get("/api/v1/cards/", query).json()
    assert again == first
    # The ids from the search cache, the page's records from the card cache: no SELECT at all.
    assert sum("SELECT" in q["sql"] for q in cold) == 13
    assert sum("SELECT" in q["sql"] for q in warm) == 0
    assert client.get("/search/", {"q": "f:humans t:unit"}).status_code == 200

    renamed = Card.objects.get(short_id=first["results"][0]["id"])
    renamed.name = "Aaa Renamed Human"
    renamed.save()
    fresh = api.get("/api/v1/cards/", query).json()
    assert fresh["results"][0]["name"] == "Aaa Renamed Human"


def test_searches_narrowed_by_different_filters_never_share_a_cached_answer(api):
    everywhere = api.get("/api/v1/cards/", {"q": "t:unit"}).json()["count"]
    in_one_set = api.get("/api/v1/cards/", {"q": "t:unit", "set": "ORI-SMP"}).json()["count"]
    assert 0 < in_one_set < everywhere


def test_fuzzy_names_survive_typos_and_missing_punctuation(api):
    assert api.get("/api/v1/cards/named/", {"fuzzy": "deridex"}).json()["name"] == "D'Deridex"
    assert (
        api.get(
            "/api/v1/cards/named/", {"fuzzy": "plated voyagr", "game": "conquest-of-orion"}
        ).json()["name"]
        == "Plated Voyager"
    )
    assert api.get("/api/v1/cards/named/", {"fuzzy": "death pale horse"}).json()["name"] == (
        "Death, the Pale Horse"
    )


def test_an_ambiguous_fuzzy_name_is_a_404_listing_the_candidates(api):
    response = api.get("/api/v1/cards/named/", {"fuzzy": "the", "game": "fate-foretold"})
    assert response.status_code == 404
    assert response.json()["code"] == "ambiguous"
    assert len(response.json()["candidates"]) >= 2


def test_exact_names_are_strict(api):
    assert api.get("/api/v1/cards/named/", {"exact": "deridex"}).status_code == 404
    assert api.get("/api/v1/cards/named/", {"exact": "d'deridex"}).json()["name"] == "D'Deridex"


def test_a_name_printed_in_two_sets_prefers_the_official_printing(api):
    # Sample cards never take an official name, so this test gives one a second printing.
    sample = Card.objects.get(card_set__code="TAC-SMP", name="Sample: Cendara Prime")
    sample.name = "Earth"
    sample.save()
    body = api.get(
        "/api/v1/cards/named/", {"exact": "Earth", "game": "conquest-alpha-tactics"}
    ).json()
    assert body["set"]["official"] is True


def test_the_named_endpoint_needs_exactly_one_of_fuzzy_or_exact(api):
    assert api.get("/api/v1/cards/named/").status_code == 400
    assert api.get("/api/v1/cards/named/", {"fuzzy": "a", "exact": "b"}).status_code == 400


def test_a_card_read_sends_an_etag_that_answers_304_and_no_last_modified(api):
    # A date in whole seconds cannot tell two edits in one second apart, and the row's
    # updated_at misses edits to what the answer shows from other rows (factions, set,
    # rulings): the ETag, made from the answer's bytes, is the only validator sent.
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    first = api.get(f"/api/v1/cards/{card.short_id}/")
    assert first.status_code == 200
    assert first["ETag"] and not first.has_header("Last-Modified")
    again = api.get(f"/api/v1/cards/{card.short_id}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_changed_card_gets_a_new_etag(api):
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    etag = api.get(f"/api/v1/cards/{card.short_id}/")["ETag"]
    card.notes += " Edited."
    card.save()
    response = api.get(f"/api/v1/cards/{card.short_id}/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_a_deeply_nested_query_is_refused_not_crashed(api):
    response = api.get("/api/v1/cards/", {"q": "-" * 900 + "x"})
    assert response.status_code == 400
    assert "nests deeper than" in response.json()["detail"]


def test_an_overlong_query_is_refused(api):
    response = api.get("/api/v1/cards/", {"q": "a " * 600})
    assert response.status_code == 400
    assert "at most 1000 characters" in response.json()["detail"]
