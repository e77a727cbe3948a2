"""A deck as a Tabletop Simulator saved object: one object per zone, each card pointing at its
place on an image sheet of the card pages' own faces, and the sheets themselves."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from PIL import Image, ImageChops, ImageStat

from cardsite.catalogue.faces import face_file
from cardsite.catalogue.faces.back import back_version
from cardsite.catalogue.models import Card, Game
from decks.models import MaybeEntry
from decks.services import Intake, RequestedCard, deck_create, deck_update
from decks.tts.plan import MAX_SHEET_SIDE, tts_plan
from decks.tts.sheets import RESAMPLE
from engines import ENGINES
from tests.decks.tts_support import (
    cards_of,
    deck_copies,
    decoded,
    downloaded,
    game_deck,
    local,
    lone_card_deck,
    objects_of,
    save_of,
    zone_cards,
)

pytestmark = pytest.mark.django_db

SAVE_KEYS = {
    "SaveName", "Date", "VersionNumber", "GameMode", "Table", "Sky", "Note", "Rules", "XmlUI",
    "LuaScript", "LuaScriptState", "ObjectStates", "TabStates",
}  # fmt: skip
CUSTOM_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}


@pytest.fixture
def owner():
    return User.objects.create_user("tabletop", password="x-Long-pass-9")


def face_cell(card, size):
    with Image.open(face_file(card)) as face:
        return face.convert("RGB").resize(size, RESAMPLE)


def difference(a, b):
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_games_deck_is_one_object_per_zone_with_every_copy_in_deck_order(client, owner, slug):
    deck = game_deck(owner, slug)
    save = save_of(client, deck)
    engine = ENGINES[slug]
    assert set(save) == SAVE_KEYS and save["SaveName"] == deck.name
    assert "not the publisher's" in save["Note"]
    zones = {z.name: z.slug for z in engine.zones}
    copies = deck_copies(deck)
    assert [o["Nickname"] for o in objects_of(save)] == [
        z.name for z in engine.zones if any(zone == z.slug for zone, _ in copies)
    ]
    keys = [key for o in objects_of(save) for key in o["CustomDeck"]]
    assert sorted(keys, key=int) == [str(n) for n in range(1, len(keys) + 1)]  # unique, 1..n
    guids = [o["GUID"] for o in objects_of(save)] + [
        c["GUID"] for o in objects_of(save) for c in o.get("ContainedObjects", [])
    ]
    assert len(set(guids)) == len(guids) and all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids)
    for obj in objects_of(save):
        mine = [card for zone, card in copies if zone == zones[obj["Nickname"]]]
        assert obj["Name"] == "DeckCustom" and obj["Transform"]["rotZ"] == 180
        assert deck.name in obj["Description"] and engine.name in obj["Description"]
        assert [c["Nickname"] for c in obj["ContainedObjects"]] == [c.name for c in mine]
        assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
        for card, contained in zip(mine, obj["ContainedObjects"], strict=True):
            assert contained["Name"] == "Card"
            assert (card.rules_text.strip() or "") in contained["Description"]
            assert contained["Description"].startswith(
                card.card_type.name if card.card_type else "type not given"
            )
            (key,) = contained["CustomDeck"]
            assert contained["CustomDeck"][key] == obj["CustomDeck"][key]
        for sheet in obj["CustomDeck"].values():
            assert set(sheet) == CUSTOM_KEYS
            assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is False
            assert sheet["FaceURL"].startswith("http://testserver/decks/")
            back = reverse("catalogue:game-back", args=[slug])
            assert sheet["BackURL"].startswith(f"http://testserver{back}?v=")


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_card_id_points_into_its_sheets_grid_at_that_cards_own_face(client, owner, slug):
    deck = game_deck(owner, slug)
    save = save_of(client, deck)
    sheets = {}
    copies = iter(deck_copies(deck))
    for obj in objects_of(save):
        for contained in cards_of(obj):
            _, card = next(copies)
            key, place = divmod(contained["CardID"], 100)
            custom = obj["CustomDeck"][str(key)]
            columns, rows = custom["NumWidth"], custom["NumHeight"]
            assert 0 <= place < columns * rows
            if custom["FaceURL"] not in sheets:
                sheets[custom["FaceURL"]] = decoded(client.get(local(custom["FaceURL"])))
            sheet = sheets[custom["FaceURL"]]
            width, height = sheet.width // columns, sheet.height // rows
            assert (width * columns, height * rows) == sheet.size
            assert min(width, height) >= 400 and max(sheet.size) <= MAX_SHEET_SIDE
            row, column = divmod(place, columns)
            cell = sheet.convert("RGB").crop(
                (column * width, row * height, (column + 1) * width, (row + 1) * height)
            )
            assert difference(cell, face_cell(card, (width, height))) < 1.0, card.name
            other = Card.objects.filter(game=card.game).exclude(name=card.name).first()
            assert difference(cell, face_cell(other, (width, height))) > 5.0
    assert sheets


def test_a_zone_of_71_different_cards_lies_on_two_sheets(client, owner):
    cards = zone_cards("conquest-alpha-tactics", "main", 71)
    assert len(cards) == 71
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-alpha-tactics"),
        format_slug="faction-deck",
        name="Everything",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    (main,) = objects_of(save_of(client, deck))
    assert len(main["ContainedObjects"]) == 71
    assert {k: (s["NumWidth"], s["NumHeight"]) for k, s in main["CustomDeck"].items()} == {
        "1": (10, 7),
        "2": (1, 1),
    }
    assert main["DeckIDs"][:70] == sorted(main["DeckIDs"][:70]) and len(set(main["DeckIDs"])) == 71
    assert {i // 100 for i in main["DeckIDs"]} == {1, 2}
    full = tts_plan(deck).sheets[0]
    assert full.size == (4000, 3920) and max(full.size) <= MAX_SHEET_SIDE


def test_copies_share_their_cards_place_on_the_sheet(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    (main,) = objects_of(save_of(client, deck))
    names = [c["Nickname"] for c in main["ContainedObjects"]]
    ids = dict(zip(names, main["DeckIDs"], strict=True))
    assert len(names) == 6 and len(ids) == 3
    assert main["CustomDeck"]["1"]["NumWidth"] * main["CustomDeck"]["1"]["NumHeight"] == 3


def test_a_zone_holding_one_card_is_a_single_card_named_after_the_card(client, owner):
    deck, target = lone_card_deck(
        owner, "conquest-alpha-tactics", "faction-deck", "main", 2, 2, "targets", name="Lone target"
    )
    deck_object, single = objects_of(save_of(client, deck))
    assert deck_object["Name"] == "DeckCustom" and len(deck_object["DeckIDs"]) == 4
    assert deck_object["Nickname"] == "Faction deck"
    assert single["Name"] == "Card" and single["Nickname"] == target.name
    assert single["Description"].startswith("Zone: Target cards\n")
    assert "Lone target" in single["Description"]
    assert single["CardID"] == 200
    assert single["CustomDeck"]["2"]["NumWidth"] == single["CustomDeck"]["2"]["NumHeight"] == 1
    assert single["Transform"]["posX"] > deck_object["Transform"]["posX"]


def test_a_lone_sigil_is_a_sideways_card_named_after_itself_with_its_zone_described(client, owner):
    # Fate Foretold's Sigils zone: one Sigil per player, a landscape card.
    deck, sigil = lone_card_deck(
        owner, "fate-foretold", "nest", "nest", 3, 1, "sigils", name="One sigil"
    )
    nest_object, single = objects_of(save_of(client, deck))
    assert nest_object["Nickname"] == "Nest"
    assert single["Name"] == "Card" and single["Nickname"] == sigil.name != "Sigils"
    description = single["Description"]
    assert description.startswith("Zone: Sigils\nSigil")
    card = Card.objects.get(game__slug="fate-foretold", short_id=sigil.short_id)
    assert card.rules_text.strip() in description
    assert single["SidewaysCard"] is True
    (custom,) = single["CustomDeck"].values()
    sheet = decoded(client.get(local(custom["FaceURL"])))
    assert sheet.width > sheet.height


def test_landscape_cards_lie_sideways_on_landscape_sheets_with_the_landscape_back(client, owner):
    deck = game_deck(owner, "fate-foretold")
    nest, sigils = objects_of(save_of(client, deck))
    assert sigils["Nickname"] == "Sigils" and sigils["SidewaysCard"] is True
    assert all(c["SidewaysCard"] for c in sigils["ContainedObjects"])
    assert not any(c["SidewaysCard"] for c in nest["ContainedObjects"])
    (custom,) = sigils["CustomDeck"].values()
    engine = ENGINES["fate-foretold"]
    assert custom["BackURL"].endswith(f"?v={back_version(engine, landscape=True)}&landscape=1")
    sheet = decoded(client.get(local(custom["FaceURL"])))
    assert sheet.width / custom["NumWidth"] > sheet.height / custom["NumHeight"]
    assert client.get(local(custom["BackURL"])).status_code == 200


def test_planned_cards_are_not_part_of_the_save(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    planned = Card.objects.filter(game__slug="conquest-of-orion").exclude(deck_entries__deck=deck)
    MaybeEntry.objects.create(deck=deck, card=planned.first(), quantity=2)
    (main,) = objects_of(save_of(client, deck))
    assert planned.first().name not in [c["Nickname"] for c in main["ContainedObjects"]]
    assert len(main["DeckIDs"]) == 6


def test_an_unchanged_zone_keeps_its_sheet_url_and_a_changed_one_gets_a_new_one(client, owner):
    deck = game_deck(owner, "conquest-for-the-capital")
    before = [o["CustomDeck"]["1" if i == 0 else "2"]["FaceURL"] for i, o in enumerate(
        objects_of(save_of(client, deck))
    )]  # fmt: skip
    extra = zone_cards("conquest-for-the-capital", "upgrade", 4)[-1]
    cards = [RequestedCard(e.quantity, None, e.card.short_id) for e in deck.entries.all()]
    deck_update(
        deck=deck,
        expected_version=None,
        changes={},
        intake=Intake((*cards, RequestedCard(1, None, extra.short_id))),
    )
    battle, upgrade = objects_of(save_of(client, deck))
    assert battle["CustomDeck"]["1"]["FaceURL"] == before[0]
    assert upgrade["CustomDeck"]["2"]["FaceURL"] != before[1]


def test_the_export_costs_the_same_few_queries_however_large_the_deck(
    client, owner, django_assert_num_queries
):
    small = game_deck(owner, "conquest-of-orion", per_zone=1)
    large = game_deck(owner, "conquest-of-orion", per_zone=3)
    for deck in (small, large):
        save_of(client, deck)  # its sheets drawn: that costs time, no queries
        # The deck; its entries with their cards; the cards' subtypes, factions and keywords;
        # and the request's savepoint and its release (ATOMIC_REQUESTS).
        with django_assert_num_queries(7):
            assert client.get(f"/decks/{deck.share_key}/tts.json").status_code == 200


def test_the_api_export_as_tts_is_the_same_save_as_a_download_named_after_the_deck(
    client, api, owner
):
    deck = game_deck(owner, "conquest-of-fates", name="Fates on the Table")
    response = downloaded(api, f"/api/v1/decks/{deck.share_key}/export/?as=tts")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="fates-on-the-table.json"'
    assert response.json() == save_of(client, deck)
    download = client.get(f"/decks/{deck.share_key}/tts.json")
    assert download["Content-Disposition"] == 'attachment; filename="fates-on-the-table.json"'
    assert download["Content-Type"] == "application/json"
    refused = api.get(f"/api/v1/decks/{deck.share_key}/export/", {"as": "tabletop"})
    assert refused.status_code == 400 and "tts" in refused.json()["errors"]["as"][0]


def test_the_deck_page_offers_the_download_and_says_how_to_load_it(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    page = client.get(deck.get_absolute_url()).content.decode()
    # No `download` attribute: a browser then shows the page saying its images are still
    # being drawn (a 503), where with it the download would just fail.
    assert f'href="/decks/{deck.share_key}/tts.json" aria-describedby' in page
    assert "Saves/Saved Objects" in page and "Objects &gt; Saved Objects" in page
    assert "proxy back" in page and 'aria-describedby="tts-help"' in page
