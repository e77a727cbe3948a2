from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.api.serializers import CheckResultSerializer, DeckInputSerializer
from decks.decklist import parse_text
from decks.services import DeckInputError, RequestedCard, deck_check


def requested_cards(data: dict[str, Any]) -> tuple[list[RequestedCard], list[Any]]:
    """The deck's cards from a validated DeckInputSerializer, and any unreadable text lines."""
    if "text" in data:
        lines, problems = parse_text(data["text"], data["game"].engine)
        return [RequestedCard.from_line(line) for line in lines], problems
    return [
        RequestedCard(
            quantity=c["quantity"], name=c.get("name"), short_id=c.get("id"), zone=c.get("zone")
        )
        for c in data["cards"]
    ], []


def check_response(data: dict[str, Any]) -> Response:
    requested, list_problems = requested_cards(data)
    try:
        result = deck_check(
            game=data["game"],
            format_slug=data["format"],
            faction=data.get("faction"),
            requested=requested,
            list_problems=list_problems,
        )
    except DeckInputError as exc:
        return Response(
            {"code": "invalid", "detail": str(exc), "errors": {exc.field: [str(exc)]}},
            status=status.HTTP_400_BAD_REQUEST,
        )
    return Response(
        {
            "legal": result.legal,
            "faction": result.faction.name if result.faction else None,
            "problems": result.problems,
            "counts": result.counts,
        }
    )


class ValidateDeckView(APIView):
    """Check a deck against its game's format. Open to anyone; saves nothing."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: CheckResultSerializer},
        summary="Check a deck against a format, without saving it",
    )
    def post(self, request: Request) -> Response:
        serializer = DeckInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return check_response(serializer.validated_data)
