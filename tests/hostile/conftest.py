import pytest
from django.contrib.auth.models import User

from decks.models import Deck


@pytest.fixture
def player(db):
    return User.objects.create_user("hostile", password="x-Long-pass-9")


@pytest.fixture
def signed_in(api, player):
    api.force_authenticate(player)
    return api


@pytest.fixture
def nothing_stored():
    """Asserts, after the test, that no deck was written."""
    before = Deck.objects.count()
    yield
    assert Deck.objects.count() == before
