"""50 people saving the same version of one deck at once: one wins, nothing is lost.

Runs on PostgreSQL (CI runs the suite there too): SQLite serialises writers by locking the
whole file, so there is no race to test.
"""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import Client
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.api.records import deck_etag
from decks.models import Deck, DeckVersion
from decks.services import (
    DeckConflict,
    Intake,
    RequestedCard,
    deck_create,
    deck_set_quantity,
    deck_update,
    intake_deck,
)
from decks.services.history import deck_state, state_at

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL"
)
EDITORS = 50


@pytest.fixture
def shared_deck(django_db_setup, django_db_blocker):
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


def test_fifty_patches_through_the_api_from_one_version_record_exactly_the_winners_version(
    shared_deck, django_db_blocker
):
    """Each PATCH adds a different card to the list it read, half of them sending If-Match
    and half the version in the body: one is answered 200, every other one 412 or 409, and
    the deck's history holds the winner's change alone."""
    deck, others = shared_deck
    start = threading.Barrier(EDITORS)
    outcomes: dict[str, tuple[bool, int | str]] = {}
    lock = threading.Lock()

    def patch(i: int, card: Card, base: list[dict], etag: str) -> None:
        by_header = i % 2 == 0
        try:
            client = APIClient()
            client.force_authenticate(user=deck.owner)
            body: dict = {"cards": [*base, {"id": card.short_id, "quantity": 1}]}
            headers = {"HTTP_IF_MATCH": etag} if by_header else {}
            if not by_header:
                body["version"] = 1
            start.wait()
            response = client.patch(
                f"/api/v1/decks/{deck.share_key}/", body, format="json", **headers
            )
            outcome: int | str = response.status_code
        except Exception as exc:  # a failure of any other kind must fail the test
            outcome = f"error: {exc!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes[card.short_id] = (by_header, outcome)

    with django_db_blocker.unblock():
        base = [{"id": c.short_id, "quantity": c.quantity} for c in intake_deck(deck).cards]
        etag = deck_etag(deck)
        threads = [
            threading.Thread(target=patch, args=(i, card, base, etag))
            for i, card in enumerate(others)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert len(outcomes) == EDITORS
        winners = [s for s, (_, status) in outcomes.items() if status == 200]
        assert len(winners) == 1, outcomes
        for short_id, (by_header, status) in outcomes.items():
            if short_id not in winners:
                assert status == (412 if by_header else 409), (short_id, status)
        final = Deck.objects.get(pk=deck.pk)
        versions = list(
            DeckVersion.objects.filter(deck=deck)
            .order_by("number")
            .values_list("number", "author_id", "changes", "setting_changes")
        )
        assert final.version == 2 and [v[0] for v in versions] == [1, 2]
        zone = next(c.card_type.zone for c in others if c.short_id == winners[0])
        assert versions[1][1:] == (deck.owner_id, [[winners[0], zone, 0, 1]], {})
        assert state_at(final, 2) == deck_state(final)


def test_fifty_builder_plus_ones_sent_with_no_version_record_one_step_per_card_added(
    shared_deck, django_db_blocker
):
    """The builder's +1 sent with no version saves over whatever the deck is at when the
    request reads it, so several may land, each clicking twice if refused: every one that
    lands records one step of one line, folded into one version, and those steps replay to
    the deck as it ends."""
    deck, others = shared_deck
    start = threading.Barrier(EDITORS)
    outcomes: dict[str, list[str]] = {}
    lock = threading.Lock()
    url = f"/decks/{deck.share_key}/edit/card/"

    def plus_one(client: Client, card: Card) -> None:
        mine: list[str] = []
        try:
            start.wait()
            for _ in range(2):
                response = client.post(
                    url, {"card": card.short_id, "action": "add"}, HTTP_HX_REQUEST="true"
                )
                if response.status_code != 200:
                    mine.append(f"HTTP {response.status_code}")
                elif "changed elsewhere" in response.content.decode():
                    mine.append("conflict")
                else:
                    mine.append("saved")
                    break
        except Exception as exc:  # a failure of any other kind must fail the test
            mine.append(f"error: {exc!r}")
        finally:
            connections.close_all()
        with lock:
            outcomes[card.short_id] = mine

    with django_db_blocker.unblock():
        before = deck_state(deck)
        clients = []
        for _ in others:
            client = Client()
            client.force_login(deck.owner)
            clients.append(client)
        threads = [
            threading.Thread(target=plus_one, args=(client, card))
            for client, card in zip(clients, others, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        for client in clients:
            client.logout()
        assert len(outcomes) == EDITORS
        assert {o for mine in outcomes.values() for o in mine} <= {"saved", "conflict"}, outcomes
        saved = sorted(s for s, mine in outcomes.items() if "saved" in mine)
        assert saved, outcomes
        final = Deck.objects.get(pk=deck.pk)
        versions = list(
            DeckVersion.objects.filter(deck=deck)
            .order_by("number")
            .values_list("number", "changes", "steps")
        )
        # One owner's builder edits in a row fold into one version (numbered as the deck is
        # now), which keeps every winner's step: each bumped the deck's version, so the
        # losers were refused as before.
        assert final.version == len(saved) + 1
        assert [n for n, _, _ in versions] == [1, final.version]
        steps = versions[1][2]
        assert sorted(changes[0][0] for _, changes in steps) == saved
        assert all(len(changes) == 1 and changes[0][2:] == [0, 1] for _, changes in steps)
        # Replayed step by step from the deck as it was, they give the deck as it ends.
        expected = dict(before.cards)
        for _, [[short_id, zone, _, after]] in steps:
            expected[(short_id, zone)] = after
        assert state_at(final, final.version).cards == expected
        assert deck_state(final).cards == expected
