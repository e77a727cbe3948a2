"""The events' API: creating, registering (a locked version), reading the lists as each reader
may, standings and publishing, and every limit's refusal."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.events.models import Event, Registration
from cardsite.events.services import MAX_PLAYERS
from decks.models import Deck
from tests.decks.test_deck_api import DECKS, client_for, new_deck
from tests.events.support import EVENTS, event_body, new_event, player, register, registered

pytestmark = pytest.mark.django_db


def lists_url(event_id):
    return f"{EVENTS}{event_id}/registrations/"


def test_an_event_is_created_with_an_opaque_id(organiser):
    event_id = new_event(organiser)
    assert len(event_id) >= 16 and not event_id.isdigit()
    event = Event.objects.get(key=event_id)
    assert event.organiser == organiser and event.format == "faction-deck"


def test_anonymous_users_cannot_create_events():
    assert APIClient().post(EVENTS, event_body(), format="json").status_code in (401, 403)


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("deadline", {"deadline_after_start": True}),
        ("starts_at", {"starts_at": (timezone.now() + timedelta(days=800)).isoformat()}),
        ("name", {"name": "x" * 121}),
        ("format", {"format": "no-such-format"}),
    ],
)
def test_an_event_out_of_its_limits_is_refused_naming_the_field(organiser, field, change):
    body = event_body()
    if change.pop("deadline_after_start", False):
        body["deadline"] = (timezone.now() + timedelta(days=8)).isoformat()
    body.update(change)
    response = client_for(organiser).post(EVENTS, body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not Event.objects.exists()


def test_an_organiser_creates_at_most_the_daily_number_of_events(organiser, settings):
    per_day = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["events"].split("/")[0])
    for _ in range(per_day):
        new_event(organiser)
    response = client_for(organiser).post(EVENTS, event_body(), format="json")
    assert response.status_code == 429
    assert f"{per_day} events created a day" in response.json()["detail"]
    assert Event.objects.count() == per_day
    # Another organiser has their own budget.
    new_event(player("other"))


def test_a_registration_locks_the_decks_version_and_later_edits_do_not_change_it(
    organiser, event_id
):
    alice = player("alice")
    deck = registered(alice, event_id)
    edit = client_for(alice).patch(f"{DECKS}{deck['id']}/", {"name": "Renamed"}, format="json")
    assert edit.status_code == 200 and edit.json()["version"] == 2
    mine = client_for(alice).get(lists_url(event_id)).json()
    assert [r["version"] for r in mine] == [1]
    assert mine[0]["legal"] is True and len(mine[0]["cards"]) == 20
    assert mine[0]["deck"] == "Dwarves rush"


def test_registering_again_replaces_the_list_with_one_row(organiser, event_id):
    alice = player("alice")
    registered(alice, event_id)
    second = new_deck(alice, "public", faction="Dwarves", name="Second")
    assert register(alice, event_id, second["id"]).status_code == 201
    rows = Registration.objects.filter(player=alice)
    assert rows.count() == 1 and rows.get().deck.share_key == second["id"]


def test_an_illegal_deck_is_refused_naming_its_problems(event_id):
    alice = player("alice")
    deck = new_deck(alice, "public", cards=[])
    response = register(alice, event_id, deck["id"])
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_deck" and body["problems"]
    assert all(p["message"] for p in body["problems"])
    assert not Registration.objects.exists()


def test_someone_elses_deck_cannot_be_registered(event_id):
    alice, bob = player("alice"), player("bob")
    deck = new_deck(bob, "public")
    response = register(alice, event_id, deck["id"])
    assert response.status_code == 400 and "deck" in response.json()["errors"]


def test_a_deck_of_another_game_is_refused(event_id):
    alice = player("alice")
    other = client_for(alice).post(
        DECKS,
        {"game": "fate-foretold", "format": "nest", "name": "N", "cards": []},
        format="json",
    )
    response = register(alice, event_id, other.json()["id"])
    assert response.status_code == 400 and "deck" in response.json()["errors"]


def test_registration_after_the_deadline_is_refused_naming_it(event_id):
    alice = player("alice")
    deck = new_deck(alice, "public")
    Event.objects.filter(key=event_id).update(deadline=timezone.now() - timedelta(minutes=1))
    response = register(alice, event_id, deck["id"])
    assert response.status_code == 400
    assert "deadline" in response.json()["errors"]


def test_the_player_cap_refuses_one_more_player_naming_it(event_id):
    event = Event.objects.get(key=event_id)
    first = player("first")
    deck = new_deck(first, "public")
    users = User.objects.bulk_create(User(username=f"p{n}") for n in range(MAX_PLAYERS))
    decks = Deck.objects.bulk_create(
        Deck(owner=u, game=event.game, format=event.format, name="x", share_key=f"k{u.pk}")
        for u in users
    )
    Registration.objects.bulk_create(
        Registration(event=event, player=u, deck=d, version=1)
        for u, d in zip(users, decks, strict=True)
    )
    response = register(first, event_id, deck["id"])
    assert response.status_code == 400
    assert str(MAX_PLAYERS) in response.json()["errors"]["event"][0]
    # With a place free again, the next player is taken.
    Registration.objects.filter(player=users[0]).delete()
    assert register(first, event_id, deck["id"]).status_code == 201
    assert Registration.objects.filter(event=event).count() == MAX_PLAYERS


def test_the_organiser_reads_every_list_with_cards_and_legality(organiser, event_id):
    alice, bob = player("alice"), player("bob")
    registered(alice, event_id, "private")
    registered(bob, event_id, "public", faction="Elves")
    lists = client_for(organiser).get(lists_url(event_id)).json()
    assert [r["player"] for r in lists] == ["alice", "bob"]
    assert all(r["cards"] and r["legal"] is True for r in lists)


def test_before_publishing_a_player_reads_only_their_own_list(organiser, event_id):
    alice, bob = player("alice"), player("bob")
    registered(alice, event_id, "public")
    registered(bob, event_id, "public", faction="Elves")
    assert [r["player"] for r in client_for(alice).get(lists_url(event_id)).json()] == ["alice"]


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_before_publishing_anyone_else_is_refused_the_lists(event_id, who):
    registered(player("alice"), event_id, "public")
    client = APIClient() if who == "anonymous" else client_for(player("carol"))
    response = client.get(lists_url(event_id))
    assert response.status_code == 403
    assert "Dwarves" not in response.content.decode()


def test_an_unknown_event_is_a_404():
    assert APIClient().get(lists_url("no-such-event")).status_code == 404


def test_standings_and_publishing_are_the_organisers_alone(organiser, event_id):
    alice = player("alice")
    registered(alice, event_id)
    api = client_for(alice)
    standings = [{"player": "alice", "rank": 1}]
    assert api.post(f"{EVENTS}{event_id}/standings/", standings, format="json").status_code == 403
    assert api.post(f"{EVENTS}{event_id}/publish/").status_code == 403
    assert not Event.objects.get(key=event_id).published


@pytest.mark.parametrize(
    "standings",
    [
        [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}, {"player": "x", "rank": 3}],
        [{"player": "alice", "rank": 3}],
        [{"player": "carol", "rank": 1}],
        [{"player": "alice", "rank": 1}, {"player": "alice", "rank": 2}],
        [{"player": "alice", "rank": 0}],
    ],
)
def test_standings_beyond_the_players_are_refused(organiser, event_id, standings):
    registered(player("alice"), event_id)
    registered(player("bob"), event_id, faction="Elves")
    player("carol")
    response = client_for(organiser).post(
        f"{EVENTS}{event_id}/standings/", standings, format="json"
    )
    assert response.status_code == 400
    assert not Registration.objects.filter(rank__isnull=False).exists()


def test_after_publishing_everyone_reads_the_standings_but_not_a_private_decks_list(
    organiser, event_id
):
    alice, bob = player("alice"), player("bob")
    registered(alice, event_id, "private")
    public = registered(bob, event_id, "public", faction="Elves")
    api = client_for(organiser)
    standings = [{"player": "bob", "rank": 1}, {"player": "alice", "rank": 2}]
    assert api.post(f"{EVENTS}{event_id}/standings/", standings, format="json").status_code == 200
    assert api.post(f"{EVENTS}{event_id}/publish/").status_code == 200
    lists = {r["player"]: r for r in APIClient().get(lists_url(event_id)).json()}
    assert lists["bob"]["rank"] == 1 and lists["bob"]["cards"]
    assert lists["bob"]["version_url"].endswith(f"/decks/{public['id']}/versions/1/")
    assert lists["alice"]["rank"] == 2
    assert lists["alice"]["cards"] is None and lists["alice"]["deck"] is None
    assert lists["alice"]["version_url"] is None
    # Its player and the organiser still read it.
    own = {r["player"]: r for r in client_for(alice).get(lists_url(event_id)).json()}
    assert own["alice"]["cards"]
    assert client_for(organiser).get(lists_url(event_id)).json()[0]["cards"]


def test_an_unlisted_decks_published_list_does_not_give_away_the_deck(organiser, event_id):
    alice = player("alice")
    deck = registered(alice, event_id, "unlisted")
    client_for(organiser).post(f"{EVENTS}{event_id}/publish/")
    response = APIClient().get(lists_url(event_id))
    assert response.json()[0]["cards"]
    assert deck["id"] not in response.content.decode()


def test_after_publishing_registrations_and_standings_are_frozen(organiser, event_id):
    alice = player("alice")
    deck = registered(alice, event_id)
    api = client_for(organiser)
    assert api.post(f"{EVENTS}{event_id}/publish/").status_code == 200
    assert register(alice, event_id, deck["id"]).status_code == 400
    standings = [{"player": "alice", "rank": 1}]
    assert api.post(f"{EVENTS}{event_id}/standings/", standings, format="json").status_code == 400
    assert api.post(f"{EVENTS}{event_id}/publish/").status_code == 400


def test_an_unlisted_event_is_read_by_its_link_and_not_listed(organiser):
    event_id = new_event(organiser, visibility="unlisted")
    page = APIClient().get("/events/")
    assert event_id not in page.content.decode()
    assert APIClient().get(f"/events/{event_id}/").status_code == 200
