"""What people own: a quantity per card printing, who may read it, and who pools it.

A collection is private. Its owner may let named users read it (`CollectionShare`), or pool it
with named users who agree (`PoolMember.accepted_at`): a pool counts as one collection for
`own` searches, buildable decks and built decks. A user belongs to at most one pool at a time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from cardsite.catalogue.models import Card

# Copies of one printing a collection may hold.
MAX_QUANTITY = 999


class CollectionCard(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    # A card row is one printing (set and collector number).
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="owned")
    quantity = models.PositiveSmallIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

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


class CollectionShare(models.Model):
    """`reader` may read `owner`'s collection (never change it)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_shares"
    )
    reader = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collections_shared"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "reader"], name="one_share_per_reader"),
            models.CheckConstraint(
                condition=~models.Q(owner=models.F("reader")), name="no_share_with_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.owner} shares with {self.reader}"


class Pool(models.Model):
    """Collections counted as one, by members who each agreed to it."""

    name = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


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
