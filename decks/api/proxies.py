"""Printable proxies through the API: of a saved deck, or of any posted list of cards."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.limits import client_key
from decks.api.jobs import job_accepted, prefers_async
from decks.api.responses import JOB_ACCEPTED, content_error
from decks.api.serializers import DeckErrorSerializer, DeckInputSerializer, JobSerializer
from decks.exports.printing import SheetOrder, deck_order, list_order, options_for, print_order
from decks.jobs import proxies_job
from decks.proxies import (
    MAX_BACK_OFFSET,
    MAX_BLEED,
    MAX_GAP,
    MAX_SHEET_CARDS,
    PAPERS,
    SIZES,
    parse_options,
)
from decks.reading.selectors import deck_for_reader
from decks.services import DeckContentError, intake_posted, resolve

SHEET_LIMIT = (
    f"At most {MAX_SHEET_CARDS} cards a sheet, counting every copy; a larger one is a 400 "
    "naming the limit (`errors.cards`), and nothing is drawn or queued."
)


# A posted list may be longer than a deck: its copies are counted against the sheet's own
# limit (with the sheet's message) once resolved; this bound keeps the list itself small.
MAX_LIST_CARDS = MAX_SHEET_CARDS * 99


SHEET_PARAMETERS = [
    OpenApiParameter("paper", str, enum=sorted(PAPERS)),
    OpenApiParameter("size", str, enum=sorted(SIZES)),
    OpenApiParameter(
        "bleed",
        {"type": "number", "minimum": 0, "maximum": MAX_BLEED},
        description=f"0 to {MAX_BLEED:g} mm, where the page allows.",
    ),
    OpenApiParameter(
        "gap",
        {"type": "number", "minimum": 0, "maximum": MAX_GAP},
        description=f"0 to {MAX_GAP:g} mm between cards, as far as the paper and card size "
        "leave room (a 400 naming `gap` when they do not).",
    ),
    OpenApiParameter(
        "backs", str, enum=["0", "1", "false", "true"], description="Add mirrored backs pages."
    ),
    *(
        OpenApiParameter(
            name,
            {"type": "number", "minimum": -MAX_BACK_OFFSET, "maximum": MAX_BACK_OFFSET},
            description=f"The printer's back offset {axis} in mm, as read on the duplex "
            f"calibration sheet (`/proxies/calibration.pdf`), -{MAX_BACK_OFFSET:g} to "
            f"{MAX_BACK_OFFSET:g}, kept to 0.1 mm; backs pages are shifted to cancel it. "
            "Without it, the offset the signed-in user saved (or 0).",
        )
        for name, axis in (("back_offset_x", "across (right +)"), ("back_offset_y", "up (+)"))
    ),
]


class DeckProxiesView(APIView):
    """GET /api/v1/decks/{id}/proxies.pdf: the deck's proxies as a PDF."""

    throttle_scope = "proxies"
    permission_classes = [AllowAny]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The PDF bypasses renderers; errors must still be JSON even for Accept: application/pdf.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        summary="Printable proxies of a deck you can read, as a PDF",
        description=SHEET_LIMIT,
        parameters=SHEET_PARAMETERS,
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            202: OpenApiResponse(JobSerializer, description=JOB_ACCEPTED),
        },
    )
    def get(self, request: Request, id: str) -> HttpResponse:
        deck = deck_for_reader(deck_id=id, user=request.user)
        if deck is None:
            raise NotFound("No deck with that id, or it is private.")
        options = options_for(request.query_params, user=request.user)
        order = deck_order(deck, options)
        if background := _proxies_job(request, order):
            return background
        response = HttpResponse(print_order(order), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{deck.share_key}-proxies.pdf"'
        return response


class ListProxiesView(APIView):
    """POST /api/v1/proxies.pdf: proxies for any list of cards, without saving a deck."""

    throttle_scope = "proxies"
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        summary="Printable proxies of any list of cards, as a PDF",
        description=SHEET_LIMIT,
        request=DeckInputSerializer,
        parameters=SHEET_PARAMETERS,
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            202: OpenApiResponse(JobSerializer, description=JOB_ACCEPTED),
            400: DeckErrorSerializer,
        },
    )
    def post(self, request: Request) -> HttpResponse:
        serializer = DeckInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        options = parse_options(request.query_params)
        try:
            # The sheet's own limit applies below: a list to print need not be a deck.
            intake = intake_posted(data, most=MAX_LIST_CARDS)
            resolved = resolve(game=data["game"].slug, intake=intake).known()
        except DeckContentError as exc:
            return content_error(exc, "Some cards cannot be printed; nothing was made.")
        order = list_order(
            "Card list",
            data["game"].name,
            [(e.card.pk, e.quantity) for e in resolved.entries],
            options,
            game_slug=data["game"].slug,
        )
        if background := _proxies_job(request, order):
            return background
        return HttpResponse(print_order(order), content_type="application/pdf")


def _proxies_job(request: Request, order: SheetOrder) -> Response | None:
    """A 202 with a job for a large sheet (or when the client prefers to poll), else None."""
    job = proxies_job(
        order=order,
        owner=request.user,
        client=client_key(request),
        prefer_async=prefers_async(request),
    )
    return job_accepted(job, request) if job else None
