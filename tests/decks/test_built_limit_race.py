"""Builds at the same moment at one short of MAX_BUILT_DECKS: exactly one gets the last place.

Runs on PostgreSQL (CI runs the suite there too): SQLite serialises writers by locking the
whole file, so there is no race to test.
"""

from functools import partial

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from cardsite.catalogue.models import Game
from decks.models import Deck
from decks.services.building import MAX_BUILT_DECKS, deck_build
from engines.errors import InputError
from tests.collection.racing import race

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL"
)
BUILDERS = 8


@pytest.fixture
def nearly_full(django_db_setup, django_db_blocker):
    # Committed, so every thread's own connection sees it; removed afterwards.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("racer", password="x-Long-pass-9")
        game = Game.objects.get(slug="conquest-of-orion")
        Deck.objects.bulk_create(
            Deck(
                owner=owner,
                game=game,
                format="constructed",
                name=f"Built {i}",
                built_at=timezone.now(),
            )
            for i in range(MAX_BUILT_DECKS - 1)
        )
        Deck.objects.bulk_create(
            Deck(owner=owner, game=game, format="constructed", name=f"Racing {i}")
            for i in range(BUILDERS)
        )
        racing = list(Deck.objects.filter(owner=owner, name__startswith="Racing"))
    yield owner, racing
    with django_db_blocker.unblock():
        User.objects.filter(pk=owner.pk).delete()


def test_parallel_builds_at_one_short_of_the_limit_end_at_exactly_the_limit(
    nearly_full, django_db_blocker
):
    owner, racing = nearly_full

    def build(deck: Deck) -> str:
        try:
            deck_build(deck=deck, user=owner)
        except InputError:
            return "refused"
        return "built"

    with django_db_blocker.unblock():
        outcomes = race(*[partial(build, deck) for deck in racing])
        built = Deck.objects.filter(owner=owner, built_at__isnull=False).count()
    assert sorted(outcomes) == ["built"] + ["refused"] * (len(racing) - 1), outcomes
    assert built == MAX_BUILT_DECKS
