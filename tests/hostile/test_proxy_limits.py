"""Proxy sheets of more than MAX_SHEET_CARDS cards are refused with a 400 naming the limit,
from the API, the deck's page and the command line, before anything is drawn or queued."""

import io

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.models import Job
from decks.proxies import MAX_SHEET_CARDS, check_sheet_size
from decks.services import Intake, RequestedCard, deck_create
from engines.errors import InputError
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db


def readme_limits() -> str:
    """The Limits table (docs/pages/operations.md), where each limit is stated for people."""
    text = docs_text()
    start = text.index("### Limits")
    return text[start : text.index("\n### ", start + 1)]


LIMIT = f"a proxy sheet may hold at most {MAX_SHEET_CARDS} cards"


@pytest.fixture
def humans():
    """Seven Orion cards: at 99 copies each (the most one line may ask for), 693 in all."""
    return list(
        Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
            "number_sort"
        )[:7]
    )


@pytest.fixture
def big_deck(humans):
    owner = User.objects.create_user("printer", password="x-Long-pass-9")
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Too big to print",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in humans)),
    )
    deck.entries.update(quantity=99)
    return deck


def nothing_made(settings) -> bool:
    jobs = settings.MEDIA_ROOT / "jobs"
    return not Job.objects.exists() and not (jobs.exists() and any(jobs.iterdir()))


def posted(humans, copies: int) -> dict:
    return {
        "game": "conquest-of-orion",
        "format": "constructed",
        "cards": [{"id": c.short_id, "quantity": copies} for c in humans],
    }


def test_a_posted_list_of_more_cards_than_a_sheet_holds_is_a_400_naming_the_limit(humans, settings):
    response = APIClient().post("/api/v1/proxies.pdf", posted(humans, 99), format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["cards"] == [f"{LIMIT}; this one has 693"]
    assert nothing_made(settings)


def test_a_sheet_of_exactly_the_limit_is_allowed_and_one_more_card_is_not():
    # The boundary on its own: drawing 600 cards to show it would cost seconds.
    check_sheet_size(MAX_SHEET_CARDS)
    with pytest.raises(InputError) as refusal:
        check_sheet_size(MAX_SHEET_CARDS + 1)
    assert (refusal.value.field, refusal.value.message) == ("cards", f"{LIMIT}; this one has 601")


def test_asking_for_a_background_job_does_not_get_round_the_limit(humans, settings):
    response = APIClient().post(
        "/api/v1/proxies.pdf", posted(humans, 99), format="json", HTTP_PREFER="respond-async"
    )
    assert response.status_code == 400
    assert LIMIT in response.json()["errors"]["cards"][0]
    assert nothing_made(settings)


def test_a_deck_too_large_to_print_is_a_400_from_the_api_and_from_its_page(
    big_deck, client, settings
):
    api = APIClient().get(f"/api/v1/decks/{big_deck.share_key}/proxies.pdf")
    assert api.status_code == 400
    assert api.json()["errors"]["cards"] == [f"{LIMIT}; this one has 693"]

    page = client.get(f"/decks/{big_deck.share_key}/proxies.pdf")
    assert page.status_code == 400
    assert LIMIT in page.content.decode()
    assert nothing_made(settings)


def test_the_proxies_command_refuses_a_deck_too_large_and_writes_no_file(big_deck, tmp_path):
    output = tmp_path / "out.pdf"
    with pytest.raises(CommandError, match=f"at most {MAX_SHEET_CARDS} cards"):
        call_command(
            "proxies", "--deck", big_deck.share_key, "-o", str(output), stdout=io.StringIO()
        )
    assert not output.exists()


def test_the_proxies_command_refuses_a_list_too_large_and_writes_no_file(humans, tmp_path):
    decklist = tmp_path / "list.txt"
    decklist.write_text("".join(f"99 {c.name}\n" for c in humans), encoding="utf-8")
    output = tmp_path / "out.pdf"
    with pytest.raises(CommandError, match=f"at most {MAX_SHEET_CARDS} cards"):
        call_command(
            "proxies",
            "--list",
            str(decklist),
            "--game",
            "conquest-of-orion",
            "-o",
            str(output),
            stdout=io.StringIO(),
        )
    assert not output.exists()


def test_the_api_schema_states_the_sheet_limit(api):
    schema = yaml.safe_load(api.get("/api/v1/schema/").content)
    for path, method in (
        ("/api/v1/proxies.pdf", "post"),
        ("/api/v1/decks/{id}/proxies.pdf", "get"),
    ):
        assert (
            f"At most {MAX_SHEET_CARDS} cards a sheet"
            in schema["paths"][path][method]["description"]
        )


def test_the_readme_states_the_sheet_limit():
    assert f"**{MAX_SHEET_CARDS} cards**" in readme_limits()
