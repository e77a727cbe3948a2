"""My decks and the public decks, as lists: each deck with its key cards' faces, its format's
name, its card count, its legality, when it was last edited and (to its owner) whether it is
built; My decks filtered and sorted as the public list is; never another user's private deck
or its cards; and a page's queries fixed however many decks it shows."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.html import escape

from decks.models import Deck
from decks.reading import selectors
from decks.reading.key_cards import KEY_CARDS
from decks.services import game_snapshot
from decks.services.building import deck_build
from tests.decks.list_support import item, legal_orion_cards, names, sample
from tests.decks.list_support import make as make_deck

pytestmark = pytest.mark.django_db

ORION = "conquest-of-orion"
CAPITAL = "conquest-for-the-capital"
MINE = "/decks/mine/"


def make(owner, name, **kw):
    # My decks' tests: private unless said otherwise, so a private deck is never listed by
    # chance.
    return make_deck(owner, name, **{"visibility": "private", **kw})


@pytest.fixture
def owner():
    return User.objects.create_user("keeper", password="x-Long-pass-9")


@pytest.fixture
def other():
    return User.objects.create_user("stranger", password="x-Long-pass-9")


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def faces(chunk: str) -> list[str]:
    """The short ids of the card faces a list item shows, in order."""
    return re.findall(r'<img src="/cards/([^/]+)/face.png"', chunk)


def test_my_decks_shows_the_format_s_name_the_count_legality_edited_and_built(signed_in, owner):
    legal = make(owner, "Humans", cards=legal_orion_cards(), faction="Humans")
    deck_build(deck=legal, user=owner)
    make(owner, "Three cards", fmt="limited")
    html = signed_in.get(MINE).content.decode()
    humans, small = item(html, "Humans"), item(html, "Three cards")
    assert "<li>Constructed" in humans and "<li>Limited" in small
    assert ">constructed<" not in html and ">limited<" not in html
    assert "<li>50 cards</li>" in humans and "<li>3 cards</li>" in small
    assert '<span class="badge legal"' in humans and '<span class="badge illegal"' in small
    assert '<span class="badge built">Built</span>' in humans and "<li>Unbuilt</li>" in small
    edited = re.search(r'Edited <time datetime="([^"]+)" title="([^"]+)">([^<]+)</time>', small)
    assert edited.group(3) == "just now"
    assert edited.group(1).endswith("+00:00") and re.fullmatch(
        r"\d+ \w{3} \d{4} \d\d:\d\d", edited.group(2)
    )


def test_the_edited_time_reads_in_words_with_the_moment_in_its_title(signed_in, owner):
    deck = make(owner, "Old deck")
    Deck.objects.filter(pk=deck.pk).update(updated_at=timezone.now() - timedelta(days=3, hours=2))
    assert "Edited <time" in item(signed_in.get(MINE).content.decode(), "Old deck")
    assert ">3\xa0days ago</time>" in item(signed_in.get(MINE).content.decode(), "Old deck")


def test_the_key_cards_are_those_with_most_copies_each_face_lazy_with_its_name(signed_in, owner):
    cards = list(sample(ORION)[:6])
    make(owner, "Copies", cards=[(cards[0], 1), (cards[1], 3), (cards[2], 2), *cards[3:]])
    chunk = item(signed_in.get(MINE).content.decode(), "Copies")
    shown = faces(chunk)
    assert len(shown) == KEY_CARDS
    assert shown[:2] == [cards[1].short_id, cards[2].short_id]
    assert f'alt="{escape(cards[1].name)}, 3 copies" loading="lazy"' in chunk
    # Then the single copies, by name (the deck has one zone).
    singles = sorted([cards[0], *cards[3:]], key=lambda c: (c.name, c.short_id))
    assert shown[2:] == [c.short_id for c in singles[:2]]
    assert f'alt="{escape(singles[0].name)}" loading="lazy"' in chunk
    assert '<span class="copies" aria-hidden="true">\u00d73</span>' in chunk


def test_an_empty_deck_says_it_has_no_cards_yet_instead_of_faces(signed_in, owner):
    make(owner, "Empty", cards=[])
    chunk = item(signed_in.get(MINE).content.decode(), "Empty")
    assert faces(chunk) == [] and "No cards yet" in chunk and "<li>0 cards</li>" in chunk


def test_my_decks_lists_only_the_owner_s_decks_never_another_user_s_nor_their_faces(
    signed_in, owner, other
):
    theirs = list(sample(ORION, factions__name="Humans")[:3])
    ours = list(sample(ORION, factions__isnull=True)[:3])
    make(owner, "Ours", cards=ours)
    make(other, "Their secret", cards=theirs)
    make(other, "Their public", cards=theirs, visibility="public")
    html = signed_in.get(MINE).content.decode()
    assert names(signed_in.get(MINE)) == ["Ours"]
    for card in theirs:
        assert card.short_id not in html


def test_the_public_list_never_shows_a_private_deck_or_its_cards(client, owner, other):
    secret = list(sample(ORION, factions__name="Humans")[:3])
    shown = list(sample(ORION, factions__isnull=True)[:3])
    make(other, "Secret", cards=secret)
    make(other, "Link only", cards=secret, visibility="unlisted")
    make(owner, "Shared", cards=shown, visibility="public")
    client.force_login(owner)
    html = client.get("/decks/").content.decode()
    assert names(client.get("/decks/")) == ["Shared"]
    assert sorted(faces(html)) == sorted(c.short_id for c in shown)
    for card in secret:
        assert card.short_id not in html


def test_built_or_unbuilt_is_shown_on_the_public_list_to_the_deck_s_owner_alone(
    client, owner, other
):
    deck = make(owner, "Built one", cards=legal_orion_cards(), visibility="public")
    deck_build(deck=deck, user=owner)
    client.force_login(other)
    assert "Built" not in item(client.get("/decks/").content.decode(), "Built one").replace(
        ">Built one<", ""
    )
    client.force_login(owner)
    chunk = item(client.get("/decks/").content.decode(), "Built one")
    assert '<span class="badge built">Built</span>' in chunk


def test_my_decks_filter_by_game_format_legality_and_name_as_the_public_list_does(signed_in, owner):
    make(owner, "Orion legal", cards=legal_orion_cards(), faction="Humans")
    make(owner, "Orion small")
    make(owner, "Orion limited", fmt="limited")
    make(owner, "Capital deck", game=CAPITAL, fmt="faction-deck")
    assert sorted(names(signed_in.get(MINE, {"game": CAPITAL}))) == ["Capital deck"]
    assert names(signed_in.get(MINE, {"game": ORION, "format": "limited"})) == ["Orion limited"]
    assert names(signed_in.get(MINE, {"legality": "legal"})) == ["Orion legal"]
    assert "Orion legal" not in names(signed_in.get(MINE, {"legality": "not-legal"}))
    assert names(signed_in.get(MINE, {"q": "SMALL orion"})) == ["Orion small"]
    assert names(signed_in.get(MINE, {"q": "nothing like it"})) == []
    assert "None of your decks match these filters." in (
        signed_in.get(MINE, {"q": "nothing like it"}).content.decode()
    )


def test_my_decks_sort_by_recently_edited_newest_or_name(signed_in, owner):
    banana = make(owner, "banana")
    make(owner, "Äpple")
    Deck.objects.filter(pk=banana.pk).update(updated_at=timezone.now() + timedelta(minutes=5))
    assert names(signed_in.get(MINE)) == ["banana", "Äpple"]
    assert names(signed_in.get(MINE, {"sort": "newest"})) == ["Äpple", "banana"]
    assert names(signed_in.get(MINE, {"sort": "name"})) == ["Äpple", "banana"]


def test_the_public_list_filters_by_legality_too(client, owner):
    make(owner, "Legal", cards=legal_orion_cards(), faction="Humans", visibility="public")
    make(owner, "Too small", visibility="public")
    assert names(client.get("/decks/", {"legality": "legal"})) == ["Legal"]
    assert names(client.get("/decks/", {"legality": "not-legal"})) == ["Too small"]


def test_a_legality_filter_other_than_legal_or_not_legal_is_a_400_naming_it(signed_in):
    response = signed_in.get(MINE, {"legality": "maybe"})
    assert response.status_code == 400
    assert "legality is one of legal, not-legal." in response.content.decode()


def test_my_decks_are_paged_with_a_next_link(signed_in, owner):
    for n in range(27):
        make(owner, f"Deck {n:02}", cards=[])
    first = signed_in.get(MINE, {"sort": "name"}).content.decode()
    assert 'rel="next"' in first and "Page 1 of 2" in first
    second = signed_in.get(MINE, {"sort": "name", "page": "2"})
    assert names(second) == ["Deck 25", "Deck 26"]


def test_htmx_gets_my_decks_results_alone(signed_in, owner):
    make(owner, "Any deck")
    partial = signed_in.get(MINE, {"game": ORION}, headers={"HX-Request": "true"})
    assert names(partial) == ["Any deck"]
    assert b"<html" not in partial.content and b"Recently deleted" not in partial.content
    assert "HX-Request" in partial["Vary"]


def test_my_decks_offers_an_edit_link_for_each_deck_and_its_visibility(signed_in, owner):
    deck = make(owner, "Editable")
    chunk = item(signed_in.get(MINE).content.decode(), "Editable")
    assert f'href="/decks/{deck.share_key}/edit/" aria-label="Edit Editable"' in chunk
    assert "<li>Private</li>" in chunk


def list_queries(client, url, assert_max, n):
    with assert_max(n):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("url", [MINE, "/decks/"])
def test_a_list_page_costs_the_same_queries_for_one_deck_or_a_full_page(
    signed_in, owner, django_assert_max_num_queries, url
):
    game_snapshot(ORION)
    make(owner, "One", cards=legal_orion_cards(), visibility="public")
    signed_in.get(url)
    # Warm (standings cached): the session and user, the games, the factions, the count, the
    # page, its entries (counts and faces), the header's unread notifications, My decks'
    # recently deleted; the request's savepoint and its release.
    list_queries(signed_in, url, django_assert_max_num_queries, 11)
    for n in range(30):
        make(owner, f"More {n}", cards=legal_orion_cards()[: 10 + n], visibility="public")
    # Cold for the new ones: their entries once more, to check them.
    list_queries(signed_in, url, django_assert_max_num_queries, 12)
    list_queries(signed_in, url, django_assert_max_num_queries, 11)


def test_the_legality_filter_checks_a_bounded_number_of_decks_and_says_so(
    signed_in, owner, monkeypatch
):
    # The bound, made small enough to pass with a few decks.
    monkeypatch.setattr(selectors, "LEGALITY_SCAN", 2)
    for n in range(3):
        make(owner, f"Small {n}")
    response = signed_in.get(MINE, {"legality": "not-legal"})
    assert names(response) == ["Small 2", "Small 1"]
    assert "Legality was checked for the first 2 decks only" in response.content.decode()
    assert "checked for the first" not in signed_in.get(MINE).content.decode()
