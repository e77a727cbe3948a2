"""Shares made at the same moment count against the 50-reader limit exactly once each."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.collection.models import CollectionShare
from cardsite.collection.services.sharing import MAX_SHARES
from tests.collection.racing import committed, race, race_test

pytestmark = race_test


@pytest.fixture
def owner_at_the_limit_but_one() -> Iterator[tuple[User, list[User]]]:
    """An owner sharing with MAX_SHARES - 1 readers, and two more users."""

    def make() -> tuple[User, list[User]]:
        owner = User.objects.create_user("owner", password="x-Long-pass-9")
        User.objects.bulk_create([User(username=f"reader{n}") for n in range(MAX_SHARES + 1)])
        readers = list(User.objects.filter(username__startswith="reader").order_by("pk"))
        CollectionShare.objects.bulk_create(
            [CollectionShare(owner=owner, reader=r) for r in readers[: MAX_SHARES - 1]]
        )
        return owner, readers[MAX_SHARES - 1 :]

    owner, more = committed(make)
    yield owner, more
    committed(
        lambda: (
            User.objects.filter(username__startswith="reader").delete()
            + User.objects.filter(pk=owner.pk).delete()
        )
    )


def share(owner: User, username: str) -> Any:
    def send() -> tuple[int, list[str]]:
        api = APIClient()
        api.force_authenticate(user=owner)
        response = api.post("/api/v1/collection/shares/", {"username": username}, format="json")
        return response.status_code, sorted(response.json().get("errors", {}))

    return send


@pytest.mark.parametrize("attempt", range(3))
def test_sharing_with_the_same_reader_at_once_at_the_limit_but_one_is_201_every_time(
    owner_at_the_limit_but_one, attempt
):
    """The share the first request makes is the one the others find, not one too many."""
    owner, (reader, _) = owner_at_the_limit_but_one
    outcomes = race(*[share(owner, reader.username)] * 4)
    assert outcomes == [(201, [])] * 4
    assert CollectionShare.objects.filter(owner=owner).count() == MAX_SHARES


@pytest.mark.parametrize("attempt", range(3))
def test_sharing_with_two_readers_at_once_at_the_limit_but_one_lets_exactly_one_in(
    owner_at_the_limit_but_one, attempt
):
    owner, (one, other) = owner_at_the_limit_but_one
    outcomes = race(share(owner, one.username), share(owner, other.username))
    assert sorted(outcomes) == [(201, []), (400, ["username"])]
    assert CollectionShare.objects.filter(owner=owner).count() == MAX_SHARES
