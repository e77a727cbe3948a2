"""POST /api/v1/proposals/file/: a curator's card file (the importer's CSV) as one proposal.

It is approved, all or nothing, through the proposals' own approve endpoint.
"""

from __future__ import annotations

import json
from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import GAME_SLUGS
from cardsite.catalogue.models import Game
from cardsite.contributions.limits import MAX_BULK_BYTES, MAX_NOTE, spend_proposal
from cardsite.contributions.services.files import file_propose
from cardsite.contributions.services.proposals import SourceInput
from engines.errors import InputError

# The source's JSON is a few hundred characters; this bounds what is parsed.
MAX_SOURCE_FIELD = 4_000


class FileProposalSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=GAME_SLUGS)
    file = serializers.FileField(
        help_text="The importer's CSV (UTF-8): its cards are added or changed, all or "
        f"nothing; at most {MAX_BULK_BYTES // (1024 * 1024)} MB (MAX_BULK_BYTES). Its sets, "
        "factions and keywords must exist already."
    )
    source = serializers.CharField(
        max_length=MAX_SOURCE_FIELD,
        help_text='Where the facts come from: JSON {"kind": "rulebook"|"publisher", "text", '
        '"url"}, or plain text naming a rulebook passage.',
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NOTE)
    # A form's true, 1 or on: multipart has no JSON booleans.
    email_me = serializers.BooleanField(default=False)


class FileProposalResultSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    kind = serializers.CharField()
    summary = serializers.DictField(
        help_text="Counts of new, changed and unchanged cards, and a sample of each with its "
        "field-by-field diff, as the catalogue was when proposed."
    )


def _source(text: str) -> SourceInput:
    text = text.strip()
    if not text.startswith("{"):
        return SourceInput(kind="rulebook", text=text)
    try:
        value = json.loads(text)
    except ValueError:
        raise InputError("source", "the source is JSON {kind, text, url} or plain text") from None
    if not isinstance(value, dict):
        raise InputError("source", "the source is JSON {kind, text, url} or plain text")
    return SourceInput(
        kind=str(value.get("kind", ""))[:20],
        text=str(value.get("text", "")),
        url=str(value.get("url", "")),
    )


class FileProposalView(APIView):
    """A curator's card file, stored as one open proposal for another curator to review."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]
    throttle_scope = "write"

    @extend_schema(
        summary="Propose a card file (the importer's CSV) as one proposal",
        description="Curators of the game only (403 otherwise). The file is checked whole by "
        "the importer's checks: every problem is refused at once (400) as 'line N, field: "
        "message', and nothing is stored. Approve it through /api/v1/proposals/{id}/approve/ "
        "(without changes): it is written all or nothing, checked again against the "
        "catalogue as it is then.",
        request={"multipart/form-data": FileProposalSerializer},
        responses={201: FileProposalResultSerializer},
    )
    def post(self, request: Request) -> Response:
        given = FileProposalSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        game = get_object_or_404(Game, slug=data["game"])
        source = _source(data["source"])
        spend_proposal(request._request)
        proposal = file_propose(
            curator=request.user,
            game=game,
            upload=data["file"],
            source=source,
            note=data.get("note", ""),
            email_me=data["email_me"],
        )
        body = {
            "id": proposal.pk,
            "status": proposal.status,
            "kind": proposal.kind,
            "summary": proposal.summary,
        }
        return Response(body, status=status.HTTP_201_CREATED)


file_urls = [
    path("proposals/file/", FileProposalView.as_view(), name="proposal-file"),
]
