"""Two proposals to one card approved at the same moment, through the API: both are judged,
one after the other, against the card as the first left it; nothing is lost or overwritten."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, CardChange, Game
from cardsite.contributions.models import Curator, Proposal
from cardsite.contributions.services.proposals import SourceInput, proposal_create
from tests.collection.racing import committed, race, race_test
from tests.contributions.conftest import GAME

pytestmark = race_test


def _old_user(name: str) -> User:
    user = User.objects.create_user(name, password="x-Long-pass-9")
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - dt.timedelta(hours=2))
    user.refresh_from_db()
    return user


@pytest.fixture
def scene():
    """Committed: a curator, two proposers and the card they propose changes to."""
    card = Card.objects.filter(game__slug=GAME, card_set__code="CFC-RB").order_by("number_sort")[0]
    # Every column, not only those the races change: an approval also rewrites the slug, the
    # search columns and the content hash, which later tests read.
    saved = {
        f.attname: getattr(card, f.attname) for f in Card._meta.concrete_fields if not f.primary_key
    }

    def make() -> tuple[User, User, User]:
        curator = _old_user("race-curator")
        Curator.objects.create(user=curator, game=Game.objects.get(slug=GAME))
        return curator, _old_user("race-first"), _old_user("race-second")

    people = committed(make)
    yield card, people
    committed(lambda: User.objects.filter(pk__in=[p.pk for p in people]).delete())
    committed(lambda: CardChange.objects.filter(card=card, proposal__isnull=False).delete())
    committed(lambda: Card.objects.filter(pk=card.pk).update(**saved))


def _propose(proposer: User, card: Card, changes: dict[str, str]) -> Proposal:
    return committed(
        lambda: proposal_create(
            proposer=proposer,
            game=card.game,
            kind="edit",
            card=card,
            changes=changes,
            source=SourceInput(kind="rulebook", text="p. 3"),
        )
    )


def _approve(curator: User, proposal: Proposal) -> tuple[int, str]:
    api = APIClient()
    api.force_authenticate(curator)
    answer = api.post(f"/api/v1/proposals/{proposal.pk}/approve/", {}, format="json")
    return answer.status_code, answer.json().get("code", "")


def test_two_approvals_of_one_field_at_once_leave_the_second_judged_stale_against_the_first(
    scene,
):
    card, (curator, first, second) = scene
    a = _propose(first, card, {"name": "Raced Name A"})
    b = _propose(second, card, {"name": "Raced Name B"})
    outcomes = race(lambda: _approve(curator, a), lambda: _approve(curator, b))
    assert sorted(status for status, _ in outcomes) == [200, 409], outcomes
    assert [code for status, code in outcomes if status == 409] == ["stale"]
    winner = next(p for p, (status, _) in zip((a, b), outcomes, strict=True) if status == 200)
    card.refresh_from_db()
    assert card.name == winner.changes["name"]
    assert CardChange.objects.filter(card=card, field="name", proposal=winner.pk).count() == 1


def test_two_approvals_of_different_fields_at_once_are_both_recorded(scene):
    card, (curator, first, second) = scene
    a = _propose(first, card, {"name": "Raced Name C"})
    b = _propose(second, card, {"artist": "Raced Artist"})
    outcomes = race(lambda: _approve(curator, a), lambda: _approve(curator, b))
    assert [status for status, _ in outcomes] == [200, 200], outcomes
    card.refresh_from_db()
    assert (card.name, card.artist) == ("Raced Name C", "Raced Artist")
    recorded = CardChange.objects.filter(card=card, proposal__in=[a.pk, b.pk])
    assert sorted(recorded.values_list("field", flat=True)) == ["artist", "name"]


def test_ten_proposals_at_once_from_a_player_with_45_open_let_exactly_five_through(scene):
    card, (_, first, _) = scene
    for n in range(45):
        _propose(first, card, {"flavour": f"Held open {n}."})

    def propose(n: int) -> int:
        api = APIClient()
        api.force_authenticate(first)
        body = {
            "game": GAME,
            "card": card.short_id,
            "changes": {"flavour": f"At once {n}."},
            "source": {"kind": "rulebook", "text": "p. 3"},
        }
        return api.post("/api/v1/proposals/", body, format="json").status_code

    outcomes = race(*[lambda n=n: propose(n) for n in range(10)])
    assert sorted(outcomes) == [201] * 5 + [429] * 5, outcomes
    assert Proposal.objects.filter(proposer=first, status="open").count() == 50
