import pytest
import yaml
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card

pytestmark = pytest.mark.django_db

GAMES = [
    "conquest-alpha-tactics",
    "conquest-for-the-capital",
    "conquest-of-fates",
    "conquest-of-orion",
    "fate-foretold",
]


def test_the_games_list_names_all_five_games(api):
    body = api.get("/api/v1/games/").json()
    assert body["count"] == 5
    assert sorted(g["slug"] for g in body["results"]) == GAMES


def test_a_game_carries_its_stat_schema_types_zones_and_glossary(api):
    body = api.get("/api/v1/games/conquest-of-orion/").json()
    assert body["name"] == "Conquest of Orion"
    assert [s["key"] for s in body["stat_schema"]][:3] == ["cost_blue", "cost_gold", "cost_red"]
    assert {t["name"]: t["zone"] for t in body["card_types"]}["Planet"] is None
    assert [r["name"] for r in body["rarities"]] == ["Copper", "Silver", "Gold"]
    assert "Guardian" in {k["name"] for k in body["keywords"]}
    assert body["terms"]


def test_an_unknown_game_is_a_json_404(api):
    response = api.get("/api/v1/games/magic/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_sets_can_be_listed_for_one_game_and_say_whether_they_are_official(api):
    body = api.get("/api/v1/sets/", {"game": "conquest-of-orion"}).json()
    assert {s["code"]: s["official"] for s in body["results"]} == {"ORI-RB": True, "ORI-SMP": False}


def test_the_card_list_is_paginated_with_count_next_previous_and_results(api):
    body = api.get("/api/v1/cards/", {"game": "conquest-alpha-tactics", "page_size": 10}).json()
    assert set(body) == {
        "count",
        "next",
        "previous",
        "results",
        "warnings",
        "dropped",
        "suggestions",
    }
    assert len(body["results"]) == 10
    assert body["count"] == Card.objects.filter(game__slug="conquest-alpha-tactics").count()
    assert body["previous"] is None
    assert body["next"].startswith("http://testserver/api/v1/cards/?")


def test_walking_every_page_visits_every_card_exactly_once(api):
    seen, url = [], "/api/v1/cards/?game=conquest-of-orion&page_size=7"
    while url:
        body = api.get(url).json()
        seen += [c["id"] for c in body["results"]]
        url = body["next"]
    assert (
        len(seen) == len(set(seen)) == Card.objects.filter(game__slug="conquest-of-orion").count()
    )


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"game": "conquest-for-the-capital", "faction": "dwarves", "type": "battle"}, 12),
        ({"game": "conquest-for-the-capital", "faction": "Dwarves", "type": "Upgrade"}, 8),
        ({"set": "cfc-smp"}, 80),
        ({"game": "fate-foretold", "type": "Sigil", "set": "FF-SMP"}, 6),
    ],
)
def test_cards_filter_by_game_set_faction_and_type(api, params, expected):
    assert api.get("/api/v1/cards/", params).json()["count"] == expected


@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("game", "magic"),
        ("set", "NOPE"),
        ("faction", "goblins"),
        ("type", "spell"),
    ],
)
def test_an_unknown_filter_value_is_a_400_naming_the_filter(api, param, value):
    response = api.get("/api/v1/cards/", {param: value})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert value in body["errors"][param][0]


def test_a_card_carries_everything_a_client_needs(api):
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    body = api.get(f"/api/v1/cards/{card.short_id}/").json()
    assert body["id"] == card.short_id
    assert body["game"] == "conquest-of-orion"
    assert body["set"] == {"code": "ORI-RB", "name": card.card_set.name, "official": True}
    assert body["type"] == "Unit"
    assert body["stats"] == {"damage": 4, "health": 5}
    assert body["sample"] is False
    assert body["page_url"] == f"http://testserver/cards/{card.short_id}/cloudglider/"
    assert body["short_url"] == f"http://testserver/c/{card.short_id}"
    assert body["url"] == f"http://testserver/api/v1/cards/{card.short_id}/"
    assert {
        "number",
        "name",
        "factions",
        "rarity",
        "keywords",
        "text",
        "rulings",
        "errata",
        "classifications",
        "flavour",
        "artist",
        "art",
        "source",
        "notes",
    } <= set(body)


def test_a_card_with_no_stated_type_has_a_null_type(api):
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    body = api.get(f"/api/v1/cards/{galaxy.short_id}/").json()
    assert body["type"] is None
    listed = _listed(api, set="TAC-RB", page_size=100)
    assert listed["Galaxy"]["type"] is None
    assert listed["Earth"]["type"] == "Planet"


def test_a_card_lists_the_fields_whose_values_are_inferred(api):
    surak = Card.objects.get(card_set__code="TAC-RB", name="Surak")
    body = api.get(f"/api/v1/cards/{surak.short_id}/").json()
    assert body["inferred"] == ["stats.combat_power", "keywords"]
    assert body["stats"] == {"combat_power": 7}
    listed = _listed(api, set="TAC-RB", page_size=100)
    assert listed["Vor'Cha"]["inferred"] == ["stats.combat_power", "keywords"]
    assert listed["Galaxy"]["inferred"] == []


def test_the_schema_says_a_cards_type_may_be_null_and_what_inferred_means(api):
    schema = yaml.safe_load(api.get("/api/v1/schema/").content)
    card = schema["components"]["schemas"]["Card"]["properties"]
    assert card["type"].get("nullable") is True
    assert "functionally identical" in card["inferred"]["description"]


def test_a_card_carries_its_rulings_and_errata(api):
    card = Card.objects.get(card_set__code="FF-RB", name="The Insight")
    body = api.get(f"/api/v1/cards/{card.short_id}/").json()
    assert any("another player" in e["text"] for e in body["errata"])
    assert len(body["rulings"]) == 2
    assert body["rulings"][0]["date"] == "2017-07-06"


def test_a_sample_card_says_so(api):
    card = Card.objects.filter(card_set__code="TAC-SMP").first()
    body = api.get(f"/api/v1/cards/{card.short_id}/").json()
    assert body["sample"] is True
    assert body["set"]["official"] is False


def test_an_unknown_card_is_a_json_404(api):
    response = api.get("/api/v1/cards/zzzzzzzz/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No Card matches the given query."}


def test_an_unknown_api_path_is_a_json_404_not_an_html_page(api):
    response = api.get("/api/v1/nothing/here/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_a_page_past_the_end_is_a_json_404(api):
    response = api.get("/api/v1/cards/", {"page": 9999})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_writing_to_the_read_api_is_refused_as_json(api):
    response = api.post("/api/v1/cards/", {"name": "x"})
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize("page_size", [1, 50, 200])
def test_a_card_list_page_costs_the_same_queries_whatever_its_size(api, page_size):
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/v1/cards/", {"page_size": page_size})
    assert response.status_code == 200
    selects = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
    # count, the page's ids, its cards, and a prefetch each for subtypes, factions, keywords,
    # rulings and errata
    assert len(selects) == 8


def test_the_openapi_schema_generates_and_validates_without_warnings(tmp_path):
    schema_file = tmp_path / "schema.yaml"
    # --fail-on-warn turns any drf-spectacular warning or error into a failure.
    call_command(
        "spectacular",
        "--api-version",
        "v1",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(schema_file),
    )
    schema = schema_file.read_text()
    assert "/api/v1/cards/{id}/:" in schema
    assert "/api/v1/games/{slug}/:" in schema


def test_the_schema_and_interactive_docs_are_served(api):
    assert api.get("/api/v1/schema/").status_code == 200
    assert api.get("/api/v1/docs/").status_code == 200


def test_sets_of_an_unknown_game_are_a_400_naming_it(api):
    response = api.get("/api/v1/sets/", {"game": "magic"})
    assert response.status_code == 400
    assert response.json()["errors"]["game"] == ["No game 'magic'."]


def test_a_server_error_under_the_api_is_json_too(rf):
    from cardsite.api.errors import json_or_html_500

    response = json_or_html_500(rf.get("/api/v1/cards/"))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert b'"code": "server_error"' in response.content


def test_the_fast_card_record_equals_what_the_declared_fields_give(rf):
    from rest_framework import serializers
    from rest_framework.request import Request

    from cardsite.catalogue.api.serializers import CardSerializer
    from cardsite.catalogue.selectors import card_list

    request = Request(rf.get("/api/v1/cards/"))
    request.version, request.versioning_scheme = "v1", None
    from rest_framework.versioning import NamespaceVersioning

    request.versioning_scheme = NamespaceVersioning()
    serializer = CardSerializer(context={"request": request})
    cards = list(card_list().filter(rulings__isnull=False).distinct()[:5]) + list(card_list()[:40])
    # Cards with no stated type and with inferred values.
    cards += list(card_list(set_code="TAC-RB"))
    for card in cards:
        fast = serializer.to_representation(card)
        declared = serializers.ModelSerializer.to_representation(serializer, card)
        assert fast == dict(declared), card.name


def _listed(api, **params):
    return {c["name"]: c for c in api.get("/api/v1/cards/", params).json()["results"]}


def test_a_cached_card_record_changes_when_the_card_does(api):
    params = {"set": "ORI-RB", "page_size": 50}
    assert "Cloudglider" in _listed(api, **params)
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    card.name = "Cloudglider Mk II"
    card.save()
    listed = _listed(api, **params)
    assert "Cloudglider Mk II" in listed and "Cloudglider" not in listed


def test_a_cached_card_record_changes_when_its_faction_does(api):
    from cardsite.catalogue.models import Faction

    params = {"set": "CFC-RB"}
    assert _listed(api, **params)["Elf Special Card"]["factions"][0]["colour"] == "#2E7D32"
    elves = Faction.objects.get(slug="elves")
    elves.colour = "#00FF00"
    elves.save()
    assert _listed(api, **params)["Elf Special Card"]["factions"][0]["colour"] == "#00FF00"


def test_a_cached_card_record_changes_after_an_import(api):
    from cardsite.catalogue.documents import read_json
    from cardsite.catalogue.services import catalogue_import

    params = {"set": "ORI-RB"}
    assert _listed(api, **params)["Heliokraken"]["notes"]
    doc = read_json(
        '{"cards": [{"set": "ORI-RB", "number": "11", "name": "Heliokraken", '
        '"type": "Unit", "stats": {"damage": 5, "health": 3}, "notes": "Reimported."}]}'
    )
    catalogue_import(game_slug="conquest-of-orion", document=doc)
    assert _listed(api, **params)["Heliokraken"]["notes"] == "Reimported."


def test_records_built_from_rows_equal_the_serializers(rf):
    from rest_framework.request import Request
    from rest_framework.versioning import NamespaceVersioning

    from cardsite.catalogue.api.records import card_records_from_rows
    from cardsite.catalogue.api.serializers import CardSerializer
    from cardsite.catalogue.selectors import card_list

    request = Request(rf.get("/api/v1/cards/"))
    request.version, request.versioning_scheme = "v1", NamespaceVersioning()
    cards = list(card_list().filter(rulings__isnull=False).distinct()[:5])
    cards += list(
        card_list().filter(subtypes__isnull=False, keywords__isnull=False).distinct()[:10]
    )
    cards += list(card_list()[:30])
    cards += list(card_list(set_code="TAC-RB"))
    art_card = cards[-1]
    art_card.art.name = "art/example.png"
    art_card.save()
    records = card_records_from_rows([c.id for c in cards], request)
    serializer = CardSerializer(context={"request": request})
    for card in cards:
        card.refresh_from_db()
        assert records[card.id] == serializer.to_representation(card), card.name


def test_a_search_finding_nothing_suggests_names_for_an_exact_name_too(api):
    body = api.get("/api/v1/cards/", {"q": '!"The Insite"'}).json()
    assert body["results"] == []
    assert body["suggestions"] == ["The Insight"]
