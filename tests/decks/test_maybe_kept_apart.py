"""Planned cards stay apart: validation, exports and proxies never see them."""

import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from decks.exports import deck_export
from decks.printing import deck_order, order_cards
from decks.proxies import SheetOptions
from decks.services import (
    Intake,
    check,
    deck_create,
    deck_update,
    intake_deck,
    resolve,
)
from tests.decks.test_maybe_pages import human, in_deck, legal_limited_deck

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"
TACTICS = "conquest-alpha-tactics"


@pytest.fixture
def owner():
    return User.objects.create_user("planner", password="x-Long-pass-9")


@pytest.fixture
def builder(client, owner):
    client.force_login(owner)
    return client


# --- nothing that checks, counts, exports or prints sees the plan --------------------------


def test_validation_reads_only_the_decks_entries_so_a_plan_never_changes_a_verdict(owner):
    deck = legal_limited_deck(owner)
    card = human()
    before = check(resolve(game=ORION, intake=intake_deck(deck)), "limited")
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 40})
    deck.refresh_from_db()
    assert card.short_id not in {c.short_id for c in intake_deck(deck).cards}
    after = check(resolve(game=ORION, intake=intake_deck(deck)), "limited")
    assert after.legal and before.legal
    assert after.counts == before.counts and after.problems == before.problems
    body = APIClient().get(f"/api/v1/decks/{deck.share_key}/")
    assert body.status_code == 404  # private: the API is the owner's alone too


def test_exports_leave_planned_cards_out(client, owner):
    deck = legal_limited_deck(owner, "public")
    card = human()
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 3})
    deck.refresh_from_db()
    text = deck_export(deck, "text")["text"]
    listed = deck_export(deck, "json")["cards"]
    assert card.name not in text and card.short_id not in {c["id"] for c in listed}
    assert sum(c["quantity"] for c in listed) == 30
    assert card.name not in client.get(f"/decks/{deck.share_key}/export.txt").content.decode()
    downloaded = json.loads(client.get(f"/decks/{deck.share_key}/export.json").content)
    assert card.short_id not in {c["id"] for c in downloaded["cards"]}
    api = APIClient().get(f"/api/v1/decks/{deck.share_key}/export/", {"as": "text"}).json()
    assert card.name not in api["text"]
    code = deck_export(deck, "code")["code"]
    other = deck_create(
        owner=owner, game=deck.game, format_slug="limited", name="From code", intake=Intake()
    )
    builder = client
    builder.force_login(owner)
    builder.post(f"/decks/{other.share_key}/edit/import/", {"decklist": code, "version": 1})
    assert sum(in_deck(other).values()) == 30 and card.short_id not in {
        s for s, _ in in_deck(other)
    }


def test_proxies_print_the_deck_without_its_planned_cards(client, owner):
    deck = legal_limited_deck(owner, "public")
    card = human()
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 3})
    deck.refresh_from_db()
    order = deck_order(deck, SheetOptions())
    assert order_cards(order) == 30 and card.pk not in {pk for pk, _ in order["entries"]}
