"""A deck against the caller's collection: the copies it lacks, building and unbuilding it,
and the cards the caller's built decks compete for. Signed in only (token or session)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.models import Deck
from decks.reading.owning import (
    MAX_CONFLICT_DECKS_SHOWN,
    MAX_CONFLICTS_SHOWN,
    Conflict,
    built_conflicts,
    deck_missing,
)
from decks.reading.selectors import deck_for_reader
from decks.services.building import deck_build, deck_unbuild
from engines.errors import InputError

MISSING = inline_serializer(
    "DeckMissing",
    {
        "missing": serializers.ListField(
            child=inline_serializer(
                "MissingCard",
                {
                    "card": serializers.CharField(help_text="The printing's short id."),
                    "name": serializers.CharField(),
                    "quantity": serializers.IntegerField(min_value=1),
                },
            )
        ),
        "buildable": serializers.BooleanField(),
    },
)
BUILT = inline_serializer(
    "DeckBuilt", {"id": serializers.CharField(), "built_at": serializers.DateTimeField()}
)
CONFLICT = inline_serializer(
    "BuiltConflict",
    {
        "card": serializers.CharField(help_text="The printing's short id."),
        "name": serializers.CharField(),
        "owned": serializers.IntegerField(),
        "needed": serializers.IntegerField(),
        "short": serializers.IntegerField(help_text="needed - owned"),
        "decks": serializers.ListField(
            help_text=(
                f"The competing decks you may see (your own and public ones), by name: at most "
                f"{MAX_CONFLICT_DECKS_SHOWN}."
            ),
            child=inline_serializer(
                "ConflictDeck",
                {
                    "id": serializers.CharField(),
                    "name": serializers.CharField(),
                    "quantity": serializers.IntegerField(),
                },
            ),
        ),
        "more_decks": serializers.IntegerField(
            help_text="Decks you may see that compete too, beyond those listed."
        ),
        "other_members": serializers.BooleanField(
            help_text="Built decks of other pool members that you may not see take copies too."
        ),
    },
)
CONFLICTS = inline_serializer(
    "BuiltConflicts",
    {
        "count": serializers.IntegerField(
            help_text="Every conflicting card, not only those listed."
        ),
        "results": serializers.ListField(
            help_text=f"The first {MAX_CONFLICTS_SHOWN} conflicting cards, by name.",
            child=CONFLICT,
        ),
    },
)


def _readable(request: Request, id: str) -> Deck:
    deck = deck_for_reader(deck_id=id, user=request.user)
    if deck is None:
        raise NotFound("No deck with that id, or it is private.")
    return deck


class DeckMissingView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "read"

    @extend_schema(
        summary="The copies of a deck's cards your collection (your pool's) lacks",
        responses={200: MISSING},
    )
    def get(self, request: Request, id: str) -> Response:
        missing = deck_missing(deck=_readable(request, id), viewer=request.user)
        return Response(
            {
                "missing": [
                    {"card": card.short_id, "name": card.name, "quantity": n}
                    for card, n in missing.lines
                ],
                "buildable": missing.buildable,
            }
        )


class DeckBuildView(APIView):
    """A built deck takes its copies from its owner's collection; building never fails for
    lack of cards (the shortfall shows in collection/conflicts/)."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    def _owned(self, request: Request, id: str) -> Deck:
        deck = _readable(request, id)
        if deck.owner_id != request.user.id:
            raise PermissionDenied("Only the deck's owner may build or unbuild it.")
        return deck

    def _answer(self, deck: Deck) -> Response:
        built = deck.built_at.isoformat() if deck.built_at else None
        return Response({"id": deck.share_key, "built_at": built})

    @extend_schema(summary="Mark a deck you own as built", request=None, responses={200: BUILT})
    def post(self, request: Request, id: str) -> Response:
        try:
            deck = deck_build(deck=self._owned(request, id), user=request.user)
        except InputError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        return self._answer(deck)

    @extend_schema(
        summary="Unbuild a deck you own, freeing its copies", request=None, responses={204: None}
    )
    def delete(self, request: Request, id: str) -> Response:
        deck_unbuild(deck=self._owned(request, id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def conflict_record(conflict: Conflict) -> dict[str, Any]:
    return {
        "card": conflict.card.short_id,
        "name": conflict.card.name,
        "owned": conflict.owned,
        "needed": conflict.needed,
        "short": conflict.short,
        "decks": [{"id": d.share_key, "name": d.name, "quantity": n} for d, n in conflict.decks],
        "more_decks": conflict.more_decks,
        "other_members": conflict.hidden,
    }


class CollectionConflictsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "read"

    @extend_schema(
        summary="The cards your built decks (your pool's) need more copies of than you own",
        responses={200: CONFLICTS},
    )
    def get(self, request: Request) -> Response:
        conflicts = built_conflicts(user=request.user)
        return Response(
            {"count": conflicts.total, "results": [conflict_record(c) for c in conflicts]}
        )
