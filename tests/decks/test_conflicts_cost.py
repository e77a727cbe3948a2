"""Conflicts are summed per card in the database and capped: the first MAX_CONFLICTS_SHOWN
cards with a count of the rest, each naming at most MAX_CONFLICT_DECKS_SHOWN decks with a
count of the rest; the queries a page or the API answer costs do not grow with the decks."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import Pool, PoolMember
from decks.models import Deck, DeckEntry
from decks.reading.owning import MAX_CONFLICT_DECKS_SHOWN, MAX_CONFLICTS_SHOWN, built_conflicts
from decks.services import Intake, RequestedCard, deck_create
from decks.services.building import deck_build

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"


def orion_cards(n):
    found = list(Card.objects.filter(game__slug=ORION).order_by("id")[:n])
    assert len(found) == n
    return found


def built_decks(owner, n, cards, visibility="public", prefix="Deck"):
    """`n` built decks of `owner`'s, each one copy of every card, written straight in."""
    game = Game.objects.get(slug=ORION)
    decks = Deck.objects.bulk_create(
        Deck(
            owner=owner,
            game=game,
            format="constructed",
            name=f"{prefix} {i:03}",
            visibility=visibility,
            built_at=timezone.now(),
        )
        for i in range(n)
    )
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=deck, card=card, zone="main", quantity=1) for deck in decks for card in cards
    )


def pooled(*users):
    pool = Pool.objects.create(name="Tuesday group", created_by=users[0])
    for user in users:
        PoolMember.objects.create(pool=pool, user=user, accepted_at=timezone.now())


@pytest.fixture
def members():
    return [User.objects.create_user(f"member{i}", password="x-Long-pass-9") for i in range(3)]


def test_past_fifty_cards_the_rest_are_counted_not_listed(members, client):
    alice = members[0]
    built_decks(alice, 2, orion_cards(MAX_CONFLICTS_SHOWN + 13))
    conflicts = built_conflicts(user=alice)
    assert (
        len(conflicts.shown) == MAX_CONFLICTS_SHOWN and conflicts.total == MAX_CONFLICTS_SHOWN + 13
    )
    api = APIClient()
    api.force_authenticate(alice)
    body = api.get("/api/v1/collection/conflicts/").json()
    assert body["count"] == MAX_CONFLICTS_SHOWN + 13
    assert len(body["results"]) == MAX_CONFLICTS_SHOWN
    client.force_login(alice)
    assert "and 13 more cards" in client.get(reverse("collection:home")).content.decode()


def test_past_ten_decks_a_conflict_counts_the_rest(members, client):
    alice = members[0]
    (card,) = orion_cards(1)
    built_decks(alice, MAX_CONFLICT_DECKS_SHOWN + 4, [card])
    (conflict,) = built_conflicts(user=alice)
    assert [d.name for d, _ in conflict.decks] == [
        f"Deck {i:03}" for i in range(MAX_CONFLICT_DECKS_SHOWN)
    ]
    assert conflict.more_decks == 4 and conflict.needed == MAX_CONFLICT_DECKS_SHOWN + 4
    client.force_login(alice)
    assert "and 4 more decks" in client.get(reverse("collection:home")).content.decode()


def test_a_deck_holding_a_card_in_two_zones_is_one_competitor_with_both_counts(members):
    alice = members[0]
    (card,) = orion_cards(1)
    built_decks(alice, 2, [card])
    first = Deck.objects.get(name="Deck 000")
    DeckEntry.objects.create(deck=first, card=card, zone="side", quantity=2)
    (conflict,) = built_conflicts(user=alice)
    assert [(d.name, n) for d, n in conflict.decks] == [("Deck 000", 3), ("Deck 001", 1)]
    assert conflict.more_decks == 0


def _queries(fetch):
    fetch()  # warm what is cached once (the game's snapshot, the session)
    with CaptureQueriesContext(connection) as captured:
        assert fetch().status_code == 200
    return len(captured)


def test_no_page_or_answer_showing_conflicts_costs_more_queries_with_more_built_decks(
    members, client
):
    alice, bob, carol = members
    pooled(alice, bob, carol)
    cards = orion_cards(60)
    mine = deck_create(
        owner=alice,
        game=Game.objects.get(slug=ORION),
        format_slug="constructed",
        name="Mine",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards[:20])),
    )
    deck_build(deck=mine, user=alice)
    built_decks(bob, 1, cards, visibility="private", prefix="Bob")
    built_decks(carol, 1, cards, visibility="public", prefix="Carol first")
    client.force_login(alice)
    api = APIClient()
    api.force_authenticate(alice)
    fetches = [
        lambda: client.get(reverse("collection:home")),
        lambda: client.get(mine.get_absolute_url()),
        lambda: client.get(reverse("decks:edit", args=[mine.share_key])),
        lambda: api.get("/api/v1/collection/conflicts/"),
    ]
    few = [_queries(fetch) for fetch in fetches]
    built_decks(bob, 15, cards, visibility="private", prefix="Bob more")
    built_decks(carol, 15, cards, visibility="public", prefix="Carol")
    built_decks(alice, 15, cards, visibility="unlisted", prefix="Alice")
    many = [_queries(fetch) for fetch in fetches]
    assert many == few
