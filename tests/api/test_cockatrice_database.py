"""A game's cards as a Cockatrice card database: GET /api/v1/games/{slug}/export/?as=cockatrice,
in the shape Cockatrice's cards.xsd requires (tests/cockatrice_shapes.py), every card once
under a unique name, read in a fixed number of queries, and validated by its ETag."""

from __future__ import annotations

from collections import Counter
from xml.etree import ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cardsite.catalogue.cockatrice import Printing, unique_names
from cardsite.catalogue.models import Card, Game
from engines import ENGINES
from tests.cockatrice_shapes import check_card_database, database_names

pytestmark = pytest.mark.django_db

GAMES = sorted(ENGINES)


def export(slug: str, **headers: str):
    return APIClient().get(f"/api/v1/games/{slug}/export/", {"as": "cockatrice"}, **headers)


def database(slug: str) -> ET.Element:
    response = export(slug)
    assert response.status_code == 200
    return ET.fromstring(response.content)


@pytest.mark.parametrize("slug", GAMES)
def test_every_games_database_has_the_shape_cockatrices_cards_xsd_requires(slug):
    root = database(slug)
    check_card_database(root)
    assert [child.tag for child in root] == ["info", "sets", "cards"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_card_of_the_game_is_in_its_database_once_under_a_unique_name(slug):
    root = database(slug)
    names = database_names(root)
    assert len(names) == Card.objects.filter(game__slug=slug).count()
    assert [name for name, count in Counter(names).items() if count > 1] == []
    uuids = [s.get("uuid") for s in root.iterfind("cards/card/set")]
    assert sorted(uuids) == sorted(
        Card.objects.filter(game__slug=slug).values_list("short_id", flat=True)
    )


def test_the_download_is_an_xml_attachment_named_after_the_game():
    response = export("conquest-of-orion")
    assert response["Content-Type"] == "application/xml; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="conquest-of-orion-cockatrice.xml"'
    )
    assert response.content.startswith(b"<?xml version='1.0' encoding='utf-8'?>")


def test_a_card_carries_its_text_properties_set_number_rarity_and_absolute_face_url():
    card = (
        Card.objects.filter(game__slug="conquest-of-orion")
        .exclude(rules_text="")
        .exclude(stats={})
        .select_related("card_set", "card_type", "rarity")
        .first()
    )
    assert card is not None
    root = database("conquest-of-orion")
    element = next(
        c for c in root.iterfind("cards/card") if c.find("set").get("uuid") == card.short_id
    )
    assert element.findtext("text") == card.rules_text
    prop = element.find("prop")
    assert prop.findtext("maintype") == (card.card_type.name if card.card_type else "")
    assert prop.findtext("factions") == ", ".join(sorted(f.name for f in card.factions.all()))
    for key, value in card.stats.items():
        assert prop.findtext(key) == ("" if value is None else str(value))
    printing = element.find("set")
    assert printing.text == card.card_set.code
    assert printing.get("num") == card.number
    assert printing.get("rarity") == (card.rarity.name if card.rarity else None)
    assert printing.get("picurl") == f"http://testserver/cards/{card.short_id}/face.png"
    # The set it names is in the database's sets.
    assert card.card_set.code in [s.findtext("name") for s in root.iterfind("sets/set")]


def test_unofficial_sample_cards_and_their_set_are_marked_unofficial():
    root = database("conquest-of-orion")
    sample = root.find("sets/set[name='ORI-SMP']")
    assert "unofficial" in sample.findtext("longname").lower()
    assert sample.findtext("settype") == "Unofficial sample"
    for card in root.iterfind("cards/card"):
        is_sample = card.find("set").text == "ORI-SMP"
        assert (card.find("prop/unofficial") is not None) == is_sample


def test_a_name_several_cards_share_is_written_with_each_printing():
    names = unique_names(
        [
            Printing(1, "Scout", "AAA", "3"),
            Printing(2, "Scout", "BBB", "12a"),
            Printing(3, "Lone Pilot", "AAA", "4"),
        ]
    )
    assert names == {1: "Scout (AAA) 3", 2: "Scout (BBB) 12a", 3: "Lone Pilot"}


def test_a_reprinted_card_gets_a_printed_name_in_the_database():
    original = Card.objects.filter(game__slug="conquest-of-orion", card_set__code="ORI-SMP").first()
    reprint = Card.objects.get(pk=original.pk)
    reprint.pk = None
    reprint.short_id = ""
    reprint.number = "999"
    reprint.save()
    names = database_names(database("conquest-of-orion"))
    assert f"{original.name} (ORI-SMP) {original.number}" in names
    assert f"{original.name} (ORI-SMP) 999" in names
    assert original.name not in names


def test_the_database_is_read_in_the_same_few_queries_however_many_cards_a_game_has():
    def queries(slug: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert export(slug).status_code == 200
        return len(captured)

    small = Game.objects.get(slug="conquest-of-fates")
    large = Game.objects.get(slug="conquest-of-orion")
    assert small.cards.count() < large.cards.count()
    # The game, then the cards (with sets, types and rarities), their factions and their
    # subtypes (and the test transaction's savepoint around the request): the same for any
    # number of cards.
    assert queries("conquest-of-orion") == queries("conquest-of-fates") == 6


def test_a_reader_holding_the_current_database_gets_a_304():
    first = export("conquest-of-orion")
    assert first["Cache-Control"] == "public, max-age=0, must-revalidate"
    again = export("conquest-of-orion", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""


def test_a_catalogue_change_gives_the_database_a_new_etag():
    first = export("conquest-of-orion")["ETag"]
    card = Card.objects.filter(game__slug="conquest-of-orion").first()
    card.rules_text += " Changed."
    card.save()
    from cardsite.catalogue.versioning import catalogue_written

    catalogue_written()
    assert export("conquest-of-orion")["ETag"] != first


def test_an_export_as_anything_but_cockatrice_is_a_400_naming_it():
    response = APIClient().get("/api/v1/games/conquest-of-orion/export/", {"as": "mtgo"})
    assert response.status_code == 400
    assert "cockatrice" in str(response.json())


def test_an_unknown_game_has_no_database():
    assert export("no-such-game").status_code == 404


def test_the_game_page_links_the_database_and_says_how_to_play_it_on_cockatrice(client):
    page = client.get("/games/conquest-of-orion/").content.decode()
    assert 'href="/api/v1/games/conquest-of-orion/export/?as=cockatrice"' in page
    assert "Play it on Cockatrice" in page
    assert "customsets" in page
