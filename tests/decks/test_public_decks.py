"""/decks/: public decks filtered by game, format, faction and card, searched by name, sorted,
paged, and each shown with its standing in its own format."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from cardsite.catalogue.models import Game
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_update, game_snapshot
from tests.decks.list_support import item, legal_orion_cards, make, names, sample

pytestmark = pytest.mark.django_db

ORION = "conquest-of-orion"
CAPITAL = "conquest-for-the-capital"


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("lister", password="x-Long-pass-9")


def test_only_public_decks_are_listed_never_unlisted_or_private_ones(client, owner):
    make(owner, "Shown")
    make(owner, "Link only", visibility="unlisted")
    make(owner, "Mine alone", visibility="private")
    assert names(client.get("/decks/")) == ["Shown"]


def test_decks_filter_by_game_and_by_format_in_it(client, owner):
    make(owner, "Orion constructed")
    make(owner, "Orion limited", fmt="limited")
    make(owner, "Capital deck", game=CAPITAL, fmt="faction-deck")
    assert sorted(names(client.get("/decks/", {"game": ORION}))) == [
        "Orion constructed",
        "Orion limited",
    ]
    assert names(client.get("/decks/", {"game": ORION, "format": "limited"})) == ["Orion limited"]
    assert names(client.get("/decks/", {"format": "faction-deck"})) == ["Capital deck"]


def test_decks_filter_by_faction_by_slug_or_name(client, owner):
    humans = list(sample(ORION, factions__name="Humans")[:3])
    make(owner, "Human deck", cards=humans, faction="Humans")
    make(owner, "Other deck", cards=list(sample(ORION, factions__isnull=True)[:3]))
    assert names(client.get("/decks/", {"faction": "humans"})) == ["Human deck"]
    assert names(client.get("/decks/", {"game": ORION, "faction": "Humans"})) == ["Human deck"]


def test_decks_filter_by_a_card_named_by_its_short_id_or_its_name_in_any_case_and_accent(
    client, owner
):
    card = sample(ORION)[0]
    make(owner, "With it", cards=[card])
    make(owner, "Without it", cards=list(sample(ORION)[1:4]))
    by_id = client.get("/decks/", {"card": card.short_id})
    assert names(by_id) == ["With it"]
    # The card is named and linked to its page (where its face shows on hover).
    assert f'href="{card.get_absolute_url()}"' in by_id.content.decode()
    assert names(client.get("/decks/", {"card": card.name.upper()})) == ["With it"]
    assert names(client.get("/decks/", {"card": f"  {card.name.lower()}  "})) == ["With it"]


def test_a_card_no_deck_can_hold_is_an_empty_list_naming_what_was_asked(client, owner):
    make(owner, "Some deck")
    response = client.get("/decks/", {"card": "No Such Card Anywhere"})
    assert response.status_code == 200
    assert names(response) == []
    assert "No card is called “No Such Card Anywhere”" in response.content.decode()


def test_the_name_search_ignores_case_and_accents_and_needs_every_word(client, owner):
    make(owner, "Fête des Étoiles")
    make(owner, "Star Feast")
    assert names(client.get("/decks/", {"q": "FETE"})) == ["Fête des Étoiles"]
    assert names(client.get("/decks/", {"q": "étoiles fête"})) == ["Fête des Étoiles"]
    assert names(client.get("/decks/", {"q": "fete feast"})) == []


def test_a_renamed_deck_is_found_by_its_new_name(client, owner):
    deck = make(owner, "Old name")
    deck_update(deck=deck, expected_version=None, changes={"name": "Brand Névé"})
    assert names(client.get("/decks/", {"q": "neve"})) == ["Brand Névé"]
    assert names(client.get("/decks/", {"q": "old"})) == []


def test_decks_sort_by_recently_updated_by_default_or_by_newest(client, owner):
    first = make(owner, "Made first")
    make(owner, "Made second")
    # The first deck is edited later, so it is the most recently updated.
    Deck.objects.filter(pk=first.pk).update(updated_at=timezone.now() + timedelta(minutes=5))
    assert names(client.get("/decks/")) == ["Made first", "Made second"]
    assert names(client.get("/decks/", {"sort": "newest"})) == ["Made second", "Made first"]


def test_each_deck_shows_its_standing_in_its_own_format(client, owner):
    make(owner, "Legal one", cards=legal_orion_cards(), faction="Humans")
    make(owner, "Too small")
    html = client.get("/decks/").content.decode()
    legal, small = item(html, "Legal one"), item(html, "Too small")
    assert "Constructed" in legal and '<span class="badge legal"' in legal
    assert '<span class="badge illegal"' in small and "not legal" in small


def test_a_deck_whose_format_its_game_no_longer_has_shows_unknown(client, owner):
    deck = make(owner, "Old format")
    Deck.objects.filter(pk=deck.pk).update(format="retired")
    html = client.get("/decks/").content.decode()
    assert '<span class="badge unknown"' in html and "retired" in html


def test_decks_are_paged_twenty_five_at_a_time(client, owner):
    for n in range(27):
        make(owner, f"Deck {n:02}", cards=[])
    first = client.get("/decks/", {"sort": "newest"})
    assert len(names(first)) == 25 and "Page 1 of 2" in first.content.decode()
    second = client.get("/decks/", {"sort": "newest", "page": "2"})
    assert names(second) == ["Deck 01", "Deck 00"]
    # Past the last page: the last page.
    assert names(client.get("/decks/", {"sort": "newest", "page": "9"})) == names(second)


def page_queries(client, django_assert_max_num_queries, n):
    with django_assert_max_num_queries(n):
        assert client.get("/decks/", {"game": ORION}).status_code == 200


def test_the_page_costs_the_same_queries_however_many_decks_cold_or_warm(
    client, owner, django_assert_max_num_queries
):
    game_snapshot(ORION)
    make(owner, "One", cards=legal_orion_cards())
    # Cold (no standing cached): the games, the factions, the count, the page, their entries
    # to check them, their entries again for their counts and key cards; and the request's
    # savepoint and its release (ATOMIC_REQUESTS).
    page_queries(client, django_assert_max_num_queries, 8)
    for n in range(24):
        make(owner, f"More {n}", cards=legal_orion_cards()[:20])
    page_queries(client, django_assert_max_num_queries, 8)
    # Warm: each standing comes from the cache; the entries are read once, for the cards.
    page_queries(client, django_assert_max_num_queries, 7)


def test_a_standing_is_checked_again_once_its_deck_changes(client, owner):
    deck = make(owner, "Growing", cards=legal_orion_cards()[:10], faction="Humans")
    assert '<span class="badge illegal"' in client.get("/decks/").content.decode()
    deck_update(
        deck=deck,
        expected_version=None,
        changes={},
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in legal_orion_cards())),
    )
    assert '<span class="badge legal"' in client.get("/decks/").content.decode()


def test_htmx_gets_the_results_alone_and_history_restores_get_the_whole_page(client, owner):
    make(owner, "Any deck")
    partial = client.get("/decks/", {"game": ORION}, headers={"HX-Request": "true"})
    assert names(partial) == ["Any deck"]
    assert b"<html" not in partial.content and "HX-Request" in partial["Vary"]
    restore = client.get(
        "/decks/", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )
    assert b"<html" in restore.content


def test_the_form_keeps_every_filter_in_the_url_and_works_without_javascript(client, owner):
    html = client.get(
        "/decks/", {"game": ORION, "format": "limited", "q": "x", "card": "y", "sort": "newest"}
    ).content.decode()
    form = re.search(r'<form class="deck-filters" method="get".*?</form>', html, re.S).group(0)
    assert 'name="q" value="x"' in form and 'name="card" value="y"' in form
    assert f'<option value="{ORION}" selected>' in form
    assert '<option value="limited" selected>' in form
    assert '<option value="newest" selected>' in form
    assert '<button type="submit">Filter</button>' in form
    # Another game's formats are hidden while one game is chosen.
    assert re.search(r'<optgroup label="[^"]+" data-game="' + CAPITAL + '" hidden disabled>', form)


def test_the_page_names_no_game_anywhere_in_its_templates_but_lists_every_game(client):
    html = client.get("/decks/").content.decode()
    for game in Game.objects.all():
        assert f'<option value="{game.slug}">{game.name}</option>' in html


@pytest.fixture(autouse=True)
def _cold():
    cache.clear()
