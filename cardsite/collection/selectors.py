"""Reads of collections, always on behalf of a viewer: whose copies count as theirs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet, Sum

from cardsite.collection.models import CollectionCard, PoolMember


def collection_owner_ids(*, user: Any) -> list[int]:
    """The users whose copies count as `user`'s own: themselves and, when they belong to a
    pool they accepted, every member who accepted it too. Empty for an anonymous user."""
    if user is None or not user.is_authenticated:
        return []
    pool = (
        PoolMember.objects.filter(user=user, accepted_at__isnull=False)
        .values_list("pool_id", flat=True)
        .first()
    )
    if pool is None:
        return [user.pk]
    members = PoolMember.objects.filter(pool_id=pool, accepted_at__isnull=False)
    return sorted({user.pk, *members.values_list("user_id", flat=True)})


def owned_rows(*, user: Any) -> QuerySet[CollectionCard]:
    """The collection rows that count as `user`'s (their pool's, if they pooled)."""
    return CollectionCard.objects.filter(owner_id__in=collection_owner_ids(user=user))


def owned_counts(*, user: Any, card_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Copies owned per card id, pooled collections summed; cards not owned are absent."""
    rows = owned_rows(user=user)
    if card_ids is not None:
        rows = rows.filter(card_id__in=list(card_ids))
    return dict(
        rows.values("card_id").annotate(total=Sum("quantity")).values_list("card_id", "total")
    )


def can_read_collection(*, owner: Any, viewer: Any) -> bool:
    """Whether `viewer` may read `owner`'s collection: their own, one shared with them, or one
    pooled with theirs. Nobody else, ever: a collection is private unless shared."""
    if viewer is None or not viewer.is_authenticated:
        return False
    if owner.pk == viewer.pk:
        return True
    from cardsite.collection.models import CollectionShare

    if CollectionShare.objects.filter(owner=owner, reader=viewer).exists():
        return True
    return owner.pk in collection_owner_ids(user=viewer)
