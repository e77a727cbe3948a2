"""An event run in a real browser from registration to published standings: an organiser
creates it, three players register their decks, the organiser downloads every sheet as one
PDF (read back with pdftotext), checks a deck, enters the standings and publishes; a visitor
then reads the standings with the lists."""

import re
import subprocess
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-events-pass-7"
PLAYERS = (("event-ann", "Dwarves"), ("event-ben", "Elves"), ("event-cat", "Dwarves"))


@pytest.fixture
def people(django_db_blocker):
    # Committed, so the live server's thread sees them; removed afterwards with what they made.
    with django_db_blocker.unblock():
        game = Game.objects.get(slug="conquest-for-the-capital")
        organiser = User.objects.create_user("event-olga", password=PASSWORD)
        players = []
        for name, faction in PLAYERS:
            user = User.objects.create_user(name, password=PASSWORD)
            cards = Card.objects.filter(card_set__code="CFC-SMP", factions__name=faction)
            deck_create(
                owner=user,
                game=game,
                format_slug="faction-deck",
                name=f"{name} {faction}",
                visibility="private" if name == "event-cat" else "public",
                intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
            )
            players.append(user)
    yield organiser, players
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk__in=[organiser.pk, *(p.pk for p in players)]))


def test_an_event_runs_from_registration_to_published_standings(
    server, browser, page, shoot, people, tmp_path
):
    sign_in(page, server, "event-olga", PASSWORD)
    page.get_by_role("link", name="Events").first.click()
    page.locator('[data-action="event-new"]').click()
    now = timezone.now()
    page.get_by_label("Name").fill("Browser open")
    page.get_by_label("Game and format").select_option(
        label=page.locator("#event-format option", has_text="Faction deck").first.inner_text()
    )
    page.get_by_label("Starts at (UTC)").fill((now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("Decklist deadline (UTC)").fill(
        (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    )
    page.locator('[data-action="event-create"]').click()
    expect(page.get_by_role("heading", name="Organise Browser open")).to_be_visible()
    event_url = page.locator("main a", has_text="/events/").first.get_attribute("href")
    assert event_url and event_url.startswith("/events/")

    for name, _ in PLAYERS:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        player = context.new_page()
        sign_in(player, server, name, PASSWORD)
        player.goto(server + event_url)
        player.locator('[data-action="event-register"]').click()
        expect(player.get_by_text("locked at version 1")).to_be_visible()
        # Before publishing, no one else's list is on the page.
        assert "Decklists" not in player.content()
        context.close()

    page.goto(server + event_url + "organise/")
    rows = page.locator('[data-section="registrations"] tbody tr')
    expect(rows).to_have_count(3)
    expect(page.locator('[data-section="registrations"] .ok')).to_have_count(3)
    shoot("organiser")

    with page.expect_download() as download:
        page.locator('[data-action="event-sheets"]').click()
    pdf = tmp_path / "sheets.pdf"
    download.value.save_as(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    at = [text.index(f"{name} {faction}") for name, faction in PLAYERS]
    assert at == sorted(at) and text.count("Browser open") >= 3

    # A deck check: ann presents her list without its first card.
    first = page.locator("main details").first
    first.locator("summary").click()
    lines = [
        f"{li.locator('.qty').inner_text()} {li.locator('a').inner_text()}"
        for li in first.locator("li").all()
    ]
    page.get_by_label("Player", exact=True).select_option("event-ann")
    page.get_by_label("The list the player presents").fill("\n".join(lines[1:]))
    page.locator('[data-action="event-deck-check"]').click()
    result = page.locator('[data-section="deck-check-result"]')
    expect(result).to_contain_text(f"Missing: {lines[0]}")

    for name, rank in (("event-ann", "2"), ("event-ben", "3"), ("event-cat", "1")):
        page.locator(f'input[data-player="{name}"]').fill(rank)
    page.locator('[data-action="event-standings"]').click()
    page.get_by_label("Publish the standings and every list").check()
    page.locator('[data-action="event-publish"]').click()
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()

    visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    visitor.goto(server + event_url)
    standings = visitor.locator('[data-section="standings"] tbody tr')
    expect(standings).to_have_count(3)
    expect(standings.nth(0)).to_contain_text("event-cat")
    expect(standings.nth(1)).to_contain_text("event-ann")
    # Cat's deck is private: its list stays the organiser's.
    expect(visitor.get_by_text("shown to the organiser only")).to_be_visible()
    expect(visitor.get_by_role("heading", name="2. event-ann: event-ann Dwarves")).to_be_visible()
    version = visitor.get_by_role("link", name="Version 1 of the deck").first
    expect(version).to_be_visible()
    # To that version on the deck's history page, a page for people (not the API's JSON).
    expect(version).to_have_attribute(
        "href", re.compile(r"/decks/[^/]+/history/\?page=\d+#version-1$")
    )
    visitor.context.close()
