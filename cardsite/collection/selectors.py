"""Reads of collections, always on behalf of a viewer: whose copies count as theirs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, QuerySet, Sum

from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.collection.models import CollectionCard, CollectionShare, PoolMember


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
    if CollectionShare.objects.filter(owner=owner, reader=viewer).exists():
        return True
    return owner.pk in collection_owner_ids(user=viewer)


# --- one owner's own rows, for their collection page, the API and export -------------------

# The missing cards listed for one set on the collection page; the rest are counted.
MISSING_SHOWN = 60


def collection_list(*, owner: Any, game: str | None = None) -> QuerySet[CollectionCard]:
    """`owner`'s own rows (not their pool's), in game, set and collector order."""
    rows = CollectionCard.objects.filter(owner=owner).select_related("card__card_set", "card__game")
    if game:
        rows = rows.filter(card__game__slug=game)
    return rows.order_by("card__game__name", "card__card_set__code", "card__number_sort", "id")


def card_for_collection(*, short_id: str) -> Card | None:
    """The printing with this short id; None for one that is none (short ids are at most 12
    characters, so a longer one is looked up nowhere)."""
    if len(short_id) > Card._meta.get_field("short_id").max_length:  # type: ignore[operator]
        return None
    return Card.objects.filter(short_id=short_id).first()


def own_quantities(*, owner: Any, card_ids: Iterable[int]) -> dict[int, int]:
    """Copies of each card in `owner`'s own collection, for its plus and minus buttons."""
    return dict(
        CollectionCard.objects.filter(owner=owner, card_id__in=list(card_ids)).values_list(
            "card_id", "quantity"
        )
    )


@dataclass
class SetTotals:
    card_set: CardSet
    size: int
    owned: int = 0
    copies: int = 0
    missing: list[Card] = field(default_factory=list)

    @property
    def percent(self) -> int:
        return int(100 * self.owned / self.size) if self.size else 0

    @property
    def missing_count(self) -> int:
        return self.size - self.owned

    @property
    def missing_unshown(self) -> int:
        return self.missing_count - len(self.missing)


@dataclass
class GameTotals:
    game: Game
    sets: list[SetTotals] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(s.size for s in self.sets)

    @property
    def owned(self) -> int:
        return sum(s.owned for s in self.sets)

    @property
    def copies(self) -> int:
        return sum(s.copies for s in self.sets)

    @property
    def percent(self) -> int:
        return int(100 * self.owned / self.size) if self.size else 0


def collection_totals(*, owner: Any) -> list[GameTotals]:
    """Every game and set with how many of its printings `owner` holds, and the first
    MISSING_SHOWN cards still missing from each set they hold any of: two queries, and one
    more per such set."""
    held = {
        row["card__card_set_id"]: row
        for row in CollectionCard.objects.filter(owner=owner)
        .values("card__card_set_id")
        .annotate(owned=Count("id"), copies=Sum("quantity"))
    }
    games: dict[int, GameTotals] = {}
    sets = (
        CardSet.objects.select_related("game")
        .annotate(size=Count("cards"))
        .order_by("game__name", "release_date", "code")
    )
    for card_set in sets:
        totals = SetTotals(card_set, card_set.size)
        if (row := held.get(card_set.id)) is not None:
            totals.owned, totals.copies = row["owned"], row["copies"]
            totals.missing = list(
                Card.objects.filter(card_set=card_set)
                .exclude(owned__owner=owner)
                .order_by("number_sort", "number")
                .only("short_id", "slug", "name", "number")[:MISSING_SHOWN]
            )
        games.setdefault(card_set.game_id, GameTotals(card_set.game)).sets.append(totals)
    return list(games.values())
