"""Reads for the sharing page and API: who reads a collection, whose one reads, and pools."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from cardsite.collection.models import CollectionShare, Pool, PoolMember
from cardsite.collection.services.pools import invitation_cutoff

# Invitations a page or the API lists, the newest first; "decline all" clears the rest too.
MAX_INVITATIONS_SHOWN = 50


def readers_of(*, owner: Any) -> list[User]:
    """The users `owner` shares their collection with, by name."""
    ids = CollectionShare.objects.filter(owner=owner).values("reader_id")
    return list(User.objects.filter(pk__in=ids).order_by("username"))


def shared_with(*, reader: Any) -> list[User]:
    """The users who share their collection with `reader`, by name."""
    ids = CollectionShare.objects.filter(reader=reader).values("owner_id")
    return list(User.objects.filter(pk__in=ids, is_active=True).order_by("username"))


@dataclass(frozen=True)
class PoolState:
    pool: Pool | None
    members: list[PoolMember]  # accepted ones, then invitations, by name
    invitations: list[PoolMember]  # invitations waiting for this user, newest first
    invitations_waiting: int  # how many, of which at most MAX_INVITATIONS_SHOWN are listed


def _unexpired() -> Q:
    """Memberships, and invitations not yet expired."""
    return Q(accepted_at__isnull=False) | Q(invited_at__gt=invitation_cutoff())


def pool_state(*, user: Any) -> PoolState:
    member = (
        PoolMember.objects.filter(user=user, accepted_at__isnull=False)
        .select_related("pool")
        .first()
    )
    pool = member.pool if member else None
    members = sorted(
        PoolMember.objects.filter(_unexpired(), pool=pool).select_related("user", "invited_by")
        if pool
        else [],
        key=lambda m: (m.accepted_at is None, m.user.username.casefold()),
    )
    waiting = PoolMember.objects.filter(_unexpired(), user=user, accepted_at__isnull=True)
    invitations = list(
        waiting.select_related("pool", "invited_by").order_by("-invited_at", "-pk")[
            :MAX_INVITATIONS_SHOWN
        ]
    )
    count = len(invitations)
    if count == MAX_INVITATIONS_SHOWN:
        count = waiting.count()
    return PoolState(pool=pool, members=members, invitations=invitations, invitations_waiting=count)


def invited_pool(*, user: Any, pool_id: int) -> Pool | None:
    """The pool `pool_id` if `user` belongs to it or is invited to it (an invitation not
    expired); else None, so a pool reads as absent to anyone else."""
    return (
        Pool.objects.filter(
            pk=pool_id,
            members__in=PoolMember.objects.filter(_unexpired(), user=user),
        )
        .distinct()
        .first()
    )
