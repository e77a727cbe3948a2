"""Checking a posted deck, and the formats a deck is checked against."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import GAME_SLUG_PARAMETER
from cardsite.catalogue.models import Game
from decks.api.serializers import CheckResultSerializer, DeckInputSerializer, FormatSerializer
from decks.reading.selectors import game_formats
from decks.services import check, intake_posted, problem_json, resolve


class ValidateDeckView(APIView):
    """Check a deck against its game's format. Open to anyone; saves nothing."""

    throttle_scope = "validate"
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: CheckResultSerializer},
        summary="Check a deck against a format, without saving it",
    )
    def post(self, request: Request) -> Response:
        body = DeckInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        resolved = resolve(
            game=data["game"].slug, intake=intake_posted(data), faction=data.get("faction")
        )
        result = check(resolved, data["format"])
        return Response(
            {
                "legal": result.legal,
                "faction": result.faction,
                "problems": [problem_json(p) for p in result.problems],
                "counts": result.counts,
            }
        )


class FormatsView(APIView):
    """GET /api/v1/games/{slug}/formats/: a game's formats and the rules each checks."""

    throttle_scope = "read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A game's deck formats and their construction rules",
        parameters=[GAME_SLUG_PARAMETER],
        responses={200: FormatSerializer(many=True)},
    )
    def get(self, request: Request, slug: str) -> Response:
        game = get_object_or_404(Game, slug=slug)
        return Response(game_formats(game=game))
