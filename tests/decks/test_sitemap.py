"""The sitemap's deck section (decks/public/sitemaps.py): public decks only, never a private,
unlisted or deleted one, nor any deck of a deleted account; and a deck that stops being public
leaves the cached section at once."""

from datetime import timedelta

import pytest
from lxml import etree
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import (
    Intake,
    RequestedCard,
    deck_create,
    deck_restore,
    deck_revert,
    deck_set_quantity,
    deck_update,
)
from decks.services.lifecycle import deck_delete
from engines.errors import InputError
from tests.seo_support import NS, locs, selects, valid

pytestmark = pytest.mark.django_db

SITE = "https://cards.example.org"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("mapped", password="x-Long-pass-9")


def make(owner, name, visibility="public"):
    cards = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort")[:3]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def listed(client):
    response = client.get("/sitemap-decks.xml")
    if response.status_code == 404:
        return []
    return locs(valid(response.content, "sitemap.xsd"))


def url(deck):
    return SITE + deck.get_absolute_url()


def test_only_public_decks_are_listed_never_private_unlisted_or_deleted_ones(client, owner):
    shown = make(owner, "Shown")
    make(owner, "Link only", visibility="unlisted")
    make(owner, "Mine alone", visibility="private")
    deck_delete(deck=make(owner, "Thrown away"))
    assert listed(client) == [url(shown)]


def test_a_deck_made_unlisted_or_private_leaves_the_cached_section_at_once(client, owner):
    deck = make(owner, "Going dark")
    assert listed(client) == [url(deck)]
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "unlisted"})
    assert listed(client) == []
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "public"})
    assert listed(client) == [url(deck)]
    deck_update(deck=deck, expected_version=None, changes={"visibility": "private"})
    assert listed(client) == []


def test_a_deleted_deck_and_a_deleted_accounts_decks_leave_it_at_once(
    client, owner, django_user_model
):
    kept = make(owner, "Kept")
    gone = make(owner, "Gone")
    other = django_user_model.objects.create_user("leaving", password="x-Long-pass-9")
    theirs = make(other, "Theirs")
    assert sorted(listed(client)) == sorted([url(kept), url(gone), url(theirs)])
    deck_delete(deck=gone)
    other.delete()
    assert listed(client) == [url(kept)]


def test_a_deck_has_its_last_change_as_lastmod(client, owner):
    deck = make(owner, "Dated")
    document = etree.fromstring(client.get("/sitemap-decks.xml").content)
    lastmod = document.find(f".//s:url[s:loc='{url(deck)}']/s:lastmod", NS).text
    assert lastmod == Deck.objects.get(pk=deck.pk).updated_at.isoformat(timespec="seconds")


def test_the_index_lists_the_deck_section_only_while_a_public_deck_exists(client, owner):
    section = SITE + "/sitemap-decks.xml"
    assert section not in locs(etree.fromstring(client.get("/sitemap.xml").content))
    assert client.get("/sitemap-decks.xml").status_code == 404
    make(owner, "Private", visibility="private")
    assert section not in locs(etree.fromstring(client.get("/sitemap.xml").content))
    make(owner, "Public")
    index = valid(client.get("/sitemap.xml").content, "siteindex.xsd")
    assert section in locs(index)


def test_the_deck_section_is_never_kept_by_a_shared_cache(client, owner):
    make(owner, "Fresh")
    assert client.get("/sitemap-decks.xml")["Cache-Control"] == "no-cache"


def test_a_deck_page_costs_two_queries_cold_whatever_the_decks_hold(client, owner):
    for n in range(3):
        make(owner, f"Deck {n}")
    assert len(selects(client, "/sitemap-decks.xml")) == 2
    assert selects(client, "/sitemap-decks.xml") == []


def test_a_restored_deck_comes_back_at_once_and_a_restore_by_another_user_changes_nothing(
    client, owner, django_user_model
):
    deck = make(owner, "Back again")
    deck_delete(deck=deck)
    assert listed(client) == []
    stranger = django_user_model.objects.create_user("stranger", password="x-Long-pass-9")
    with pytest.raises(InputError):
        deck_restore(deck=Deck.objects.get(pk=deck.pk), owner=stranger)
    assert listed(client) == []
    deck_restore(deck=Deck.objects.get(pk=deck.pk), owner=owner)
    assert listed(client) == [url(deck)]


def test_a_revert_to_a_version_when_the_deck_was_private_keeps_it_as_it_is_now(client, owner):
    deck = make(owner, "Once hidden", visibility="private")
    deck = deck_update(deck=deck, expected_version=None, changes={"name": "Renamed"})
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "public"})
    assert listed(client) == [url(deck)]
    deck = deck_revert(deck=deck, expected_version=None, version=1, author=owner)
    assert deck.visibility == "public"
    assert listed(client) == [url(deck)]
    # And the other way: a deck private now stays out after a revert to a public version.
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "private"})
    assert listed(client) == []
    deck_revert(deck=deck, expected_version=None, version=3, author=owner)
    assert listed(client) == []


def test_a_deck_made_private_through_the_api_leaves_the_cached_section_at_once(client, owner):
    deck = make(owner, "Via the API")
    assert listed(client) == [url(deck)]
    api = APIClient()
    api.force_authenticate(owner)
    response = api.patch(
        f"/api/v1/decks/{deck.share_key}/", {"visibility": "private"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert listed(client) == []


def test_a_change_of_one_cards_quantity_reaches_the_cached_lastmod_at_once(client, owner):
    deck = make(owner, "Tuned")
    # An older last change, written past the services (so no list is told of it).
    Deck.objects.filter(pk=deck.pk).update(updated_at=deck.updated_at - timedelta(days=1))
    document = etree.fromstring(client.get("/sitemap-decks.xml").content)
    before = document.find(f".//s:url[s:loc='{url(deck)}']/s:lastmod", NS).text
    card = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort").first()
    deck_set_quantity(
        deck=Deck.objects.get(pk=deck.pk), expected_version=None, card=card.short_id, step=1
    )
    changed = Deck.objects.get(pk=deck.pk).updated_at.isoformat(timespec="seconds")
    assert changed != before
    document = etree.fromstring(client.get("/sitemap-decks.xml").content)
    assert document.find(f".//s:url[s:loc='{url(deck)}']/s:lastmod", NS).text == changed
