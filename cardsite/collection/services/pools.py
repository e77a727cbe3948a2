"""Pools: collections counted as one, by users who each agreed to it.

An invitation counts for nothing until its user accepts it (the selectors count accepted
members only). A user is in at most one accepted pool, so joining another means leaving first.
Pooling lets members read each other's collection rows, as `can_read_collection` says.

Invitations are limited per sender, never per invitee: a cap on what one user may have
waiting would let strangers fill it and so refuse a friend's invitation. A sender has at most
MAX_INVITATIONS_OUT waiting and one to each user; an invitation expires after
INVITATION_DAYS, and its user can decline them all at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from cardsite.collection.models import Pool, PoolMember
from cardsite.collection.services.people import user_named
from engines.errors import InputError

# Members and open invitations of one pool together: a playgroup around a table.
MAX_POOL_MEMBERS = 12
# Invitations one sender may have waiting, from whichever pools (they may have left some).
MAX_INVITATIONS_OUT = 20
# Days an invitation waits for an answer; after that it counts for nothing and is deleted.
INVITATION_DAYS = 14
POOL_NAME_MAX = Pool._meta.get_field("name").max_length or 80


def invitation_cutoff() -> datetime:
    """Invitations made before this have expired."""
    return timezone.now() - timedelta(days=INVITATION_DAYS)


def waiting_invitations() -> QuerySet[PoolMember]:
    """Invitations not yet accepted, declined or expired."""
    return PoolMember.objects.filter(accepted_at__isnull=True, invited_at__gt=invitation_cutoff())


def invitations_expire(*, pool: Pool | None = None) -> int:
    """Delete the expired invitations (they count for nothing already), `pool`'s or all;
    how many. Celery beat runs it daily for all (`manage.py purge_invitations`)."""
    expired = PoolMember.objects.filter(
        accepted_at__isnull=True, invited_at__lte=invitation_cutoff()
    )
    if pool is not None:
        expired = expired.filter(pool=pool)
    deleted, _ = expired.delete()
    return deleted


def accepted_pool(*, user: User) -> Pool | None:
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


def pool_create(*, user: User, name: str) -> Pool:
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


def pool_invite(*, pool: Pool, by: User, username: str) -> PoolMember:
    """Invite the user called `username` into `pool`, on behalf of `by`, who must be one of
    its members. Inviting someone again changes nothing. InputError naming `username` for no
    such user, oneself, a full pool, an invitation from `by` waiting for them already (from
    another pool) or `by` having MAX_INVITATIONS_OUT waiting; naming `pool` if `by` is not a
    member."""
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
        invitations_expire(pool=pool)  # this pool's only: it alone is locked
        existing = PoolMember.objects.filter(pool=pool, user=invitee).first()
        if existing is not None:
            return existing
        if PoolMember.objects.filter(pool=pool).count() >= MAX_POOL_MEMBERS:
            raise InputError(
                "username",
                f"A pool holds at most {MAX_POOL_MEMBERS} members and invitations together.",
            )
        sent = waiting_invitations().filter(invited_by=by)
        if sent.filter(user=invitee).exists():
            raise InputError(
                "username",
                "You have invited that user already, to another pool: one invitation from"
                " you may wait for them at a time.",
            )
        if sent.count() >= MAX_INVITATIONS_OUT:
            raise InputError(
                "username",
                f"You have {MAX_INVITATIONS_OUT} invitations waiting for an answer, the most"
                f" allowed; they expire after {INVITATION_DAYS} days.",
            )
        return PoolMember.objects.create(pool=pool, user=invitee, invited_by=by)


def _lock_pool(pool_id: int) -> bool:
    """Lock the pool's row until the transaction ends; whether the pool still exists."""
    return Pool.objects.select_for_update().filter(pk=pool_id).exists()


def _invitation(*, user: User, pool: Pool) -> PoolMember:
    member = (
        PoolMember.objects.filter(pool=pool, user=user)
        .exclude(accepted_at__isnull=True, invited_at__lte=invitation_cutoff())
        .first()
    )
    if member is None:
        raise InputError("pool", "You have no invitation to that pool.")
    return member


def pool_accept(*, user: User, pool: Pool) -> PoolMember:
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


def pool_decline(*, user: User, pool: Pool) -> bool:
    """Turn down `pool`'s invitation; whether there was one waiting."""
    removed, _ = PoolMember.objects.filter(pool=pool, user=user, accepted_at__isnull=True).delete()
    return removed > 0


def pool_decline_all(*, user: User) -> int:
    """Turn down every invitation waiting for `user` (expired ones too); how many were
    waiting."""
    removed, _ = PoolMember.objects.filter(user=user, accepted_at__isnull=True).delete()
    return removed


def pool_leave(*, user: User) -> bool:
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
