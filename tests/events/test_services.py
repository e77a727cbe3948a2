"""The events' services read and written directly: a registration locks a version that the
builder's folding edits cannot reach, and the deck check compares against that version."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from cardsite.events.services import (
    deck_check,
    event_create,
    registration_submit,
)
from decks.models import DeckVersion
from decks.services import Intake, RequestedCard, deck_create, deck_set_quantity
from decks.services.history import state_at
from tests.events.support import player

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():
    game = Game.objects.get(slug="conquest-for-the-capital")
    organiser, alice = player("olga"), player("alice")
    now = timezone.now()
    event = event_create(
        organiser=organiser,
        game=game,
        format_slug="faction-deck",
        name="Locked",
        starts_at=now + timedelta(days=2),
        deadline=now + timedelta(days=1),
    )
    cards = list(
        Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves").order_by(
            "number_sort"
        )
    )
    deck = deck_create(
        owner=alice,
        game=game,
        format_slug="faction-deck",
        name="Anvil",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    return event, organiser, alice, deck, cards


def test_a_builder_edit_after_registering_makes_a_new_version_not_a_fold_into_the_locked_one(
    setting,
):
    event, _, alice, deck, _ = setting
    # A builder edit (here, a planned card) leaves its version open, to fold the next edits
    # within minutes into it.
    others = Card.objects.filter(card_set__code="CFC-SMP").exclude(factions__name="Dwarves")
    planned = list(others.order_by("number_sort")[:2])
    deck = deck_set_quantity(
        deck=deck,
        expected_version=None,
        card=planned[0].short_id,
        zone="maybe",
        quantity=1,
        author=alice,
    )
    assert DeckVersion.objects.get(deck=deck, number=deck.version).open
    registration = registration_submit(event=event, player=alice, deck=deck)
    locked = state_at(deck, registration.version).cards
    deck = deck_set_quantity(
        deck=deck,
        expected_version=None,
        card=planned[1].short_id,
        zone="maybe",
        quantity=1,
        author=alice,
    )
    assert deck.version == registration.version + 1
    assert state_at(deck, registration.version).cards == locked


def test_a_deck_check_against_the_locked_version_ignores_later_edits(setting):
    event, organiser, alice, deck, cards = setting
    registration_submit(event=event, player=alice, deck=deck)
    deck_set_quantity(deck=deck, expected_version=None, card=cards[0].short_id, quantity=0)
    registered = "\n".join(f"1 {c.name}" for c in cards)
    checked = deck_check(event=event, organiser=organiser, player="alice", text=registered)
    assert checked.diff.empty
    short = deck_check(
        event=event, organiser=organiser, player="alice", text="\n".join(registered.split("\n")[1:])
    )
    assert [line.name for line in short.diff.removed] == [cards[0].name]
