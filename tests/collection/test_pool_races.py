"""Pool requests at the same moment: each race ends in answers that agree with what is stored.

Every write to a pool's members locks the pool's row first (cardsite/collection/services/
pools.py), so the last member leaving and an invitation, an acceptance or a refusal arriving
at once come out as if one ran after the other: one 200, the other a 200 or a clean 400/404,
and never a pool left with invitations but no member, nor an acceptance answered 200 for a
pool that is gone.
"""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.collection.models import Pool, PoolMember
from cardsite.collection.services.pools import pool_create, pool_invite
from tests.collection.racing import committed, race, race_test

pytestmark = race_test
ATTEMPTS = 4


@pytest.fixture
def people() -> Iterator[Any]:
    made: list[User] = []

    def make(*names: str) -> list[User]:
        users = committed(
            lambda: [User.objects.create_user(n, password="x-Long-pass-9") for n in names]
        )
        made.extend(users)
        return users

    yield make

    def clean() -> None:
        Pool.objects.filter(Q(created_by__in=made) | Q(members__user__in=made)).delete()
        User.objects.filter(pk__in=[u.pk for u in made]).delete()

    committed(clean)


def post(user: User, path: str, body: dict[str, Any] | None = None) -> Any:
    def send() -> tuple[int, list[str]]:
        api = APIClient()
        api.force_authenticate(user=user)
        response = api.post(f"/api/v1/collection/pool/{path}/", body or {}, format="json")
        errors = response.json().get("errors", {}) if response.status_code >= 400 else {}
        return response.status_code, sorted(errors)

    return send


def a_pool(owner: User, *invited: User) -> Pool:
    def make() -> Pool:
        pool = pool_create(user=owner, name="Club")
        for user in invited:
            pool_invite(pool=pool, by=owner, username=user.username)
        return pool

    return committed(make)


def no_memberless_pool() -> bool:
    return not Pool.objects.exclude(members__accepted_at__isnull=False).exists()


@pytest.mark.parametrize("attempt", range(ATTEMPTS))
def test_an_invitation_racing_the_last_members_leave_is_made_or_refused_naming_the_pool(
    people, attempt
):
    ann, bob = people(f"ann{attempt}", f"bob{attempt}")
    a_pool(ann)
    invited, left = race(post(ann, "invite", {"username": bob.username}), post(ann, "leave"))
    assert left == (200, [])
    assert invited in ((200, []), (400, ["pool"])), invited
    # The pool went with its last member, and so did any invitation it made.
    assert not Pool.objects.filter(created_by=ann).exists()
    assert not PoolMember.objects.filter(user__in=[ann, bob]).exists()


@pytest.mark.parametrize("attempt", range(ATTEMPTS))
def test_an_invitation_by_a_member_who_leaves_at_that_moment_is_made_before_or_refused(
    people, attempt
):
    ann, carl, bob = people(f"ann{attempt}", f"carl{attempt}", f"bob{attempt}")
    pool = a_pool(ann, carl)
    committed(lambda: PoolMember.objects.filter(user=carl).update(accepted_at=timezone.now()))
    invited, left = race(post(ann, "invite", {"username": bob.username}), post(ann, "leave"))
    assert left == (200, [])
    assert invited in ((200, []), (400, ["pool"])), invited
    made = PoolMember.objects.filter(pool=pool, user=bob)
    # An invitation stands only if ann was still a member when she made it.
    assert made.exists() == (invited == (200, []))
    assert list(made.values_list("invited_by", flat=True)) in ([], [ann.pk])


@pytest.mark.parametrize("attempt", range(ATTEMPTS))
def test_accepting_as_the_last_member_leaves_either_joins_a_pool_that_stays_or_is_refused(
    people, attempt
):
    ann, bob = people(f"ann{attempt}", f"bob{attempt}")
    pool = a_pool(ann, bob)
    accepted, left = race(post(bob, "accept", {"pool": pool.pk}), post(ann, "leave"))
    assert left == (200, [])
    assert accepted in ((200, []), (400, ["pool"]), (404, [])), accepted
    joined = PoolMember.objects.filter(pool=pool, user=bob, accepted_at__isnull=False)
    # A 200 means bob is in the pool now; anything else, that the pool is gone.
    assert joined.exists() == (accepted == (200, []))
    assert Pool.objects.filter(pk=pool.pk).exists() == (accepted == (200, []))
    assert no_memberless_pool()


@pytest.mark.parametrize("attempt", range(ATTEMPTS))
def test_declining_as_the_last_member_leaves_ends_with_no_pool(people, attempt):
    ann, bob = people(f"ann{attempt}", f"bob{attempt}")
    pool = a_pool(ann, bob)
    declined, left = race(post(bob, "decline", {"pool": pool.pk}), post(ann, "leave"))
    assert left == (200, [])
    assert declined in ((200, []), (400, ["pool"]), (404, [])), declined
    assert not Pool.objects.filter(pk=pool.pk).exists()
    assert not PoolMember.objects.filter(user__in=[ann, bob]).exists()


@pytest.mark.parametrize("attempt", range(ATTEMPTS))
def test_accepting_and_declining_one_invitation_at_once_does_one_of_them(people, attempt):
    ann, bob = people(f"ann{attempt}", f"bob{attempt}")
    pool = a_pool(ann, bob)
    accepted, declined = race(
        post(bob, "accept", {"pool": pool.pk}), post(bob, "decline", {"pool": pool.pk})
    )
    member = PoolMember.objects.filter(pool=pool, user=bob).first()
    if accepted == (200, []):
        assert declined in ((400, ["pool"]), (200, [])), declined
        # Declined after the acceptance, a 200 would have to have removed nothing.
        assert member is not None and member.accepted_at is not None
    else:
        assert accepted in ((400, ["pool"]), (404, [])), accepted
        assert declined == (200, []) and member is None
    assert no_memberless_pool()
