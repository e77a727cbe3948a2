"""What people own: a quantity per card printing, who may read it, and who pools it.

A collection is private. Its owner may let named users read it (`CollectionShare`), or pool it
with named users who agree (`PoolMember.accepted_at`): a pool counts as one collection for
`own` searches, buildable decks and built decks. A user belongs to at most one pool at a time.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from cardsite.catalogue.models import Card

# Copies of one printing a collection may hold.
MAX_QUANTITY = 999


class CollectionCardManager(models.Manager["CollectionCard"]):
    def get_by_natural_key(self, username: str, short_id: str) -> CollectionCard:
        return self.get(owner__username=username, card__short_id=short_id)


class CollectionCard(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    # A card row is one printing (set and collector number).
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="owned")
    quantity = models.PositiveSmallIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    objects = CollectionCardManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "card"], name="one_row_per_printing"),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1, quantity__lte=MAX_QUANTITY),
                name="collection_quantity_range",
            ),
        ]
        indexes = [models.Index(fields=["card", "owner"])]

    def __str__(self) -> str:
        return f"{self.owner}: {self.quantity} {self.card}"

    # Backups name a row by its owner's username and its card's short id (decks/backups/backup.py).
    def natural_key(self) -> tuple[str, str]:
        return (self.owner.get_username(), *self.card.natural_key())

    natural_key.dependencies = ["auth.user", "catalogue.card"]  # type: ignore[attr-defined]


class CollectionShareManager(models.Manager["CollectionShare"]):
    def get_by_natural_key(self, owner: str, reader: str) -> CollectionShare:
        return self.get(owner__username=owner, reader__username=reader)


class CollectionShare(models.Model):
    """`reader` may read `owner`'s collection (never change it)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_shares"
    )
    reader = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collections_shared"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CollectionShareManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "reader"], name="one_share_per_reader"),
            models.CheckConstraint(
                condition=~models.Q(owner=models.F("reader")), name="no_share_with_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.owner} shares with {self.reader}"

    def natural_key(self) -> tuple[str, str]:
        return (self.owner.get_username(), self.reader.get_username())

    natural_key.dependencies = ["auth.user"]  # type: ignore[attr-defined]


def new_pool_key() -> str:
    return secrets.token_urlsafe(9)


class PoolManager(models.Manager["Pool"]):
    def get_by_natural_key(self, key: str) -> Pool:
        return self.get(key=key)


class Pool(models.Model):
    """Collections counted as one, by members who each agreed to it."""

    # What names a pool in backups, where database ids differ (never shown or asked for).
    key = models.CharField(max_length=16, unique=True, default=new_pool_key, editable=False)
    name = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PoolManager()

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.key,)


class PoolMemberManager(models.Manager["PoolMember"]):
    def get_by_natural_key(self, pool_key: str, username: str) -> PoolMember:
        return self.get(pool__key=pool_key, user__username=username)


class PoolMember(models.Model):
    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_memberships"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # None while invited: an invitation counts for nothing until its user accepts it.
    accepted_at = models.DateTimeField(null=True, blank=True)
    # An invitation not accepted within INVITATION_DAYS of this expires (services/pools.py).
    invited_at = models.DateTimeField(default=timezone.now, db_index=True)

    objects = PoolMemberManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "user"], name="one_membership_per_pool"),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(accepted_at__isnull=False),
                name="one_accepted_pool_per_user",
            ),
        ]

    def __str__(self) -> str:
        state = "member" if self.accepted_at else "invited"
        return f"{self.user} in {self.pool} ({state})"

    def natural_key(self) -> tuple[str, str]:
        return (*self.pool.natural_key(), self.user.get_username())

    natural_key.dependencies = ["collection.pool", "auth.user"]  # type: ignore[attr-defined]
