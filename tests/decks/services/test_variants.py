"""A variant remembers where it came from (its parent and the version it branched at) and
whose it is."""

import pytest
from django.contrib.auth.models import User

from decks.services import (
    deck_branch,
    deck_fork,
    deck_update,
)
from decks.services.history import deck_state
from tests.decks.services.test_history import last, main_cards, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("keeper", password="x-Long-pass-9")


@pytest.fixture
def other():
    return User.objects.create_user("visitor", password="x-Long-pass-9")


def test_a_variant_remembers_its_parent_and_the_version_it_branched_from(owner):
    deck = make_deck(owner, main_cards(2))
    deck_update(deck=deck, expected_version=1, changes={"name": "Parent, tuned"})

    variant = deck_branch(deck=deck, owner=owner, name="Against aggro")

    assert (variant.forked_from, variant.parent_version) == (deck, 2)
    assert deck_state(variant).cards == deck_state(deck).cards
    assert variant.name == "Against aggro" and variant.version == 1


@pytest.mark.parametrize("visibility", ["public", "unlisted", "private"])
def test_a_variant_of_ones_own_deck_keeps_its_visibility(owner, visibility):
    deck = make_deck(owner, main_cards(2), visibility=visibility)

    assert deck_branch(deck=deck, owner=owner).visibility == visibility


@pytest.mark.parametrize("visibility", ["public", "unlisted"])
def test_a_copy_of_someone_elses_deck_is_private(owner, other, visibility):
    deck = make_deck(owner, main_cards(2), visibility=visibility)

    copy = deck_fork(deck=deck, owner=other)

    assert (copy.owner, copy.visibility, copy.forked_from, copy.parent_version) == (
        other,
        "private",
        deck,
        1,
    )
    assert last(copy).author == other


# Storage
