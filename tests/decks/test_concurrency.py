"""50 people saving the same version of one deck at once: one wins, nothing is lost.

Runs on PostgreSQL (CI runs the suite there too): SQLite serialises writers by locking the
whole file, so there is no race to test.
"""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import (
    DeckConflict,
    Intake,
    RequestedCard,
    deck_create,
    deck_set_quantity,
    deck_update,
    intake_deck,
)

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL"
)
EDITORS = 50


@pytest.fixture
def shared_deck(django_db_blocker):
    # Committed, so every thread's own connection sees it; removed afterwards.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("racer", password="x-Long-pass-9")
        dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-for-the-capital"),
            format_slug="faction-deck",
            name="Contested",
            intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in dwarves])),
        )
        others = list(
            Card.objects.filter(card_set__code="CFC-SMP")
            .exclude(factions__name="Dwarves")
            .order_by("number_sort")[:EDITORS]
        )
    yield deck, others
    with django_db_blocker.unblock():
        User.objects.filter(pk=owner.pk).delete()


def test_fifty_parallel_edits_of_one_version_let_exactly_one_through(
    shared_deck, django_db_blocker
):
    deck, others = shared_deck
    base: list[RequestedCard] = []
    start = threading.Barrier(EDITORS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def edit(card: Card) -> None:
        try:
            mine = Deck.objects.get(pk=deck.pk)
            start.wait()
            deck_update(
                deck=mine,
                expected_version=1,
                changes={"name": f"By {card.name}"},
                intake=Intake(tuple([*base, RequestedCard(1, None, card.short_id)])),
            )
            outcome = "saved"
        except DeckConflict:
            outcome = "conflict"
        except Exception as exc:  # a failure of any other kind must fail the test
            outcome = f"error: {exc!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    with django_db_blocker.unblock():
        base[:] = intake_deck(deck).cards
        threads = [threading.Thread(target=edit, args=(card,)) for card in others]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert sorted(set(outcomes)) == ["conflict", "saved"], outcomes
        assert outcomes.count("saved") == 1 and outcomes.count("conflict") == EDITORS - 1
        final = Deck.objects.get(pk=deck.pk)
        assert final.version == 2
        names = set(final.entries.values_list("card__name", flat=True))
        winner = final.name.removeprefix("By ")
        assert final.entries.count() == 21  # the 20 it had, plus exactly the winner's card
        assert winner in names


def test_parallel_plus_ones_of_one_version_add_exactly_one_row(shared_deck, django_db_blocker):
    """The builder's one-row write keeps the same promise: of many +1s sent from one version
    of the deck (each a different card), one lands and the others are refused whole."""
    deck, others = shared_deck
    start = threading.Barrier(EDITORS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def plus_one(card: Card) -> None:
        try:
            mine = Deck.objects.get(pk=deck.pk)
            start.wait()
            deck_set_quantity(deck=mine, expected_version=1, card=card.short_id, step=1)
            outcome = "saved"
        except DeckConflict:
            outcome = "conflict"
        except Exception as exc:  # a failure of any other kind must fail the test
            outcome = f"error: {exc!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    with django_db_blocker.unblock():
        threads = [threading.Thread(target=plus_one, args=(card,)) for card in others]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert outcomes.count("saved") == 1 and outcomes.count("conflict") == EDITORS - 1, outcomes
        final = Deck.objects.get(pk=deck.pk)
        assert final.version == 2
        assert final.entries.count() == 21
