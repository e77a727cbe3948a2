"""Registrations at once: one player's twenty at once make one row, and the player cap holds
when more players than places register at the same moment.

Runs on PostgreSQL: SQLite serialises writers by locking the whole file, so there is no race
to test.
"""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from cardsite.events.models import Event, Registration
from cardsite.events.services import MAX_PLAYERS, event_create, registration_submit
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL"
)
RACERS = 20


@pytest.fixture
def field(django_db_setup, django_db_blocker):
    # Committed, so every thread's own connection sees it; removed afterwards.
    with django_db_blocker.unblock():
        game = Game.objects.get(slug="conquest-for-the-capital")
        organiser = User.objects.create_user("race-organiser", password="x-Long-pass-9")
        now = timezone.now()
        event = event_create(
            organiser=organiser,
            game=game,
            format_slug="faction-deck",
            name="Race",
            starts_at=now + timedelta(days=2),
            deadline=now + timedelta(days=1),
        )
        dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
        intake = Intake(tuple(RequestedCard(1, None, c.short_id) for c in dwarves))
        players = [
            User.objects.create_user(f"racer-{n}", password="x-Long-pass-9") for n in range(RACERS)
        ]
        decks = [
            deck_create(owner=p, game=game, format_slug="faction-deck", name="D", intake=intake)
            for p in players
        ]
    yield event, players, decks
    with django_db_blocker.unblock():
        User.objects.filter(pk__in=[organiser.pk, *(p.pk for p in players)]).delete()


def _race(jobs, django_db_blocker) -> list[str]:
    start = threading.Barrier(len(jobs))
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(event: Event, player: User, deck: Deck) -> None:
        try:
            start.wait()
            registration_submit(event=event, player=player, deck=Deck.objects.get(pk=deck.pk))
            outcome = "registered"
        except Exception as exc:  # a refusal is an InputError; anything else fails the test
            outcome = type(exc).__name__
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    with django_db_blocker.unblock():
        threads = [threading.Thread(target=run, args=job) for job in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    return outcomes


def test_one_players_registrations_at_once_make_one_row(field, django_db_blocker):
    event, players, decks = field
    outcomes = _race([(event, players[0], decks[0])] * RACERS, django_db_blocker)
    assert outcomes == ["registered"] * RACERS
    with django_db_blocker.unblock():
        assert Registration.objects.filter(event=event).count() == 1


def test_the_player_cap_holds_when_more_players_register_at_once(field, django_db_blocker):
    event, players, decks = field
    places = 5
    with django_db_blocker.unblock():
        # The event filled but for five places, so that twenty players race for them.
        fillers = User.objects.bulk_create(
            User(username=f"race-filler-{n}") for n in range(MAX_PLAYERS - places)
        )
        filler_decks = Deck.objects.bulk_create(
            Deck(owner=u, game=event.game, format=event.format, name="F", share_key=f"rf{u.pk}")
            for u in fillers
        )
        Registration.objects.bulk_create(
            Registration(event=event, player=u, deck=d, version=1)
            for u, d in zip(fillers, filler_decks, strict=True)
        )
    try:
        outcomes = _race(
            list(zip([event] * RACERS, players, decks, strict=True)), django_db_blocker
        )
        assert outcomes.count("registered") == places
        assert outcomes.count("InputError") == RACERS - places
        with django_db_blocker.unblock():
            assert Registration.objects.filter(event=event).count() == MAX_PLAYERS
    finally:
        with django_db_blocker.unblock():
            User.objects.filter(pk__in=[u.pk for u in fillers]).delete()
