"""A deck as a Cockatrice deck file (.cod): GET /api/v1/decks/{id}/export/?as=cod and the deck
page's download, in the shape Cockatrice's deck.xsd requires (tests/cockatrice_shapes.py), every
name one of the game's Cockatrice database; and a .cod pasted or uploaded into the builder."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from cardsite.cardlists.cod import MAX_COD_BYTES
from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_create, deck_update
from tests.cockatrice_shapes import check_deck, database_names, deck_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("trice", password="x-Long-pass-9")


@pytest.fixture
def builder(client, owner):
    client.force_login(owner)
    return client


def make_deck(owner, visibility="public", planned=1):
    cards = list(
        Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
            "number_sort"
        )[:5]
    )
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Sky Patrol",
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards[:4])),
    )
    if planned:
        deck_update(deck=deck, expected_version=None, changes={}, maybe={cards[4].short_id: 3})
    return Deck.objects.get(pk=deck.pk)


def cod(deck, client=None) -> ET.Element:
    response = (client or APIClient()).get(f"/api/v1/decks/{deck.share_key}/export/?as=cod")
    assert response.status_code == 200
    return ET.fromstring(response.content)


def test_the_cod_export_has_the_shape_cockatrices_deck_xsd_requires(owner):
    root = cod(make_deck(owner))
    check_deck(root)
    assert root.findtext("deckname") == "Sky Patrol"
    assert [z.get("name") for z in root.iterfind("zone")] == ["main", "side"]


def test_the_deck_is_the_main_zone_and_its_planned_cards_the_side(owner):
    deck = make_deck(owner)
    root = cod(deck)
    main = {c.get("name"): int(c.get("number")) for c in root.iterfind("zone[@name='main']/card")}
    side = {c.get("name"): int(c.get("number")) for c in root.iterfind("zone[@name='side']/card")}
    assert main == {e.card.name: e.quantity for e in deck.entries.select_related("card")}
    assert side == {m.card.name: m.quantity for m in deck.maybe.select_related("card")}


def test_every_name_in_a_cod_is_a_name_in_the_games_cockatrice_database(owner):
    deck = make_deck(owner)
    database = APIClient().get("/api/v1/games/conquest-of-orion/export/?as=cockatrice")
    known = set(database_names(ET.fromstring(database.content)))
    assert set(deck_names(cod(deck))) <= known


def test_a_reprinted_card_is_named_by_its_printing_in_the_cod_as_in_the_database(owner):
    deck = make_deck(owner, planned=0)
    card = deck.entries.select_related("card__card_set").first().card
    reprint = Card.objects.get(pk=card.pk)
    reprint.pk, reprint.short_id, reprint.number = None, "", "998"
    reprint.save()
    names = deck_names(cod(deck))
    assert f"{card.name} ({card.card_set.code}) {card.number}" in names
    database = APIClient().get("/api/v1/games/conquest-of-orion/export/?as=cockatrice")
    assert set(names) <= set(database_names(ET.fromstring(database.content)))


def test_the_deck_page_download_is_the_api_export_as_a_named_cod_file(client, owner):
    deck = make_deck(owner)
    response = client.get(f"/decks/{deck.share_key}/export.cod")
    assert response["Content-Type"] == "application/xml; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="sky-patrol.cod"'
    assert response["Cache-Control"] == "private, no-cache"
    api = APIClient().get(f"/api/v1/decks/{deck.share_key}/export/?as=cod")
    assert api["Content-Disposition"] == 'attachment; filename="sky-patrol.cod"'
    assert response.content == api.content
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f'href="/decks/{deck.share_key}/export.cod"' in page
    assert 'data-action="export-cod"' in page


def test_a_private_decks_cod_is_its_owners_alone(client, owner):
    deck = make_deck(owner, visibility="private")
    assert APIClient().get(f"/api/v1/decks/{deck.share_key}/export/?as=cod").status_code == 404
    assert client.get(f"/decks/{deck.share_key}/export.cod").status_code == 404
    api = APIClient()
    api.force_authenticate(owner)
    check_deck(cod(deck, api))


# --- importing a .cod ------------------------------------------------------------------------


def import_url(deck) -> str:
    return f"/decks/{deck.share_key}/edit/import/"


def empty_deck(owner, slug="conquest-of-orion", format_slug="constructed"):
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=slug),
        format_slug=format_slug,
        name="Imported",
        visibility="public",
        intake=Intake(),
    )


def test_a_cod_exported_and_pasted_back_gives_the_same_cards_and_plan(builder, owner):
    source = make_deck(owner)
    text = APIClient().get(f"/api/v1/decks/{source.share_key}/export/?as=cod").content.decode()
    deck = empty_deck(owner)
    builder.post(import_url(deck), {"decklist": text, "version": deck.version})
    assert dict(deck.entries.values_list("card_id", "quantity")) == dict(
        source.entries.values_list("card_id", "quantity")
    )
    assert dict(deck.maybe.values_list("card_id", "quantity")) == dict(
        source.maybe.values_list("card_id", "quantity")
    )


def test_an_uploaded_cod_replaces_the_cards_each_in_the_zone_of_its_type(builder, owner):
    deck = empty_deck(owner, "fate-foretold", "nest")
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>F'
        '</deckname><comments/><zone name="main"><card number="1" name="The Angel"/>'
        '<card number="1" name="King"/></zone><zone name="tokens"><card number="1" name="X"/>'
        "</zone></cockatrice_deck>"
    )
    upload = SimpleUploadedFile("f.cod", body.encode(), content_type="application/xml")
    # Sent as a browser sends a chosen file (builder.js leaves it to the browser): the page
    # again, saying the tokens zone was left out.
    response = builder.post(import_url(deck), {"cod_file": upload, "version": deck.version})
    assert response.status_code == 302
    assert sorted(deck.entries.values_list("zone", flat=True)) == ["nest", "sigils"]
    assert (
        "The zone &#x27;tokens&#x27; is left out"
        in builder.get(response["Location"]).content.decode()
    )


def test_a_printed_name_in_a_cod_finds_that_printing(builder, owner):
    card = Card.objects.filter(game__slug="conquest-of-orion", card_set__code="ORI-SMP").first()
    reprint = Card.objects.get(pk=card.pk)
    reprint.pk, reprint.short_id, reprint.number = None, "", "997"
    reprint.save()
    deck = empty_deck(owner)
    body = (
        '<cockatrice_deck version="1"><deckname>R</deckname><comments/><zone name="main">'
        f'<card number="2" name="{card.name} (ORI-SMP) 997"/></zone></cockatrice_deck>'
    )
    builder.post(import_url(deck), {"decklist": body, "version": deck.version})
    assert list(deck.entries.values_list("card_id", "quantity")) == [(reprint.pk, 2)]


def test_an_upload_past_the_size_limit_is_a_400_naming_it(builder, owner):
    deck = empty_deck(owner)
    upload = SimpleUploadedFile("big.cod", b" " * (MAX_COD_BYTES + 1))
    response = builder.post(
        import_url(deck), {"cod_file": upload, "version": deck.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert f"at most {MAX_COD_BYTES // 1024} KB" in response.content.decode()


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("<cockatrice_deck><zone name='main'><card number='2' name='A'>", "not well-formed"),
        ("<?xml version='1.0'?><deck/>", "not &lt;cockatrice_deck&gt;"),
        (
            "<?xml version='1.0'?><!DOCTYPE d [<!ENTITY a 'aaaa'>]><cockatrice_deck>&a;"
            "</cockatrice_deck>",
            "document type",
        ),
        (
            "<cockatrice_deck><deckname/><comments/><zone name='main'>"
            "<card number='many' name='A'/></zone></cockatrice_deck>",
            "not a whole number",
        ),
        (
            "<cockatrice_deck><deckname/><comments/><zone name='main'>"
            "<card number='500' name='A'/></zone></cockatrice_deck>",
            "1 to 99",
        ),
    ],
)
def test_a_cod_that_cannot_be_read_is_a_400_saying_why_and_nothing_is_saved(
    builder, owner, body, says
):
    deck = make_deck(owner)
    before = dict(deck.entries.values_list("card_id", "quantity"))
    response = builder.post(
        import_url(deck), {"decklist": body, "version": deck.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert says in response.content.decode()
    assert dict(deck.entries.values_list("card_id", "quantity")) == before


def test_the_builder_offers_a_cod_upload_with_its_limit(builder, owner):
    deck = empty_deck(owner)
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert 'enctype="multipart/form-data"' in page
    assert 'data-action="import-cod-file"' in page
    assert f"at most {MAX_COD_BYTES // 1024} KB" in page


def test_a_cod_posted_to_the_api_as_text_is_read_as_a_deck_file(owner):
    source = make_deck(owner)
    text = APIClient().get(f"/api/v1/decks/{source.share_key}/export/?as=cod").content.decode()
    api = APIClient()
    api.force_authenticate(owner)
    body = {"game": "conquest-of-orion", "format": "constructed", "name": "Back", "text": text}
    response = api.post("/api/v1/decks/", body, format="json")
    assert response.status_code == 201, response.content
    copy = Deck.objects.get(share_key=response.json()["id"])
    assert dict(copy.entries.values_list("card_id", "quantity")) == dict(
        source.entries.values_list("card_id", "quantity")
    )
    assert dict(copy.maybe.values_list("card_id", "quantity")) == dict(
        source.maybe.values_list("card_id", "quantity")
    )


def test_a_cod_the_api_cannot_read_is_a_400_naming_text():
    body = {
        "game": "conquest-of-orion",
        "format": "constructed",
        "text": "<?xml version='1.0'?><!DOCTYPE x><cockatrice_deck/>",
    }
    response = APIClient().post("/api/v1/decks/validate/", body, format="json")
    assert response.status_code == 400
    assert "text" in response.json().get("errors", {}), response.json()
