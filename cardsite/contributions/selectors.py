"""Reads of proposals, curators and notifications, each answering only what the reader may
see: a proposal is its proposer's and its game's curators', and nobody else's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from cardsite.catalogue.models import Game
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
    *,
    curator: Any,
    game: str = "",
    kind: str = "",
    oldest_first: bool = True,
    older_than_days: int = 0,
) -> QuerySet[Proposal]:
    """The open proposals of the games `curator` curates, but their own."""
    queue = Proposal.objects.filter(
        status=Proposal.Status.OPEN, game_id__in=curated_game_ids(curator)
    ).exclude(proposer=curator)
    if game:
        queue = queue.filter(game__slug=game)
    if kind:
        queue = queue.filter(kind=kind)
    if older_than_days > 0:
        queue = queue.filter(created_at__lt=timezone.now() - timedelta(days=older_than_days))
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


def proposals_of(*, user: Any) -> QuerySet[Proposal]:
    """A user's own proposals, newest first."""
    return Proposal.objects.filter(proposer=user).select_related("game", "card")


@dataclass(frozen=True)
class HeaderCounts:
    unread: int
    curates: bool
    queue: int


def header_counts(*, user: Any) -> HeaderCounts:
    """The header's counts in one small query: the user's unread notices, and, for a
    curator, the open proposals awaiting them (their own excepted). Every signed-in page
    asks it, so it is one round trip, not three."""
    unread = (
        Notification.objects.filter(user=OuterRef("pk"), read_at__isnull=True)
        .order_by()
        .values("user")
        .annotate(n=Count("id"))
        .values("n")
    )
    waiting = (
        Proposal.objects.filter(status=Proposal.Status.OPEN, game__curators__user=OuterRef("pk"))
        .exclude(proposer=OuterRef("pk"))
        .order_by()
        .values("status")
        .annotate(n=Count("id", distinct=True))
        .values("n")
    )
    row = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .annotate(
            unread=Coalesce(Subquery(unread), 0),
            waiting=Coalesce(Subquery(waiting), 0),
            curates=Exists(Curator.objects.filter(user=OuterRef("pk"))),
        )
        .values("unread", "waiting", "curates")
        .first()
    )
    if row is None:
        return HeaderCounts(unread=0, curates=False, queue=0)
    return HeaderCounts(unread=row["unread"], curates=row["curates"], queue=row["waiting"])


def curated_games(user: Any) -> list[Game]:
    if user is None or not user.is_authenticated:
        return []
    return list(Game.objects.filter(curators__user=user).order_by("name"))


def proposals_listed(
    *, user: Any, game: str = "", status: str = "", kind: str = "", mine: bool = False
) -> QuerySet[Proposal]:
    """The proposals `user` may read, filtered, newest first (a unique order, for paging)."""
    listed = proposals_visible(user)
    if mine:
        listed = listed.filter(proposer=user)
    if game:
        listed = listed.filter(game__slug=game)
    if status:
        listed = listed.filter(status=status)
    if kind:
        listed = listed.filter(kind=kind)
    return listed.select_related("game", "card", "proposer", "reviewer").order_by(
        "-created_at", "-id"
    )
