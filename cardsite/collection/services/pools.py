"""Pools: collections counted as one, by users who each agreed to it.

An invitation counts for nothing until its user accepts it (the selectors count accepted
members only). A user is in at most one accepted pool, so joining another means leaving first.
Pooling lets members read each other's collection rows, as `can_read_collection` says.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from cardsite.collection.models import Pool, PoolMember
from cardsite.collection.services.owner_lock import lock_owner
from cardsite.collection.services.people import user_named
from engines.errors import InputError

# Members and open invitations of one pool together: a playgroup around a table.
MAX_POOL_MEMBERS = 12
# Invitations one user may have waiting, from different pools, before more are refused.
MAX_INVITATIONS = 20
POOL_NAME_MAX = Pool._meta.get_field("name").max_length or 80


def accepted_pool(*, user: Any) -> Pool | None:
    """The pool `user` belongs to (has accepted), if any."""
    member = (
        PoolMember.objects.filter(user=user, accepted_at__isnull=False)
        .select_related("pool")
        .first()
    )
    return member.pool if member else None


def _already_pooled() -> InputError:
    return InputError(
        "pool", "You are in a pool already: leave it first (a collection pools with one group)."
    )


def pool_create(*, user: Any, name: str) -> Pool:
    """A new pool called `name` (1 to POOL_NAME_MAX characters), `user` its first member.
    InputError naming `name`, or `pool` if `user` is in a pool already."""
    name = " ".join((name or "").split())
    if not name:
        raise InputError("name", "Give the pool a name.")
    if len(name) > POOL_NAME_MAX:
        raise InputError("name", f"A pool's name is at most {POOL_NAME_MAX} characters.")
    if accepted_pool(user=user) is not None:
        raise _already_pooled()
    try:
        with transaction.atomic():
            pool = Pool.objects.create(name=name, created_by=user)
            PoolMember.objects.create(
                pool=pool, user=user, invited_by=user, accepted_at=timezone.now()
            )
    except IntegrityError:  # joined another pool in the meantime
        raise _already_pooled() from None
    return pool


def pool_invite(*, pool: Pool, by: Any, username: str) -> PoolMember:
    """Invite the user called `username` into `pool`, on behalf of `by`, who must be one of
    its members. Inviting someone again changes nothing. InputError naming `username` for no
    such user, oneself, a full pool or a full inbox; naming `pool` if `by` is not a member."""
    invitee = user_named(username)
    if invitee.pk == by.pk:
        raise InputError("username", "You are in this pool already.")
    with transaction.atomic():
        # Under the pool's row lock, which leaving takes too: the pool and `by`'s membership
        # are as read until this commits, and two invitations cannot both take the 12th.
        if not _lock_pool(pool.pk):
            raise InputError("pool", "That pool no longer exists: its last member left it.")
        if not PoolMember.objects.filter(pool=pool, user=by, accepted_at__isnull=False).exists():
            raise InputError("pool", "Only the pool's members may invite people to it.")
        existing = PoolMember.objects.filter(pool=pool, user=invitee).first()
        if existing is not None:
            return existing
        if PoolMember.objects.filter(pool=pool).count() >= MAX_POOL_MEMBERS:
            raise InputError(
                "username",
                f"A pool holds at most {MAX_POOL_MEMBERS} members and invitations together.",
            )
        # Invitations from other pools are counted under the invitee's lock (pools' locks
        # are taken before users', never after, so this cannot deadlock).
        lock_owner(owner=invitee)
        waiting = PoolMember.objects.filter(user=invitee, accepted_at__isnull=True).count()
        if waiting >= MAX_INVITATIONS:
            raise InputError(
                "username",
                f"That user has {MAX_INVITATIONS} invitations waiting already, the most allowed.",
            )
        return PoolMember.objects.create(pool=pool, user=invitee, invited_by=by)


def _lock_pool(pool_id: int) -> bool:
    """Lock the pool's row until the transaction ends; whether the pool still exists."""
    return Pool.objects.select_for_update().filter(pk=pool_id).exists()


def _invitation(*, user: Any, pool: Pool) -> PoolMember:
    member = PoolMember.objects.filter(pool=pool, user=user).first()
    if member is None:
        raise InputError("pool", "You have no invitation to that pool.")
    return member


def pool_accept(*, user: Any, pool: Pool) -> PoolMember:
    """Join `pool`, which invited `user`: from now on its members' collections count as one.
    InputError naming `pool` without an invitation, or while in another pool."""
    member = _invitation(user=user, pool=pool)
    if member.accepted_at is not None:
        return member
    current = accepted_pool(user=user)
    if current is not None:
        raise _already_pooled()
    try:
        with transaction.atomic():
            # A pool its last member is leaving is gone after the lock: nothing to update.
            _lock_pool(pool.pk)
            updated = PoolMember.objects.filter(pk=member.pk, accepted_at__isnull=True).update(
                accepted_at=timezone.now()
            )
    except IntegrityError:  # accepted another pool at the same moment
        raise _already_pooled() from None
    if not updated:  # withdrawn (the pool emptied) or accepted meanwhile
        member = _invitation(user=user, pool=pool)
    member.refresh_from_db()
    return member


def pool_decline(*, user: Any, pool: Pool) -> bool:
    """Turn down `pool`'s invitation; whether there was one waiting."""
    removed, _ = PoolMember.objects.filter(pool=pool, user=user, accepted_at__isnull=True).delete()
    return removed > 0


def pool_leave(*, user: Any) -> bool:
    """Leave the pool `user` is in; its copies stop counting for the others at once. The last
    member leaving deletes the pool and its open invitations. Whether `user` was in one."""
    with transaction.atomic():
        pool_id = (
            PoolMember.objects.filter(user=user, accepted_at__isnull=False)
            .values_list("pool_id", flat=True)
            .first()
        )
        # The pool's row first, as inviting and accepting lock it: none of them can add or
        # accept a member between the count below and the pool's deletion.
        if pool_id is None or not _lock_pool(pool_id):
            return False
        member = PoolMember.objects.filter(
            pool_id=pool_id, user=user, accepted_at__isnull=False
        ).first()
        if member is None:  # left by a request at the same moment
            return False
        member.delete()
        if not PoolMember.objects.filter(pool_id=pool_id, accepted_at__isnull=False).exists():
            Pool.objects.filter(pk=pool_id).delete()
    return True
