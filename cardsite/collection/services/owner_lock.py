"""One owner's collection writes, one at a time.

A row lock on a collection row locks nothing while the row does not exist yet, so two `+` on a
card not yet held would both read 0 and both write 1. Every write to a collection, to who may
read it, and an invitation counting the invitee's, first locks that user's row instead, which
always exists: on PostgreSQL those writes then queue, each reading what the one before it
wrote (READ COMMITTED reads afresh after the wait); SQLite serialises writers by locking the
whole file.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User


def lock_owner(*, owner: User) -> None:
    """Hold `owner`'s row until the transaction ends; call inside `transaction.atomic()`.
    FOR NO KEY UPDATE: rows that merely reference the user (a new deck, a share) may still
    be written meanwhile, so this queues only the other writes that take this lock."""
    lock_owners(owner_ids=[owner.pk])


def lock_owners(*, owner_ids: Iterable[int]) -> None:
    """lock_owner for several users at once, in id order, so that two writes locking several
    owners never wait on each other."""
    list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk__in=sorted(set(owner_ids)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
