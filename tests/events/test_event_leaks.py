"""No event path shows a list to anyone who may not see it: before publishing, another player's
list to no other player or visitor, whatever its deck's visibility; ever, a private deck's list
to anyone but the organiser and its player; and a deck's id (its link) only where the deck is
public."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.decks.test_deck_api import client_for
from tests.events.support import EVENTS, new_event, player, registered

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(request):
    organiser = player("olga")
    event_id = new_event(organiser, visibility="unlisted")
    # Ann's deck is public, Ben's private (the secret), Cat's unlisted.
    ann = registered(player("ann"), event_id, "public", name="Open Anvil")
    ben = registered(player("ben"), event_id, "private", faction="Elves", name="Secret Grove")
    cat = registered(player("cat"), event_id, "unlisted", name="Quiet Hammer")
    return {"id": event_id, "organiser": organiser, "ann": ann, "ben": ben, "cat": cat}


def readers():
    return {"anonymous": None, "stranger": "mallory", "another player": "ann"}


def _client(username):
    client = Client()
    if username is not None:
        user = User.objects.filter(username=username).first() or player(username)
        client.force_login(user)
    return client


def _everything(client, event_id):
    paths = [
        f"/events/{event_id}/",
        f"/events/{event_id}/organise/",
        f"/events/{event_id}/sheets.pdf",
        f"/events/{event_id}/sheets/ben.pdf",
        f"{EVENTS}{event_id}/registrations/",
        "/events/",
    ]
    return "\n".join(client.get(path).content.decode("latin-1") for path in paths)


@pytest.mark.parametrize("reader", list(readers()))
def test_before_publishing_no_one_else_reads_any_list(event, reader):
    seen = _everything(_client(readers()[reader]), event["id"])
    for name in ("ben", "cat"):
        assert event[name]["name"] not in seen
        assert event[name]["id"] not in seen
    if reader != "another player":
        assert event["ann"]["name"] not in seen


@pytest.mark.parametrize("reader", list(readers()))
def test_after_publishing_a_private_decks_list_stays_hidden(event, reader):
    assert client_for(event["organiser"]).post(f"{EVENTS}{event['id']}/publish/").status_code == 200
    seen = _everything(_client(readers()[reader]), event["id"])
    assert event["ben"]["name"] not in seen and event["ben"]["id"] not in seen
    # An unlisted deck's list is open, but its link is not given.
    assert event["cat"]["name"] in seen and event["cat"]["id"] not in seen
    assert event["ann"]["id"] in seen


def test_the_organiser_and_the_player_still_read_the_private_list(event):
    client_for(event["organiser"]).post(f"{EVENTS}{event['id']}/publish/")
    for who in (event["organiser"], User.objects.get(username="ben")):
        client = client_for(who)
        lists = {r["player"]: r for r in client.get(f"{EVENTS}{event['id']}/registrations/").json()}
        assert lists["ben"]["cards"] and lists["ben"]["deck"] == event["ben"]["name"]


def test_an_unlisted_event_is_in_no_public_list(event):
    assert event["id"] not in APIClient().get("/events/").content.decode()
    assert event["id"] not in _client("mallory").get("/events/").content.decode()
