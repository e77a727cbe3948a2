"""Shared steps of the events' tests: an event created and decks registered through the API."""

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from tests.decks.test_deck_api import client_for, new_deck

EVENTS = "/api/v1/events/"
GAME = "conquest-for-the-capital"
FORMAT = "faction-deck"


def player(name):
    return User.objects.create_user(name, password=f"{name}-pass-42")


def event_body(**extra):
    now = timezone.now()
    return {
        "game": GAME,
        "format": FORMAT,
        "name": "Friday night",
        "starts_at": (now + timedelta(days=7)).isoformat(),
        "deadline": (now + timedelta(days=6)).isoformat(),
        **extra,
    }


def new_event(organiser, **extra):
    response = client_for(organiser).post(EVENTS, event_body(**extra), format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def register(user, event_id, deck_id):
    return client_for(user).post(
        f"{EVENTS}{event_id}/registrations/", {"deck": deck_id}, format="json"
    )


def registered(user, event_id, visibility="public", faction="Dwarves", **extra):
    deck = new_deck(user, visibility, faction=faction, **extra)
    response = register(user, event_id, deck["id"])
    assert response.status_code == 201, response.content
    return deck
