"""The events' pages: creating, registering, the organiser's page (deck check, standings,
publishing), the sheets as one PDF read back with pdftotext, and who sees which page."""

import html
import subprocess
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from cardsite.events.models import Event, Registration
from tests.decks.test_deck_api import client_for, new_deck
from tests.events.support import FORMAT, GAME, player, registered

pytestmark = pytest.mark.django_db


def browser(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_an_organiser_creates_an_event_from_the_form(organiser):
    now = timezone.now()
    response = browser(organiser).post(
        "/events/new/",
        {
            "name": "Store championship",
            "game_format": f"{GAME}/{FORMAT}",
            "starts_at": (now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
            "deadline": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            "visibility": "public",
        },
    )
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/events/{event.key}/organise/"
    assert "Store championship" in browser().get("/events/").content.decode()


def test_a_form_with_the_deadline_after_the_start_is_refused_naming_it(organiser):
    now = timezone.now()
    response = browser(organiser).post(
        "/events/new/",
        {
            "name": "Late",
            "game_format": f"{GAME}/{FORMAT}",
            "starts_at": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            "deadline": (now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 400
    assert "deadline" in response.content.decode()
    assert not Event.objects.exists()


def test_a_player_registers_from_the_event_page_and_sees_the_locked_version(event_id):
    alice = player("alice")
    deck = new_deck(alice, "private")
    page = browser(alice).get(f"/events/{event_id}/").content.decode()
    assert deck["id"] in page and 'data-action="event-register"' in page
    response = browser(alice).post(f"/events/{event_id}/register/", {"deck": deck["id"]})
    assert response.status_code == 302
    page = browser(alice).get(f"/events/{event_id}/").content.decode()
    assert 'data-registered-version="1"' in page


def test_an_illegal_deck_is_refused_on_the_page_with_its_problems(event_id):
    alice = player("alice")
    deck = new_deck(alice, "public", cards=[])
    response = browser(alice).post(f"/events/{event_id}/register/", {"deck": deck["id"]})
    assert response.status_code == 400
    assert "is not legal in" in response.content.decode()
    assert not Registration.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_the_organisers_page_and_sheets_are_no_one_elses(event_id, who):
    registered(player("alice"), event_id, "private")
    client = browser() if who == "anonymous" else browser(player("mallory"))
    for tail in ("organise/", "sheets.pdf", "sheets/alice.pdf"):
        response = client.get(f"/events/{event_id}/{tail}")
        assert response.status_code in (302, 404)
        assert b"Dwarves" not in response.content


def test_before_publishing_the_event_page_shows_no_ones_list(event_id):
    registered(player("alice"), event_id, "public")
    bob = player("bob")
    for client in (browser(), browser(bob)):
        page = client.get(f"/events/{event_id}/").content.decode()
        assert "Dwarves rush" not in page and "Decklists" not in page


def test_the_deck_check_shows_missing_extra_and_changed_cards(organiser, event_id):
    alice = player("alice")
    registered(alice, event_id)
    lines = [f"{r.quantity} {r.name}" for r in _registered_cards(organiser, event_id)["alice"]]
    first, second = lines[0].split(" ", 1)[1], lines[1].split(" ", 1)[1]
    presented = "\n".join([f"3 {first}", *lines[2:]])
    response = browser(organiser).post(
        f"/events/{event_id}/check/", {"player": "alice", "text": presented}
    )
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert f"Missing: 1 {second}" in page
    assert f"Quantity: {first} registered 1, presented 3" in page
    same = browser(organiser).post(
        f"/events/{event_id}/check/", {"player": "alice", "text": "\n".join(lines)}
    )
    assert "matches" in same.content.decode()


def test_a_deck_check_longer_than_the_limit_is_refused_naming_it(organiser, event_id):
    registered(player("alice"), event_id)
    response = browser(organiser).post(
        f"/events/{event_id}/check/", {"player": "alice", "text": "1 x\n" * 30_000}
    )
    assert response.status_code == 400
    assert "100,000 characters" in response.content.decode()


def _registered_cards(organiser, event_id):
    from types import SimpleNamespace

    lists = client_for(organiser).get(f"/api/v1/events/{event_id}/registrations/").json()
    return {r["player"]: [SimpleNamespace(**c) for c in r["cards"] if c["zone"]] for r in lists}


def test_all_sheets_are_one_pdf_sorted_by_player(organiser, event_id, tmp_path):
    for name, faction in (("zoe", "Dwarves"), ("adam", "Elves"), ("mia", "Dwarves")):
        registered(player(name), event_id, "private", faction=faction)
    response = browser(organiser).get(f"/events/{event_id}/sheets.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    at = [text.index(name) for name in ("adam", "mia", "zoe")]
    assert at == sorted(at)
    assert text.count("Friday night") >= 3
    assert "Dwarves rush" in text and "Elves rush" in text


def test_one_players_sheet_prints_their_locked_version(organiser, event_id, tmp_path):
    alice = player("alice")
    deck = registered(alice, event_id)
    client_for(alice).patch(f"/api/v1/decks/{deck['id']}/", {"name": "Changed"}, format="json")
    response = browser(organiser).get(f"/events/{event_id}/sheets/alice.pdf")
    pdf = tmp_path / "alice.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Dwarves rush" in text and "Changed" not in text


def test_publishing_needs_the_confirmation_and_then_shows_standings_with_lists(organiser, event_id):
    registered(player("alice"), event_id, "public")
    registered(player("bob"), event_id, "private", faction="Elves")
    olga = browser(organiser)
    saved = olga.post(
        f"/events/{event_id}/standings/", {"player": ["alice", "bob"], "rank": ["2", "1"]}
    )
    assert saved.status_code == 302
    assert olga.post(f"/events/{event_id}/publish/").status_code == 400
    assert not Event.objects.get(key=event_id).published
    assert olga.post(f"/events/{event_id}/publish/", {"confirm": "yes"}).status_code == 302
    page = browser().get(f"/events/{event_id}/").content.decode()
    assert page.index("bob") < page.index("alice")
    assert "Dwarves rush" in page and "Elves rush" not in page
    assert "shown to the organiser only" in page


def test_a_bad_rank_on_the_standings_form_is_refused_naming_the_limit(organiser, event_id):
    registered(player("alice"), event_id)
    response = browser(organiser).post(
        f"/events/{event_id}/standings/", {"player": ["alice"], "rank": ["²"]}
    )
    assert response.status_code == 400
    assert "whole number" in response.content.decode()


def test_event_pages_name_the_format_not_its_slug(organiser, event_id):
    event = Event.objects.get(key=event_id)
    name = event.game.engine.format(event.format).name
    assert name != event.format
    for url in ("/events/", f"/events/{event_id}/"):
        page = browser().get(url).content.decode()
        assert name in page and f", {event.format} " not in page
    organise = browser(organiser).get(f"/events/{event_id}/organise/").content.decode()
    assert f"{event.game.name}, {name} ·" in organise
