"""A deck's exports as downloads (.txt and .json, named after the deck) and the export panel
the deck page and the builder share."""

import html
import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("exporter", password="x-Long-pass-9")


def make_deck(owner, name="Sky Patrol", visibility="public"):
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
        "number_sort"
    )[:4]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards)),
    )


def api_export(deck, kind):
    return APIClient().get(f"/api/v1/decks/{deck.share_key}/export/", {"as": kind}).json()


def test_the_text_download_is_the_exported_text_as_a_named_plain_text_file(client, owner):
    deck = make_deck(owner)
    response = client.get(f"/decks/{deck.share_key}/export.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="sky-patrol.txt"'
    assert response.content.decode("utf-8") == api_export(deck, "text")["text"]


def test_the_json_download_is_the_exported_json_as_a_named_file(client, owner):
    deck = make_deck(owner)
    response = client.get(f"/decks/{deck.share_key}/export.json")
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="sky-patrol.json"'
    assert json.loads(response.content) == api_export(deck, "json")


def test_a_name_beyond_ascii_keeps_its_letters_in_filename_star(client, owner):
    deck = make_deck(owner, name="Flotte über Ærø: «Zwei»")
    header = client.get(f"/decks/{deck.share_key}/export.txt")["Content-Disposition"]
    assert header == (
        "attachment; filename=\"flotte-uber-r-zwei.txt\"; filename*=UTF-8''"
        "flotte-%C3%BCber-%C3%A6r%C3%B8-zwei.txt"
    )
    header.encode("ascii")  # a header is ASCII, whatever the name


def test_a_name_without_ascii_letters_is_named_after_the_share_key(client, owner):
    deck = make_deck(owner, name="星の艦隊")
    header = client.get(f"/decks/{deck.share_key}/export.json")["Content-Disposition"]
    assert header.startswith(f'attachment; filename="{deck.share_key}.json"; filename*=UTF-8')


def test_a_private_decks_downloads_are_its_owners_alone(client, owner):
    deck = make_deck(owner, visibility="private")
    for extension in ("txt", "json"):
        assert client.get(f"/decks/{deck.share_key}/export.{extension}").status_code == 404
    client.force_login(owner)
    response = client.get(f"/decks/{deck.share_key}/export.txt")
    assert response.status_code == 200 and "private" in response["Cache-Control"]


def test_only_txt_and_json_are_offered_and_only_to_read(client, owner):
    deck = make_deck(owner)
    assert client.get(f"/decks/{deck.share_key}/export.pdf").status_code == 404
    assert client.post(f"/decks/{deck.share_key}/export.txt").status_code == 405


def test_the_deck_page_shows_the_export_panel(client, owner):
    deck = make_deck(owner)
    page = client.get(deck.get_absolute_url()).content.decode()
    start = page.index('<details class="export-panel"')
    panel = page[start : page.index("</details>", start)]
    assert "<summary>Export</summary>" in panel
    textarea = panel[panel.index("<textarea") : panel.index("</textarea>")]
    assert "readonly" in textarea
    assert html.unescape(textarea.split(">", 1)[1]) == api_export(deck, "text")["text"]
    assert f'value="{api_export(deck, "code")["code"]}"' in panel
    assert 'data-copy="export-text"' in panel and 'data-copy="export-code"' in panel
    assert 'role="status" aria-live="polite"' in panel
    assert f'href="/decks/{deck.share_key}/export.txt" download' in panel
    assert f'href="/decks/{deck.share_key}/export.json" download' in panel
    # The API's export links stay.
    assert f"/api/v1/decks/{deck.share_key}/export/?as=code" in panel


def test_the_builder_shows_the_same_export_panel(client, owner):
    deck = make_deck(owner)
    client.force_login(owner)
    page = client.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert '<details class="export-panel"' in page
    assert f'value="{api_export(deck, "code")["code"]}"' in page
    assert f'href="/decks/{deck.share_key}/proxies/">Print proxies' in page
