"""Copies pressed, set and imported at the same moment: none is lost, none is made up.

A row lock on a card not held yet locks nothing, so each write locks its owner first
(cardsite/collection/services/owner_lock.py).
"""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard
from tests.collection.conftest import GAME
from tests.collection.racing import committed, race, race_test

pytestmark = race_test


@pytest.fixture
def racer():
    """A committed user, and six printings they do not hold."""
    user = committed(lambda: User.objects.create_user("collection-racer", password="x-Long-pass-9"))
    cards = list(Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort")[:6])
    yield user, cards
    committed(lambda: User.objects.filter(pk=user.pk).delete())


def held(user: User) -> dict[str, int]:
    return dict(CollectionCard.objects.filter(owner=user).values_list("card__short_id", "quantity"))


def signed_in(user: User) -> Client:
    client = Client()
    # The session committed, for the racers to find.
    committed(lambda: client.force_login(user))
    return client


def plus(client: Client, card: Card) -> int:
    return client.post(f"/collection/cards/{card.short_id}/", {"step": "1"}).status_code


@pytest.mark.parametrize("attempt", range(3))
def test_ten_pluses_at_once_on_a_card_not_held_make_exactly_ten_copies(racer, attempt):
    user, cards = racer
    clients = [signed_in(user) for _ in range(10)]
    outcomes = race(*[lambda c=c: plus(c, cards[0]) for c in clients])
    assert outcomes == [302] * 10
    assert held(user) == {cards[0].short_id: 10}


def test_five_pluses_at_once_on_each_of_six_cards_not_held_make_five_copies_of_each(racer):
    user, cards = racer
    clients = [signed_in(user) for _ in range(5)]
    outcomes = race(*[lambda c=c, card=card: plus(c, card) for card in cards for c in clients])
    assert outcomes == [302] * 30
    assert held(user) == {card.short_id: 5 for card in cards}


def test_imports_adding_at_once_with_pluses_add_up_to_every_copy(racer):
    user, cards = racer
    card = cards[0]
    api = APIClient()
    api.force_authenticate(user=user)
    line = f"2 {card.name} ({card.card_set.code}) {card.number}"

    def add() -> int:
        body = {"game": GAME, "text": line, "mode": "add"}
        return api.post("/api/v1/collection/import/", body, format="json").status_code

    clients = [signed_in(user) for _ in range(4)]
    outcomes = race(*[add] * 4, *[lambda c=c: plus(c, card) for c in clients])
    assert outcomes == [200] * 4 + [302] * 4
    assert held(user) == {card.short_id: 4 * 2 + 4}


def test_puts_and_pluses_at_once_end_where_some_serial_order_ends(racer):
    """Setting is last-writer-wins, and a `+` counts from what is held when it runs: every
    request answers, and the card ends at a quantity one order of them one by one gives."""
    user, cards = racer
    card = cards[0]
    api = APIClient()
    api.force_authenticate(user=user)

    def put(quantity: int) -> int:
        url = f"/api/v1/collection/cards/{card.short_id}/"
        return api.put(url, {"quantity": quantity}, format="json").status_code

    clients = [signed_in(user) for _ in range(3)]
    outcomes = race(lambda: put(5), lambda: put(0), *[lambda c=c: plus(c, card) for c in clients])
    assert outcomes == [200, 200, 302, 302, 302]
    # The last PUT's 5 or 0, then the pluses that ran after it.
    assert held(user).get(card.short_id, 0) in {0, 1, 2, 3, 5, 6, 7, 8}
