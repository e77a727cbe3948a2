import pytest

from tests.events.support import new_event, player


@pytest.fixture
def organiser():
    return player("olga")


@pytest.fixture
def event_id(organiser):
    return new_event(organiser)
