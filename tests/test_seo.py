"""robots.txt and the sitemap (cardsite/seo.py, cardsite/catalogue/sitemaps.py): valid against
the sitemaps.org schemas, absolute on SITE_URL, paginated, a fixed number of queries a page
whatever the catalogue's size, and cached until the catalogue changes.

The deck section's privacy is held by tests/decks/test_sitemap.py."""

import re
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from lxml import etree

from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.seo import ROBOTS_DISALLOW, SITEMAP_LIMIT, SiteSitemap
from cardsite.urls import SITEMAPS
from tests.seo_support import NS, locs, selects, valid

pytestmark = pytest.mark.django_db

SITE = "https://cards.example.org"


def every_url_of_the_sitemap(client):
    """Every <loc> of every page the index lists, each page checked against sitemap.xsd."""
    index = valid(client.get("/sitemap.xml").content, "siteindex.xsd")
    found = []
    for page in locs(index):
        response = client.get(page.removeprefix(SITE))
        assert response.status_code == 200, page
        found += locs(valid(response.content, "sitemap.xsd"))
    return found


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


@pytest.fixture
def small_pages(monkeypatch):
    """Pages of 40 URLs, so that the fixtures' cards fill many."""
    monkeypatch.setattr(SiteSitemap, "limit", 40)
    return 40


def test_the_sitemap_index_and_every_page_it_lists_are_valid_sitemaps_org_documents(client):
    assert every_url_of_the_sitemap(client)


def test_the_sitemap_lists_every_game_set_and_card_once_at_its_canonical_url(client):
    urls = every_url_of_the_sitemap(client)
    assert len(urls) == len(set(urls))
    expected = [SITE + "/", SITE + "/decks/", SITE + "/syntax/"]
    expected += [SITE + game.get_absolute_url() for game in Game.objects.all()]
    expected += [
        SITE + reverse("catalogue:set", args=[s.game.slug, s.code])
        for s in CardSet.objects.select_related("game")
    ]
    expected += [SITE + card.get_absolute_url() for card in Card.objects.all()]
    assert sorted(urls) == sorted(expected)


def test_every_url_is_absolute_on_the_configured_site_whatever_host_was_asked(client):
    index = client.get("/sitemap.xml", HTTP_HOST="localhost").content
    assert all(url.startswith(SITE + "/") for url in locs(etree.fromstring(index)))
    cards = client.get("/sitemap-cards.xml", HTTP_HOST="localhost").content
    assert all(url.startswith(SITE + "/cards/") for url in locs(etree.fromstring(cards)))


def test_a_card_has_its_last_change_as_lastmod_and_the_index_the_newest(client):
    card = Card.objects.order_by("id").first()
    document = etree.fromstring(client.get("/sitemap-cards.xml").content)
    url = document.find(f".//s:url[s:loc='{SITE}{card.get_absolute_url()}']", NS)
    assert url.find("s:lastmod", NS).text == card.updated_at.isoformat(timespec="seconds")
    index = etree.fromstring(client.get("/sitemap.xml").content)
    newest = max(Card.objects.values_list("updated_at", flat=True))
    entry = index.find(f".//s:sitemap[s:loc='{SITE}/sitemap-cards.xml']", NS)
    assert entry.find("s:lastmod", NS).text == newest.isoformat()


def test_the_page_size_is_far_under_the_protocols_50000():
    assert 0 < SITEMAP_LIMIT <= 5_000
    assert list(SITEMAPS) == ["pages", "games", "sets", "cards", "decks"]
    assert all(section.limit == SITEMAP_LIMIT for section in SITEMAPS.values())


def test_a_section_longer_than_a_page_is_split_and_the_index_lists_each_page(client, small_pages):
    index = locs(etree.fromstring(client.get("/sitemap.xml").content))
    pages = -(-Card.objects.count() // small_pages)
    assert pages > 2
    cards = [u for u in index if u.startswith(SITE + "/sitemap-cards.xml")]
    assert cards == [SITE + "/sitemap-cards.xml"] + [
        f"{SITE}/sitemap-cards.xml?p={n}" for n in range(2, pages + 1)
    ]
    seen = []
    for url in cards:
        found = locs(valid(client.get(url.removeprefix(SITE)).content, "sitemap.xsd"))
        assert 0 < len(found) <= small_pages
        seen += found
    assert sorted(seen) == sorted(SITE + c.get_absolute_url() for c in Card.objects.all())


def test_a_sitemap_page_costs_two_queries_cold_and_none_warm_wherever_it_is(client, small_pages):
    for page in ("1", "3"):
        # The section's count and the page's rows: never a query per card.
        assert len(selects(client, f"/sitemap-cards.xml?p={page}")) == 2
        assert selects(client, f"/sitemap-cards.xml?p={page}") == []


def test_the_index_costs_a_fixed_number_of_queries_cold_and_none_warm(client, small_pages):
    # Games and sets: a count each; cards: a count and the newest date; decks: a count (none
    # public here, so no date is asked). The fixed pages cost none.
    assert len(selects(client, "/sitemap.xml")) == 5
    assert selects(client, "/sitemap.xml") == []


def test_a_catalogue_change_reaches_the_cached_sitemap_at_once(client):
    card = Card.objects.order_by("id").first()
    assert SITE + card.get_absolute_url() in locs(
        etree.fromstring(client.get("/sitemap-cards.xml").content)
    )
    card.name = "A Wholly Renamed Card"
    card.save()
    urls = locs(etree.fromstring(client.get("/sitemap-cards.xml").content))
    assert f"{SITE}/cards/{card.short_id}/a-wholly-renamed-card/" in urls


@pytest.mark.parametrize("page", ["0", "abc", "99999", "1234567", "²", "-1"])
def test_a_page_number_that_is_no_page_of_the_section_is_a_404(client, page):
    assert client.get(f"/sitemap-cards.xml?p={page}").status_code == 404


def test_an_unknown_section_is_a_404(client):
    assert client.get("/sitemap-users.xml").status_code == 404


def test_catalogue_sections_may_be_kept_by_shared_caches_and_say_they_are_not_pages(client):
    response = client.get("/sitemap-cards.xml")
    assert response["Content-Type"] == "application/xml"
    assert response["Cache-Control"] == "public, max-age=3600"
    assert response["X-Robots-Tag"] == "noindex, noodp, noarchive"
    assert response["Last-Modified"]
    assert client.get("/sitemap.xml")["Cache-Control"] == "no-cache"


def robots_allows(rules, path):
    """RFC 9309: the longest matching rule wins, `*` matching any run of characters and a
    tie going to Allow."""
    best = (-1, True)
    for allow, pattern in rules:
        regex = "".join(".*" if c == "*" else re.escape(c) for c in pattern)
        if re.match(regex, path) and (len(pattern), allow) > best:
            best = (len(pattern), allow)
    return best[1]


def robots_rules(text):
    rules = []
    for line in text.splitlines():
        field, _, value = line.partition(":")
        if field.strip().lower() in ("allow", "disallow"):
            rules.append((field.strip().lower() == "allow", value.strip()))
    return rules


def test_robots_txt_names_the_sitemap_and_keeps_crawlers_to_the_public_pages(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    assert text.startswith("User-agent: *\n")
    assert f"Sitemap: {SITE}/sitemap.xml" in text.splitlines()
    rules = robots_rules(text)
    card = Card.objects.order_by("id").first()
    deck = "/decks/AbCdEf123456/"
    for path in (
        "/",
        "/games/a-game/",
        "/games/a-game/sets/SET/",
        card.get_absolute_url(),
        f"/cards/{card.short_id}/face.png",
        "/decks/",
        deck,
        deck + "og.png?v=3",
        "/syntax/",
        "/sitemap.xml",
    ):
        assert robots_allows(rules, path), path
    for path in (
        "/accounts/login/",
        "/accounts/signup/",
        "/admin/",
        "/api/v1/decks/",
        "/api/v1/goldfish/",
        "/search/?q=t:unit",
        "/collection/",
        "/decks/mine/",
        "/decks/new/",
        "/decks/compare/?a=x&b=y",
        deck + "edit/",
        deck + "build/",
        deck + "proxies.pdf",
        deck + "proxies/",
        deck + "proxies-preview.png",
        deck + "export.txt",
        deck + "tts.json",
        deck + "tts/abc.png",
        deck + "goldfish/",
        deck + "playtest/",
        deck + "history/diff/",
        "/jobs/abc/",
        "/proxies/calibration.pdf",
    ):
        assert not robots_allows(rules, path), path
    assert len(ROBOTS_DISALLOW) == len(set(ROBOTS_DISALLOW))


def test_every_url_in_the_sitemap_is_one_robots_txt_allows(client):
    rules = robots_rules(client.get("/robots.txt").content.decode())
    urls = every_url_of_the_sitemap(client)
    assert all(robots_allows(rules, urlsplit(url).path) for url in urls)
