"""A deck's Open Graph image (its key cards and name on one picture) and the page's link-preview
tags that point at it."""

import io
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from cardsite.catalogue.models import Card, Game
from cardsite.seo import DESCRIPTION_CHARS
from decks.exports.images import deck_images_folder
from decks.public.og import KEY_CARDS, OG_SIZE, key_cards
from decks.services import (
    Intake,
    RequestedCard,
    deck_create,
    deck_update,
    intake_deck,
    resolve,
)
from decks.views.og import MAX_AGE
from tests.seo_support import head_of, meta_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("sharer", password="x-Long-pass-9")


def humans(count):
    return list(
        Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
            "number_sort"
        )[:count]
    )


def make_deck(owner, cards, visibility="public", copies=None):
    copies = copies or [1] * len(cards)
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Shared Fleet",
        visibility=visibility,
        intake=Intake(
            tuple(RequestedCard(n, None, c.short_id) for c, n in zip(cards, copies, strict=True))
        ),
    )


def test_the_key_cards_are_the_most_copied_then_the_highest_main_number(owner):
    cards = humans(8)
    deck = make_deck(owner, cards, copies=[1, 3, 1, 2, 1, 1, 3, 1])
    resolved = resolve(game="conquest-of-orion", intake=intake_deck(deck))
    stat = resolved.snapshot.engine.chart_stat
    chosen = key_cards(resolved)
    assert len(chosen) == KEY_CARDS
    copies = {c.short_id: n for c, n in zip(cards, [1, 3, 1, 2, 1, 1, 3, 1], strict=True)}
    ranks = [(-copies[c.short_id], -c.stats.get(stat, 0), c.name) for c in chosen]
    assert ranks == sorted(ranks)
    assert {copies[c.short_id] for c in chosen[:3]} == {3, 2}


def test_the_image_is_1200_by_630_and_drawn_once_per_deck_version(client, owner):
    deck = make_deck(owner, humans(6))
    response = client.get(f"/decks/{deck.share_key}/og.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == f"public, max-age={MAX_AGE}"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == OG_SIZE
    # Not a blank picture: the cards and the name put many colours on it.
    assert len(image.convert("RGB").getcolors(maxcolors=1_000_000)) > 1000
    folder = deck_images_folder(deck.share_key)
    (first,) = folder.glob("og-*.png")
    assert client.get(f"/decks/{deck.share_key}/og.png").content == response.content
    deck_update(deck=deck, expected_version=None, changes={"name": "Renamed Fleet"})
    assert client.get(f"/decks/{deck.share_key}/og.png").content != response.content
    (second,) = folder.glob("og-*.png")
    assert second != first


def test_a_deck_without_cards_still_has_an_image(client, owner):
    deck = make_deck(owner, [])
    image = Image.open(io.BytesIO(client.get(f"/decks/{deck.share_key}/og.png").content))
    assert image.size == OG_SIZE


def test_a_private_decks_image_is_a_404_for_everyone_else(owner):
    deck = make_deck(owner, humans(2), visibility="private")
    assert Client().get(f"/decks/{deck.share_key}/og.png").status_code == 404
    mine = Client()
    mine.force_login(owner)
    response = mine.get(f"/decks/{deck.share_key}/og.png")
    assert response.status_code == 200
    assert response["Cache-Control"] == f"private, max-age={MAX_AGE}"


def test_the_images_are_never_served_as_media_files(client, owner, settings):
    settings.DEBUG = True
    deck = make_deck(owner, humans(2), visibility="private")
    mine = Client()
    mine.force_login(owner)
    mine.get(f"/decks/{deck.share_key}/og.png")
    (path,) = deck_images_folder(deck.share_key).glob("og-*.png")
    assert client.get(f"/media/deck-images/{deck.share_key}/{path.name}").status_code == 404


def test_the_deck_page_carries_link_preview_tags_with_absolute_urls(client, owner):
    deck = make_deck(owner, humans(3))
    page = client.get(deck.get_absolute_url()).content.decode()
    base = "http://testserver"
    assert f'<meta property="og:url" content="{base}{deck.get_absolute_url()}">' in page
    assert f'<meta property="og:image" content="{base}/decks/{deck.share_key}/og.png?v=1">' in page
    assert '<meta property="og:title" content="Shared Fleet · Conquest of Orion">' in page
    assert '<meta property="og:description" content="A Conquest of Orion deck' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert '<meta property="og:image:width" content="1200">' in page


def test_the_deck_page_names_its_canonical_url_on_the_site_address_whatever_the_host(
    owner, settings
):
    settings.SITE_URL = "https://cards.example.org"
    deck = make_deck(owner, humans(3))
    page = Client().get(deck.get_absolute_url() + "?utm_source=x", HTTP_HOST="localhost")
    head = head_of(page.content)
    expected = "https://cards.example.org" + deck.get_absolute_url()
    assert head.xpath("link[@rel='canonical']/@href") == [expected]
    assert meta_of(head, "og:url") == expected
    assert meta_of(head, "og:image").startswith("https://cards.example.org/decks/")
    assert meta_of(head, "robots") is None


def test_a_deck_of_sample_cards_says_so_in_its_description_kept_whole(client, owner):
    deck = make_deck(owner, humans(3))
    deck_update(deck=deck, expected_version=None, changes={"description": "Long words " * 60})
    head = head_of(client.get(deck.get_absolute_url()).content)
    description = meta_of(head, "description")
    assert description == meta_of(head, "og:description")
    assert description.endswith("… Includes unofficial sample cards.")
    assert len(description) <= DESCRIPTION_CHARS


def test_an_unlisted_deck_asks_not_to_be_indexed(client, owner):
    deck = make_deck(owner, humans(2), visibility="unlisted")
    head = head_of(client.get(deck.get_absolute_url()).content)
    assert meta_of(head, "robots") == "noindex"


def test_a_private_decks_page_says_nothing_of_it_to_anyone_else(owner):
    deck = make_deck(owner, humans(2), visibility="private")
    response = Client().get(deck.get_absolute_url())
    assert response.status_code == 404
    page = response.content.decode()
    # (Its path is on the page, as the visitor typed it: the theme switch returns there.)
    assert deck.name not in page
    assert "og:" not in page
    mine = Client()
    mine.force_login(owner)
    head = head_of(mine.get(deck.get_absolute_url()).content)
    assert meta_of(head, "robots") == "noindex"


# Every break str.splitlines knows, and the other controls it counts as breaks.
LINE_BREAKS = ["\r", "\n", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("newline", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_a_description_with_any_line_break_is_one_line_in_the_page_meta(client, owner, newline):
    deck = make_deck(owner, humans(3))
    text = newline.join(["Swarm early", "then hold", "and win"])
    deck_update(deck=deck, expected_version=None, changes={"description": text})
    raw = client.get(deck.get_absolute_url()).content.decode()
    # As sent, before any parser could mend it: both descriptions, on one line each.
    sent = re.findall(r'<meta (?:name|property)="(?:og:)?description" content="([^"]*)"', raw)
    assert len(sent) == 2
    for shown in sent:
        assert shown.startswith("Swarm early then hold and win"), shown
        assert shown.splitlines() == [shown] and shown.isprintable(), shown
