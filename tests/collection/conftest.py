import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card

GAME = "conquest-for-the-capital"


@pytest.fixture
def alice(db):
    return User.objects.create_user("alice", password="wonderland-42")


@pytest.fixture
def bob(db):
    return User.objects.create_user("bob", password="builder-42")


@pytest.fixture
def cards(db):
    """The first few printings of one game's sample set, in collector order."""
    return list(Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort")[:6])
