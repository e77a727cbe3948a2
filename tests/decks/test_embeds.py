"""oEmbed for card and deck pages, their embed pages (framable, cached) and the discovery
link and Embed box on the pages themselves."""

import html

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardsite.catalogue.models import Card
from decks.public.embeds import URL_MAX_CHARS
from tests.decks.test_export_files import make_deck

pytestmark = pytest.mark.django_db

SITE = "http://testserver"


@pytest.fixture
def owner():
    return User.objects.create_user("embedder", password="x-Long-pass-9")


@pytest.fixture
def card():
    return Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort").first()


def oembed(client, url, **params):
    return client.get("/oembed/", {"url": url, **params})


def test_a_card_page_has_a_rich_oembed_with_its_iframe(client, card):
    response = oembed(client, f"{SITE}{card.get_absolute_url()}", format="json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["type"] == "rich"
    assert data["version"] == "1.0"
    assert data["provider_name"] == "cardsite"
    assert card.name in data["title"]
    assert "unofficial sample" in data["title"]
    assert isinstance(data["width"], int) and isinstance(data["height"], int)
    assert data["thumbnail_url"] == f"{SITE}/cards/{card.short_id}/face.png"
    assert isinstance(data["thumbnail_width"], int)
    assert f'src="{SITE}/embed/cards/{card.short_id}/"' in data["html"]
    assert data["html"].startswith("<iframe ")


@pytest.mark.parametrize("form", ["{slugged}", "/cards/{id}/", "/c/{id}", "/c/{ID}"])
def test_every_form_of_a_card_link_has_the_same_oembed(client, card, form):
    path = form.format(slugged=card.get_absolute_url(), id=card.short_id, ID=card.short_id.upper())
    data = oembed(client, SITE + path).json()
    assert f"/embed/cards/{card.short_id}/" in data["html"]


def test_a_deck_page_has_a_rich_oembed_naming_its_author(client, owner):
    deck = make_deck(owner)
    data = oembed(client, f"{SITE}/decks/{deck.share_key}/").json()
    assert data["title"].startswith("Sky Patrol")
    assert data["author_name"] == "embedder"
    assert f'src="{SITE}/embed/decks/{deck.share_key}/"' in data["html"]
    assert data["thumbnail_url"].startswith(f"{SITE}/decks/{deck.share_key}/og.png")


def test_maxwidth_and_maxheight_bound_the_iframe_and_drop_a_thumbnail_too_large(client, card):
    data = oembed(client, SITE + card.get_absolute_url(), maxwidth="200", maxheight="150").json()
    assert (data["width"], data["height"]) == (200, 150)
    assert 'width="200" height="150"' in data["html"]
    assert "thumbnail_url" not in data


def test_a_bound_larger_than_the_embed_leaves_its_size(client, card):
    small = oembed(client, SITE + card.get_absolute_url()).json()
    large = oembed(client, SITE + card.get_absolute_url(), maxwidth="5000").json()
    assert (large["width"], large["height"]) == (small["width"], small["height"])


@pytest.mark.parametrize("bad", ["0", "-5", "abc", "123456", "\uff11\uff12"])
def test_a_bound_that_is_not_a_pixel_count_is_a_400_naming_it(client, card, bad):
    response = oembed(client, SITE + card.get_absolute_url(), maxwidth=bad)
    assert response.status_code == 400
    assert b"maxwidth" in response.content


def test_xml_is_not_implemented(client, card):
    response = oembed(client, SITE + card.get_absolute_url(), format="xml")
    assert response.status_code == 501


def test_a_url_past_the_limit_is_a_400_naming_it(client, card):
    response = oembed(client, SITE + card.get_absolute_url() + "x" * URL_MAX_CHARS)
    assert response.status_code == 400
    assert str(URL_MAX_CHARS).encode() in response.content


def test_no_url_is_a_400(client):
    assert client.get("/oembed/").status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "https://elsewhere.example/cards/{id}/",
        "ftp://testserver/cards/{id}/",
        "http://testserver/cards/zzzzzzzz/",
        "http://testserver/decks/nosuchdeck/",
        "http://testserver/search/?q=x",
        "http://testserver/",
        "http://[broken/",
        "http://testserver/cards/%00/",
        "http://testserver/decks/%F0%9F%98%80/",
        "http://testserver/decks/" + "k" * 1900 + "/",
        "/cards/{id}/",
    ],
)
def test_anything_but_a_card_or_deck_page_of_this_site_is_a_404(client, card, url):
    assert oembed(client, url.format(id=card.short_id)).status_code == 404


def test_a_private_deck_has_no_oembed_even_for_its_owner(client, owner):
    deck = make_deck(owner, visibility="private")
    client.force_login(owner)
    assert oembed(client, f"{SITE}/decks/{deck.share_key}/").status_code == 404
    assert client.get(f"/embed/decks/{deck.share_key}/").status_code == 404


def test_a_deleted_deck_has_no_oembed_nor_embed(client, owner):
    deck = make_deck(owner)
    deck.deleted_at = timezone.now()
    deck.save()
    assert oembed(client, f"{SITE}/decks/{deck.share_key}/").status_code == 404
    assert client.get(f"/embed/decks/{deck.share_key}/").status_code == 404


def test_an_unlisted_deck_embeds_as_its_link_shares_but_is_not_indexed(client, owner):
    deck = make_deck(owner, visibility="unlisted")
    assert oembed(client, f"{SITE}/decks/{deck.share_key}/").status_code == 200
    page = client.get(f"/embed/decks/{deck.share_key}/").content.decode()
    assert '<meta name="robots" content="noindex">' in page


def test_the_deck_embed_lists_its_cards_with_links_opening_elsewhere(client, owner):
    deck = make_deck(owner)
    response = client.get(f"/embed/decks/{deck.share_key}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "site-header" not in page
    for entry in deck.entries.select_related("card"):
        assert html.escape(entry.card.name) in page
    assert "unofficial sample" in page
    assert f'href="{SITE}/decks/{deck.share_key}/" target="_blank" rel="noopener"' in page


def test_the_card_embed_shows_its_face_and_text_and_says_it_is_a_sample(client, card):
    page = client.get(f"/embed/cards/{card.short_id}/").content.decode()
    assert f"/cards/{card.short_id}/face.png" in page
    assert html.escape(card.name) in page
    assert "unofficial sample" in page
    assert "site-header" not in page


@pytest.mark.parametrize("kind", ["card", "deck"])
def test_embed_pages_may_be_framed_anywhere_and_are_cached(client, owner, card, kind):
    path = (
        f"/embed/cards/{card.short_id}/"
        if kind == "card"
        else f"/embed/decks/{make_deck(owner).share_key}/"
    )
    response = client.get(path)
    assert "X-Frame-Options" not in response
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    assert response["Cache-Control"] == "public, max-age=300"
    assert response["ETag"] and response["Last-Modified"]
    again = client.get(path, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_with_the_production_policy_only_embed_pages_may_be_framed(client, owner, card, settings):
    from cardsite.settings import production

    settings.MIDDLEWARE = production.MIDDLEWARE
    settings.CONTENT_SECURITY_POLICY = production.CONTENT_SECURITY_POLICY
    embed = client.get(f"/embed/cards/{card.short_id}/")["Content-Security-Policy"]
    page = client.get(card.get_absolute_url())["Content-Security-Policy"]
    assert "frame-ancestors *" in embed
    assert "script-src 'self'" in embed
    assert "frame-ancestors 'none'" in page


def test_a_missing_embed_is_a_plain_404_that_may_be_framed(client):
    response = client.get("/embed/decks/nosuchdeck/")
    assert response.status_code == 404
    assert response["Content-Security-Policy"] == "frame-ancestors *"
    assert "X-Frame-Options" not in response


def test_other_pages_still_refuse_framing(client, owner, card):
    for path in [card.get_absolute_url(), f"/decks/{make_deck(owner).share_key}/", "/"]:
        response = client.get(path)
        assert response["X-Frame-Options"] == "DENY", path


def test_a_deck_embed_changes_when_the_deck_does(client, owner):
    deck = make_deck(owner)
    first = client.get(f"/embed/decks/{deck.share_key}/")
    deck.name = "Renamed Patrol"
    deck.version += 1
    deck.save()
    second = client.get(f"/embed/decks/{deck.share_key}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert "Renamed Patrol" in second.content.decode()


def test_a_deck_made_private_stops_embedding_at_once(client, owner):
    deck = make_deck(owner)
    assert client.get(f"/embed/decks/{deck.share_key}/").status_code == 200
    deck.visibility = "private"
    deck.save()
    response = client.get(f"/embed/decks/{deck.share_key}/")
    assert response.status_code == 404
    assert "public" not in response.get("Cache-Control", "")


def test_public_pages_carry_the_oembed_discovery_link_and_embed_box(client, owner, card):
    deck = make_deck(owner)
    for page_path in [card.get_absolute_url(), f"/decks/{deck.share_key}/"]:
        page = client.get(page_path).content.decode()
        assert 'rel="alternate" type="application/json+oembed"' in page
        assert html.escape(f"{SITE}/oembed/?url=") in page
        assert 'id="embed-iframe"' in page
        assert "/static/js/autocard.js" in page


def test_a_private_deck_page_has_no_discovery_link_nor_embed_box(client, owner):
    deck = make_deck(owner, visibility="private")
    client.force_login(owner)
    page = client.get(f"/decks/{deck.share_key}/").content.decode()
    assert "json+oembed" not in page
    assert 'id="embed-iframe"' not in page


def test_the_card_search_api_may_be_read_cross_origin(client):
    response = client.get("/api/v1/cards/", {"q": "a", "page_size": 1})
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response


def test_a_warm_embed_reads_only_the_deck_and_nothing_for_a_card(client, owner, card):
    deck = make_deck(owner)
    client.get(f"/embed/decks/{deck.share_key}/")
    client.get(f"/embed/cards/{card.short_id}/")

    def selects(path):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]

    # The deck is read for its visibility and version; its rendered list comes from the cache.
    deck_reads = selects(f"/embed/decks/{deck.share_key}/")
    assert len(deck_reads) == 1 and '"decks_deck"' in deck_reads[0]
    assert selects(f"/embed/cards/{card.short_id}/") == []
