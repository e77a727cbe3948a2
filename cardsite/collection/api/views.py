"""The signed-in user's own collection through the API: list, set one card, import, export.

Only ever the requester's own rows: there is no URL naming another user's collection here,
so none can be read through it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, UnsupportedMediaType, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.errors import as_api_error
from cardsite.api.fields import GAME_SLUGS
from cardsite.collection import selectors
from cardsite.collection.api.serializers import (
    CollectionCardSerializer,
    HeldSerializer,
    ImportResultSerializer,
    ImportTextSerializer,
    ImportUploadSerializer,
    QuantitySerializer,
)
from cardsite.collection.models import CollectionCard
from cardsite.collection.services import (
    CollectionImportError,
    collection_export,
    collection_import,
    collection_set_quantity,
)
from cardsite.collection.services.reading import decode_upload
from engines.bounds import capped, more_problems
from engines.errors import InputError

GAME_PARAMETER = OpenApiParameter(
    "game", str, enum=GAME_SLUGS, description="Only this game's cards."
)


def _game(request: Request) -> str | None:
    if "game" not in request.query_params:
        return None
    game = request.query_params["game"]
    if game not in GAME_SLUGS:
        raise ValidationError({"game": [f"Games are {', '.join(GAME_SLUGS)}."]})
    return game


class CollectionListView(ListAPIView[CollectionCard]):
    """GET /api/v1/collection/: your collection, a row per printing you hold."""

    permission_classes = [IsAuthenticated]
    serializer_class = CollectionCardSerializer
    throttle_scope = "read"

    @extend_schema(summary="Your collection, a page of printings", parameters=[GAME_PARAMETER])
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[CollectionCard]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no user
            return CollectionCard.objects.none()
        return selectors.collection_list(owner=self.request.user, game=_game(self.request))


class CollectionCardView(APIView):
    """PUT /api/v1/collection/cards/{card_id}/: how many copies of one printing you hold."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Set how many copies of a printing you hold (0 removes it)",
        parameters=[
            OpenApiParameter(
                "card_id", str, OpenApiParameter.PATH, description="A card's short id."
            )
        ],
        request=QuantitySerializer,
        responses={200: HeldSerializer},
    )
    def put(self, request: Request, card_id: str) -> Response:
        card = selectors.card_for_collection(short_id=card_id)
        if card is None:
            raise NotFound("No such card.")
        body = QuantitySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        quantity = collection_set_quantity(
            owner=request.user, card=card, quantity=body.validated_data["quantity"]
        )
        return Response({"id": card.short_id, "quantity": quantity})


IMPORT_DESCRIPTION = (
    "A 400 lists the first 100 problems by line (`errors.{field}`), then how many more there "
    "are (`and 1,234 more problems`), and nothing is stored. A `replace` by a list naming no "
    "card is a 400 naming `confirm_empty` unless that is true."
)


def _imported(**kwargs: Any) -> Response:
    """collection_import's answer, or its problems as a 400 naming the field they are in."""
    try:
        result = collection_import(**kwargs)
    except CollectionImportError as exc:
        shown, more = capped(exc.problems)
        listed = [str(p) for p in shown] + ([more_problems(more)] if more else [])
        raise ValidationError({exc.field: listed}) from None
    except InputError as exc:
        raise as_api_error(exc) from None
    return Response({"printings": result.printings, "copies": result.copies})


class CollectionImportView(APIView):
    """POST /api/v1/collection/import/: a pasted list, as JSON; all or nothing, every problem
    naming its line. A CSV file goes to import/csv/: one content type an operation, which is
    what a generated client can call (openapi-python-client's code for an operation taking
    two does not import)."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Import a pasted list into your collection, all or nothing",
        description=IMPORT_DESCRIPTION.format(field="text")
        + " A CSV file is uploaded to `POST /api/v1/collection/import/csv/`.",
        request=ImportTextSerializer,
        responses={200: ImportResultSerializer},
    )
    def post(self, request: Request) -> Response:
        if request.content_type.startswith("multipart/"):
            raise UnsupportedMediaType(
                request.content_type,
                detail="This URL reads JSON; upload a CSV file to /api/v1/collection/import/csv/.",
            )
        body = ImportTextSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return _imported(
            owner=request.user,
            game=data["game"],
            text=data["text"],
            mode=data["mode"],
            confirm_empty=data["confirm_empty"],
        )


class CollectionImportCsvView(APIView):
    """POST /api/v1/collection/import/csv/: a CSV file, as a multipart upload; all or nothing."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]
    throttle_scope = "write"

    @extend_schema(
        summary="Import a CSV file into your collection, all or nothing",
        description=IMPORT_DESCRIPTION.format(field="csv"),
        request={"multipart/form-data": ImportUploadSerializer},
        responses={200: ImportResultSerializer},
    )
    def post(self, request: Request) -> Response:
        upload = ImportUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        data = upload.validated_data
        try:
            text = decode_upload(data["csv"])
        except InputError as exc:
            raise as_api_error(exc) from None
        return _imported(
            owner=request.user,
            game=data.get("game"),
            csv=text,
            mode=data["mode"],
            confirm_empty=data["confirm_empty"],
        )


class CollectionExportView(APIView):
    """GET /api/v1/collection/export/?as=text|csv: your collection in the formats import reads."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "read"

    @extend_schema(
        summary="Export your collection as decklist text or CSV",
        parameters=[OpenApiParameter("as", str, enum=["text", "csv"]), GAME_PARAMETER],
        responses={(200, "text/plain"): OpenApiTypes.STR, (200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request) -> HttpResponse:
        kind = request.query_params.get("as", "text")
        if kind not in ("text", "csv"):
            raise ValidationError({"as": [f"Export as text or csv, not {kind[:20]!r}."]})
        game = _game(request)
        body = collection_export(owner=request.user, as_=kind, game=game)
        media = "text/csv" if kind == "csv" else "text/plain"
        name = f"collection{'-' + game if game else ''}.{'csv' if kind == 'csv' else 'txt'}"
        response = HttpResponse(body, content_type=f"{media}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
