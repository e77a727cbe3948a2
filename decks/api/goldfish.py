"""Goldfish simulations through the API: of a saved deck (see decks.api.decks) or a posted list."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.limits import client_key
from decks.api.jobs import job_accepted, prefers_async
from decks.api.responses import JOB_ACCEPTED, content_error
from decks.api.serializers import (
    DeckErrorSerializer,
    GoldfishListSerializer,
    GoldfishResultSerializer,
    JobSerializer,
)
from decks.jobs import goldfish_job
from decks.services import (
    DeckContentError,
    ResolvedDeck,
    format_policy,
    goldfish_run,
    intake_posted,
    resolve,
)


def goldfish_response(
    request: Request,
    resolved: ResolvedDeck,
    data: dict[str, Any],
    deck_key: str | None = None,
    format_slug: str = "",
) -> Response:
    policy = format_policy(
        resolved=resolved, format_slug=format_slug or data.get("format", ""), policy=data["policy"]
    )
    run = {"runs": data["runs"], "seed": data["seed"], "policy": policy}
    job = goldfish_job(
        resolved=resolved,
        **run,
        owner=request.user,
        client=client_key(request),
        deck_key=deck_key,
        prefer_async=prefers_async(request),
    )
    if job is not None:
        return job_accepted(job, request)
    return Response(goldfish_run(resolved=resolved, **run))


class GoldfishListView(APIView):
    """POST /api/v1/goldfish/: goldfish a posted decklist."""

    throttle_scope = "goldfish"
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        summary="Goldfish a posted decklist",
        request=GoldfishListSerializer,
        responses={
            200: GoldfishResultSerializer,
            202: OpenApiResponse(JobSerializer, description=JOB_ACCEPTED),
            400: DeckErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        body = GoldfishListSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            resolved = resolve(game=data["game"].slug, intake=intake_posted(data)).known()
        except DeckContentError as exc:
            return content_error(exc, "Some cards are not known; nothing was simulated.")
        return goldfish_response(request, resolved, data)
