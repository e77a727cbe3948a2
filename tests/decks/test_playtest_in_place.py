"""The playtest page played in place: a move's request answers with the table alone, a refused
move says why beside where it was tried, the table says what it waits for, and a table that
takes a second deck (a faction deck's targets) takes the player's own or the default."""

import gzip
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create, deck_update, intake_deck

pytestmark = pytest.mark.django_db

FRAGMENT = {"HTTP_HX_REQUEST": "true"}


def make_deck(owner, slug, format_slug, cards, visibility="public", name="Table"):
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=slug),
        format_slug=format_slug,
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


@pytest.fixture
def owner():
    return User.objects.create_user("in-place", password="x-Long-pass-9")


@pytest.fixture
def fates_deck(owner):
    cards = Card.objects.filter(card_set__code="COF-SMP", factions__name="Iron Tithe of Vantrix")
    return make_deck(owner, "conquest-of-fates", "standard", cards)


@pytest.fixture
def foretold_deck(owner):
    # A Nest without Sigils: no Sigil to choose, so Next goes straight through the turn.
    cards = Card.objects.filter(game__slug="fate-foretold", card_set__is_official=False)
    return make_deck(owner, "fate-foretold", "nest", cards.exclude(card_type__name="Sigil")[:20])


def tactics_cards(**more):
    return Card.objects.filter(
        game__slug="conquest-alpha-tactics", card_set__code="TAC-SMP", **more
    )


@pytest.fixture
def faction_deck(owner):
    # Starfleet's 33 player cards (its faction's planets are target cards).
    cards = tactics_cards(factions__name="Starfleet").exclude(card_type__name="Planet")
    return make_deck(owner, "conquest-alpha-tactics", "faction-deck", cards)


def target_deck(owner, size, visibility="private", name="My targets"):
    cards = tactics_cards(stats__has_key="victory_points")[:size]
    return make_deck(owner, "conquest-alpha-tactics", "targets", cards, visibility, name)


def url(deck, query=""):
    return f"/decks/{deck.share_key}/playtest/{query}"


def zone_html(html, slug):
    start = html.index(f'data-zone="{slug}"')
    end = html.find("<section", start)
    return html[start : end if end > 0 else len(html)]


def test_a_moves_request_is_answered_with_the_table_alone(fates_deck):
    response = Client().get(url(fates_deck, "?seed=5&a=d"), **FRAGMENT)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith("{#") is False and "<html" not in html
    assert '<div id="pt-play" data-session="?seed=5&amp;a=d">' in html
    assert "HX-Request" in response["Vary"]
    # The same URL without the header is the whole page, holding the same table.
    page = Client().get(url(fates_deck, "?seed=5&a=d")).content.decode()
    assert "<html" in page and 'id="pt-play"' in page


def test_every_move_control_is_a_link_naming_its_action(fates_deck):
    html = Client().get(url(fates_deck, "?seed=5&a=d"), **FRAGMENT).content.decode()
    actions = set(re.findall(r'<a [^>]*href="\?seed=5[^"]*" data-action="([a-z-]+)"', html))
    assert {"move", "next", "draw", "undo", "restart", "counter", "flip"} <= actions


def test_a_move_to_a_full_location_says_why_beside_that_location(fates_deck):
    first = re.search(
        r'href="\?seed=5&amp;a=d_(m\d+\.location-1)"',
        Client().get(url(fates_deck, "?seed=5&a=d")).content.decode(),
    )
    assert first
    html = Client().get(url(fates_deck, f"?seed=5&a=d_{first[1]}")).content.decode()
    second = re.search(r'<li class="pt-card" data-card="(\d+)"', zone_html(html, "hand"))
    assert second
    response = Client().get(
        url(fates_deck, f"?seed=5&a=d_{first[1]}_m{second[1]}.location-1"), **FRAGMENT
    )
    assert response.status_code == 400
    html = response.content.decode()
    location = zone_html(html, "location-1")
    assert "data-refusal" in location
    assert "Location 1 is full: it holds at most 1 card" in location
    # The table is the one before the refused move, and the address is its session.
    assert f'data-session="?seed=5&amp;a=d_{first[1]}"' in html
    assert html.count("data-refusal") == 1


def test_a_refused_card_move_says_why_beside_the_cards_zone(fates_deck):
    # The deck's top card cannot be exhausted: the supply deck is no place of play.
    html = Client().get(url(fates_deck, "?seed=5")).content.decode()
    top = re.search(r'data-card="(\d+)"', zone_html(html, "supply"))
    assert top
    response = Client().get(url(fates_deck, f"?seed=5&a=x{top[1]}"), **FRAGMENT)
    assert response.status_code == 400
    supply = zone_html(response.content.decode(), "supply")
    assert f'data-refused-card="{top[1]}"' in supply and "are not exhausted" in supply


def test_conquest_of_fates_says_what_to_discard_to_the_hand_limit(fates_deck):
    # Seven in the opening, four drawn: eleven against a hand limit of ten, discarded at once.
    html = Client().get(url(fates_deck, "?seed=5&a=d4"), **FRAGMENT).content.decode()
    assert "data-waiting>Waiting: Discard 1 to the hand limit</div>" in html


def test_fate_foretold_says_what_its_end_step_waits_for(foretold_deck):
    # Three in the opening, two drawn, one drawn in Step 2: six at the End, over five. The
    # limit holds at the end of the turn, so Next is held back, and the page says why.
    html = Client().get(url(foretold_deck, "?seed=5&a=d2_n_n_n_n"), **FRAGMENT).content.decode()
    assert "Step 4: End" in html
    assert 'data-action="next"' not in html
    assert "data-waiting>Waiting: Discard or bury 1 to the hand limit first</div>" in html
    hand = zone_html(html, "hand")
    assert hand.count('data-action="discard"') == 6


def test_a_move_costs_a_few_queries(fates_deck, django_assert_max_num_queries):
    actions = "_".join(["d", "n", "n", "n"])
    client = Client()
    client.get(url(fates_deck, f"?seed=5&a={actions}"), **FRAGMENT)  # the snapshot, warm
    # The deck (its cards are held per version), and the request's savepoint and its release.
    with django_assert_max_num_queries(3):
        response = client.get(url(fates_deck, f"?seed=5&a={actions}_d"), **FRAGMENT)
    assert response.status_code == 200


def test_a_change_to_the_decks_cards_is_played_at_the_next_move(fates_deck):
    client = Client()
    pile = fates_deck.game.engine.table.deck
    before = zone_html(
        client.get(url(fates_deck, "?seed=5&a=d"), **FRAGMENT).content.decode(), pile
    )
    kept = intake_deck(fates_deck).cards[1:]
    deck_update(deck=fates_deck, expected_version=None, changes={}, intake=Intake(kept))
    after = zone_html(client.get(url(fates_deck, "?seed=5&a=d"), **FRAGMENT).content.decode(), pile)
    count = re.compile(r"<small>\((\d+)")
    assert int(count.search(after)[1]) < int(count.search(before)[1])


def test_a_moves_fragment_is_sent_compressed_and_the_whole_page_is_not(fates_deck):
    gzip_ok = {**FRAGMENT, "HTTP_ACCEPT_ENCODING": "gzip"}
    fragment = Client().get(url(fates_deck, "?seed=5&a=d"), **gzip_ok)
    assert fragment["Content-Encoding"] == "gzip"
    assert b'<div id="pt-play"' in gzip.decompress(fragment.content)
    # The page lists the viewer's own decks to play with: a secret beside the reflected query.
    page = Client().get(url(fates_deck, "?seed=5&a=d"), HTTP_ACCEPT_ENCODING="gzip")
    assert not page.has_header("Content-Encoding")


def test_a_faction_deck_is_played_with_the_24_target_cards_by_default(faction_deck):
    html = Client().get(url(faction_deck, "?seed=5")).content.decode()
    assert "Target card pile <small>(24)" in html
    assert '<option value="" selected>The 24 target cards</option>' in html
    # The first Deployment Phase lays out four of them, one in each row.
    html = Client().get(url(faction_deck, "?seed=5&a=n"), **FRAGMENT).content.decode()
    assert "Target card pile <small>(20)" in html
    assert all("pt-card" in zone_html(html, f"row-{n}") for n in range(1, 5))


def test_a_faction_deck_is_played_with_the_players_own_target_deck(owner, faction_deck):
    targets = target_deck(owner, 16)
    client = Client()
    client.force_login(owner)
    html = client.get(url(faction_deck, "?seed=5")).content.decode()
    assert f'<option value="{targets.share_key}">My targets</option>' in html
    response = client.get(url(faction_deck, f"?seed=5&with={targets.share_key}&a=d"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Target card pile <small>(16)" in html
    # Every link carries the second deck, so the session stays one with it.
    assert f"&amp;with={targets.share_key}" in html
    assert f'data-session="?seed=5&amp;a=d&amp;with={targets.share_key}"' in html


def test_another_users_private_target_deck_cannot_be_played_with(faction_deck):
    other = User.objects.create_user("other-targets", password="x-Long-pass-9")
    hidden = target_deck(other, 16)
    assert Client().get(url(faction_deck, f"?seed=5&with={hidden.share_key}")).status_code == 404
    hidden.visibility = "unlisted"
    hidden.save()
    assert Client().get(url(faction_deck, f"?seed=5&with={hidden.share_key}")).status_code == 200


def test_a_second_deck_of_another_format_or_a_bad_key_is_a_400_naming_it(faction_deck):
    for key in (faction_deck.share_key, "no/such key"):
        response = Client().get(url(faction_deck, "?seed=5&" + f"with={key}"))
        assert response.status_code == 400
        assert "with" in response.content.decode()


def test_a_target_deck_is_played_alone(owner):
    targets = target_deck(owner, 24, visibility="public")
    html = Client().get(url(targets, "?seed=5")).content.decode()
    assert "Target card pile <small>(24)" in html and 'name="with"' not in html
