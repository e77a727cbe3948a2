"""A card's page lists the public decks that use it and how many there are: never a private or
unlisted one, at most ten with a link to them all, and up to date after any deck write."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.public.card_decks import SHOWN
from decks.services import Intake, RequestedCard, deck_create, deck_delete, deck_update

pytestmark = pytest.mark.django_db

ORION = "conquest-of-orion"


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("card-decks", password="x-Long-pass-9")


@pytest.fixture
def card():
    return Card.objects.filter(game__slug=ORION, card_set__is_official=False).order_by("id")[0]


def make(owner, name, cards, *, fmt="constructed", visibility="public"):
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug=fmt,
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def deck_section(client, card) -> str:
    page = client.get(card.get_absolute_url()).content.decode()
    found = re.search(r'<section class="card-decks".*?</section>', page, re.S)
    assert found
    return found.group(0)


def listed(section: str) -> list[str]:
    return re.findall(r'<li><a href="/decks/[^"]+/">([^<]+)</a>', section)


def test_a_card_page_counts_and_lists_only_the_public_decks_using_it(client, owner, card):
    other = Card.objects.filter(game__slug=ORION).exclude(pk=card.pk)[0]
    make(owner, "Public with it", [card])
    make(owner, "Limited with it", [card, other], fmt="limited")
    make(owner, "Unlisted with it", [card], visibility="unlisted")
    make(owner, "Private with it", [card], visibility="private")
    make(owner, "Public without it", [other])
    section = deck_section(client, card)
    assert "Used in 2 public decks" in section
    assert sorted(listed(section)) == ["Limited with it", "Public with it"]
    assert "by card-decks · Limited" in section and "by card-decks · Constructed" in section
    assert f'href="/decks/?card={card.short_id}"' in section


def test_a_card_no_public_deck_uses_says_so(client, card):
    section = deck_section(client, card)
    assert "Used in 0 public decks" in section and "No public deck uses it yet." in section


def test_at_most_ten_are_listed_newest_first_with_a_link_to_them_all(client, owner, card):
    for n in range(SHOWN + 2):
        make(owner, f"Deck {n:02}", [card])
    section = deck_section(client, card)
    assert f"Used in {SHOWN + 2} public decks" in section
    assert listed(section) == [f"Deck {n:02}" for n in range(SHOWN + 1, 1, -1)]
    assert f"All {SHOWN + 2} public decks using it" in section
    # The link finds them all on /decks/.
    found = client.get(f"/decks/?card={card.short_id}").content.decode()
    assert f"{SHOWN + 2} public decks using" in found


def test_the_list_follows_every_deck_write_at_once(client, owner, card):
    deck = make(owner, "First name", [card])
    assert listed(deck_section(client, card)) == ["First name"]
    deck = deck_update(deck=deck, expected_version=None, changes={"name": "Second name"})
    assert listed(deck_section(client, card)) == ["Second name"]
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "private"})
    assert listed(deck_section(client, card)) == []
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "public"})
    other = Card.objects.filter(game__slug=ORION).exclude(pk=card.pk)[0]
    deck_update(
        deck=deck,
        expected_version=None,
        changes={},
        intake=Intake((RequestedCard(1, None, other.short_id),)),
    )
    assert listed(deck_section(client, card)) == []
    again = make(owner, "Back again", [card])
    assert listed(deck_section(client, card)) == ["Back again"]
    deck_delete(deck=again)
    assert listed(deck_section(client, card)) == []


def test_an_admin_save_of_a_deck_is_seen_too(client, owner, card):
    deck = make(owner, "Before", [card])
    assert listed(deck_section(client, card)) == ["Before"]
    deck.name = "After"
    deck.save()
    assert listed(deck_section(client, card)) == ["After"]
    assert Deck.objects.get(pk=deck.pk).search_name == "after"


def test_a_warm_card_page_reads_nothing_from_the_database(client, owner, card):
    make(owner, "Cached", [card])
    client.get(card.get_absolute_url())
    with CaptureQueriesContext(connection) as queries:
        assert client.get(card.get_absolute_url()).status_code == 200
    assert [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]] == []


def test_a_cold_deck_list_is_one_query_however_many_decks_use_the_card(client, owner, card):
    make(owner, "One", [card])
    client.get(card.get_absolute_url())

    def deck_queries():
        make(owner, "Another", [card])  # a deck write: the list is read again
        with CaptureQueriesContext(connection) as queries:
            client.get(card.get_absolute_url())
        return [q["sql"] for q in queries.captured_queries if "decks_deck" in q["sql"]]

    assert len(deck_queries()) == 1
    for n in range(SHOWN):
        make(owner, f"More {n}", [card])
    # Past ten, a count too.
    assert len(deck_queries()) == 2


def test_a_deleted_deck_leaves_a_cards_deck_list_at_once_and_a_restored_one_returns(
    client, owner, card
):
    from decks.services import deck_restore

    deck = make(owner, "Soon gone", [card])
    assert "Soon gone" in listed(deck_section(client, card))
    deck_delete(deck=deck)
    assert "Soon gone" not in listed(deck_section(client, card))
    deck_restore(deck=deck, owner=owner)
    assert "Soon gone" in listed(deck_section(client, card))
