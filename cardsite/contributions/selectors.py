"""Reads of proposals, curators and notifications, each answering only what the reader may
see: a proposal is its proposer's and its game's curators', and nobody else's."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from cardsite.catalogue.models import Card, CardChange
from cardsite.contributions.models import Curator, Notification, Proposal


def is_curator(user: Any, game_id: int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Curator.objects.filter(user=user, game_id=game_id).exists()


def curated_game_ids(user: Any) -> list[int]:
    if user is None or not user.is_authenticated:
        return []
    return list(Curator.objects.filter(user=user).values_list("game_id", flat=True))


def proposals_visible(user: Any) -> QuerySet[Proposal]:
    """The proposals `user` may read: their own, and every one of the games they curate."""
    if user is None or not user.is_authenticated:
        return Proposal.objects.none()
    return Proposal.objects.filter(Q(proposer=user) | Q(game__curators__user=user)).distinct()


def proposal_get(*, user: Any, pk: int) -> Proposal | None:
    return (
        proposals_visible(user)
        .select_related("game", "card", "proposer", "reviewer", "card__card_set")
        .filter(pk=pk)
        .first()
    )


def review_queue(
    *, curator: Any, game: str = "", kind: str = "", oldest_first: bool = True
) -> QuerySet[Proposal]:
    """The open proposals of the games `curator` curates, but their own."""
    queue = Proposal.objects.filter(
        status=Proposal.Status.OPEN, game_id__in=curated_game_ids(curator)
    ).exclude(proposer=curator)
    if game:
        queue = queue.filter(game__slug=game)
    if kind:
        queue = queue.filter(kind=kind)
    order = ("created_at", "id") if oldest_first else ("-created_at", "-id")
    return queue.select_related("game", "card", "proposer").order_by(*order)


def queue_count(*, curator: Any) -> int:
    return review_queue(curator=curator).count()


def unread_count(*, user: Any) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_of(*, user: Any) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user).select_related("proposal")


def card_change_get(*, card: Card, pk: int) -> CardChange | None:
    """One recorded change of `card`: every accepted change is public."""
    return CardChange.objects.select_related("card", "card__game").filter(card=card, pk=pk).first()
