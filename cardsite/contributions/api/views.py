"""Proposals to the catalogue, their review, and a card's history, through the API.

Every read answers only what the reader may see: a proposal is its proposer's and its game's
curators' (anyone else gets the same 404 as for one that does not exist); a card's history is
accepted changes only, so it is public like the card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.errors import as_api_error
from cardsite.api.fields import GAME_SLUGS
from cardsite.api.parsers import BoundedJSONParser
from cardsite.api.schema import ErrorSerializer
from cardsite.catalogue.history import card_change_get, card_history, change_record
from cardsite.catalogue.models import Card
from cardsite.catalogue.selectors import card_get, game_get
from cardsite.catalogue.services.edits import card_change_revert, card_confirm, field_labels
from cardsite.contributions import selectors
from cardsite.contributions.api.serializers import (
    ApproveSerializer,
    ChangeSerializer,
    ProposalCreateSerializer,
    ProposalSerializer,
    ProposalUploadSerializer,
    RejectSerializer,
    StaleSerializer,
)
from cardsite.contributions.diffs import proposal_diff
from cardsite.contributions.limits import spend_proposal
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.proposals import (
    ProposalClosed,
    SourceInput,
    StaleProposal,
    proposal_approve,
    proposal_create,
    proposal_reject,
)
from engines.errors import InputError

_NEW_CARD_FIELDS = {"set", "number", "name"}


# The body's own fields; a refusal naming any other is about a key of `changes` (a column of
# the game's card schema), so it is named under `changes`, as `changes.<column>`.
_BODY_FIELDS = {"game", "kind", "card", "changes", "source", "note", "photo", "email_me", "reason"}


def _refused(exc: InputError) -> ValidationError:
    if exc.field in _BODY_FIELDS or not exc.field:
        return as_api_error(exc)
    return ValidationError({"changes": {exc.field: [exc.message]}})


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def proposal_record(proposal: Proposal) -> dict[str, Any]:
    return {
        "id": proposal.pk,
        "status": proposal.status,
        "kind": proposal.kind,
        "game": proposal.game.slug,
        "card": proposal.card.short_id if proposal.card is not None else None,
        "changes": proposal.changes,
        "diff": [
            {"field": line.field, "label": line.label, "from": line.before, "to": line.after}
            for line in proposal_diff(proposal)
        ],
        "source": {
            "kind": proposal.source_kind,
            "text": proposal.source_text,
            "url": proposal.source_url,
        },
        "note": proposal.note,
        "created_at": proposal.created_at,
        "proposer": _username(proposal.proposer),
        "reviewer": _username(proposal.reviewer),
        "reviewed_at": proposal.reviewed_at,
        "reason": proposal.reason,
        # The page's private URL: it checks, as this API does, who may see the photo.
        "photo": reverse("contributions:photo", args=[proposal.pk]) if proposal.photo else None,
    }


def _conflict(detail: str, code: str) -> Response:
    return Response({"code": code, "detail": detail}, status=status.HTTP_409_CONFLICT)


def _stale(exc: StaleProposal) -> Response:
    fields = [
        {"field": f.field, "label": f.label, "then": f.then, "now": f.now, "proposed": f.proposed}
        for f in exc.fields
    ]
    body = {"code": "stale", "detail": str(exc), "fields": fields}
    return Response(body, status=status.HTTP_409_CONFLICT)


def _inferred_kind(card: str | None, changes: dict[str, Any]) -> str:
    if card is None and _NEW_CARD_FIELDS & set(changes):
        return Proposal.Kind.CARD
    return Proposal.Kind.EDIT


def _proposal_or_404(request: Request, pk: int) -> Proposal:
    proposal = selectors.proposal_get(user=request.user, pk=pk)
    if proposal is None:
        raise NotFound("No such proposal.")
    return proposal


def _card_or_404(short_id: str) -> Card:
    card = card_get(short_id=short_id[:12]) if len(short_id) <= 12 else None
    if card is None:
        raise NotFound("No such card.")
    return card


# drf-spectacular names a `pk` path parameter `id` in the schema.
PROPOSAL_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="A proposal's id.")
CARD_ID = OpenApiParameter("id", str, OpenApiParameter.PATH, description="A card's short id.")
CREATE_DESCRIPTION = (
    "Needs a signed-in account at least an hour old (403 before). A JSON body, or multipart "
    "with a `photo` file (then `changes` and `source` are JSON texts in form fields). Refused, "
    "storing nothing: a value the importer would refuse is a 400 naming the field; past 50 "
    "open proposals, or the per-user or per-address budget, a 429 naming the limit. Answers "
    "the proposal, `status: open`."
)


class ProposalsView(ListAPIView[Proposal]):
    """GET /api/v1/proposals/: the proposals you may read; POST: propose."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser, MultiPartParser]
    serializer_class = ProposalSerializer

    @property
    def throttle_scope(self) -> str:
        return "read" if self.request.method in ("GET", "HEAD", "OPTIONS") else "write"

    @extend_schema(
        summary="The proposals you may read: your own, and those of the games you curate",
        parameters=[
            OpenApiParameter("game", str, enum=GAME_SLUGS, description="Only this game's."),
            OpenApiParameter("status", str, enum=Proposal.Status.values),
            OpenApiParameter("kind", str, enum=Proposal.Kind.values),
            OpenApiParameter("mine", bool, description="Only your own."),
        ],
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Proposal]:
        if getattr(self, "swagger_fake_view", False):
            return Proposal.objects.none()
        params = self.request.query_params
        choices = {
            "game": GAME_SLUGS,
            "status": Proposal.Status.values,
            "kind": Proposal.Kind.values,
            "mine": ["true", "false"],
        }
        for name, allowed in choices.items():
            if name in params and params[name] not in allowed:
                raise ValidationError({name: [f"One of: {', '.join(allowed)}."]})
        return selectors.proposals_listed(
            user=self.request.user,
            game=params.get("game", ""),
            status=params.get("status", ""),
            kind=params.get("kind", ""),
            mine=params.get("mine") == "true",
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([proposal_record(p) for p in page or []])

    @extend_schema(
        summary="Propose a card, a change, a ruling, an erratum, an image or a set",
        description=CREATE_DESCRIPTION,
        # JSON only in the schema: the multipart form is proposals/photo/'s operation.
        request={"application/json": ProposalCreateSerializer},
        responses={201: ProposalSerializer},
    )
    def post(self, request: Request) -> Response:
        return _propose(request)


def _propose(request: Request) -> Response:
    """Either content type: a JSON body, or a multipart one carrying a photo."""
    body = ProposalUploadSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    game = game_get(slug=data["game"])
    if game is None:
        raise ValidationError({"game": ["No such game."]})
    card = None
    if data["card"] is not None:
        card = card_get(short_id=data["card"])
        if card is None:
            raise ValidationError({"card": ["No such card."]})
    kind = data.get("kind") or _inferred_kind(data["card"], data["changes"])
    source = data["source"] or {"kind": "", "text": "", "url": ""}
    try:
        spend_proposal(request._request)
        proposal = proposal_create(
            proposer=request.user,
            game=game,
            kind=kind,
            card=card,
            changes=data["changes"],
            source=SourceInput(kind=source["kind"], text=source["text"], url=source["url"]),
            note=data["note"],
            photo=data.get("photo"),
            email_me=data["email_me"] and bool(getattr(request.user, "email", "")),
        )
    except InputError as exc:
        raise _refused(exc) from None
    return Response(proposal_record(proposal), status=status.HTTP_201_CREATED)


class ProposalPhotoView(APIView):
    """POST /api/v1/proposals/photo/: a proposal with a photo, as a multipart body. Its own
    URL, one content type an operation: a generated client cannot call an operation taking
    two (proposals/ reads this body too, for clients that send it there)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]
    throttle_scope = "write"

    @extend_schema(
        summary="Propose with a photo: an image, or the printed card as the source",
        description=CREATE_DESCRIPTION,
        request={"multipart/form-data": ProposalUploadSerializer},
        responses={201: ProposalSerializer},
    )
    def post(self, request: Request) -> Response:
        return _propose(request)


class ProposalDetailView(APIView):
    """GET /api/v1/proposals/{pk}/: one proposal, to its proposer and its game's curators."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "read"

    @extend_schema(
        summary="One proposal (404 to anyone but its proposer and its game's curators)",
        parameters=[PROPOSAL_ID],
        responses={200: ProposalSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(proposal_record(_proposal_or_404(request, pk)))


def _reviewed(
    request: Request,
    pk: int,
    body_class: type[serializers.Serializer[Any]],
    review: Callable[[Proposal, dict[str, Any]], Proposal],
) -> Response:
    """A curator's approval or rejection: the proposal they may read, the body checked, and
    the review's refusals as the API's answers."""
    proposal = _proposal_or_404(request, pk)
    body = body_class(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        reviewed = review(proposal, body.validated_data)
    except StaleProposal as exc:
        return _stale(exc)
    except ProposalClosed as exc:
        return _conflict(str(exc), "closed")
    except InputError as exc:
        raise _refused(exc) from None
    return Response(proposal_record(reviewed))


STALE_RESPONSE = OpenApiResponse(
    StaleSerializer,
    description="`stale`: the card changed since it was proposed, in the fields listed (then, "
    "now, proposed); approve again with `resolve` choosing per field. `closed`: reviewed "
    "already.",
)


class ProposalApproveView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Approve a proposal, optionally with edits (a curator of its game)",
        description="403 for anyone but a curator of the proposal's game, and for its own "
        "proposer. One transaction: the card, its recorded changes and the catalogue version.",
        parameters=[PROPOSAL_ID],
        request=ApproveSerializer,
        responses={200: ProposalSerializer, 409: STALE_RESPONSE},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _reviewed(
            request,
            pk,
            ApproveSerializer,
            lambda proposal, data: proposal_approve(
                proposal=proposal,
                reviewer=request.user,
                edits=data["changes"],
                resolve=data["resolve"],
            ),
        )


class ProposalRejectView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Reject a proposal with a reason (a curator of its game)",
        parameters=[PROPOSAL_ID],
        request=RejectSerializer,
        responses={
            200: ProposalSerializer,
            409: OpenApiResponse(ErrorSerializer, description="`closed`: reviewed already."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        return _reviewed(
            request,
            pk,
            RejectSerializer,
            lambda proposal, data: proposal_reject(
                proposal=proposal, reviewer=request.user, reason=data["reason"]
            ),
        )


class CardHistoryView(APIView):
    """GET /api/v1/cards/{id}/history/: every accepted change of the card, oldest first."""

    permission_classes = [AllowAny]
    throttle_scope = "read"

    @extend_schema(
        summary="A card's history: every accepted change, oldest first",
        parameters=[CARD_ID],
        responses={200: ChangeSerializer(many=True)},
    )
    def get(self, request: Request, id: str) -> Response:
        card = _card_or_404(id)
        labels = field_labels(card.game.engine)
        return Response([change_record(c, labels) for c in card_history(card=card)])


def _curator_of(request: Request, card: Card) -> None:
    if not selectors.is_curator(request.user, card.game_id):
        raise PermissionDenied(f"Only a curator of {card.game.name} may do this.")


class CardRevertView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Revert one change of a card, as a change of its own (a curator of its game)",
        description="201 with the new changes; 204 when the change reverted was the card's "
        "addition, so the card is removed (a 400 naming `change` if decks or collections "
        "hold it).",
        parameters=[
            CARD_ID,
            OpenApiParameter("change", int, OpenApiParameter.PATH, description="A change's id."),
        ],
        request=None,
        responses={201: ChangeSerializer(many=True), 204: None},
    )
    def post(self, request: Request, id: str, change: int) -> Response:
        card = _card_or_404(id)
        _curator_of(request, card)
        found = card_change_get(card=card, pk=change)
        if found is None:
            raise NotFound("No such change of this card.")
        # A refusal names `change`, or the card's own field: the API's handler says so.
        recorded = card_change_revert(change=found, reviewer=request.user)
        if not recorded and found.field == "card":
            return Response(status=status.HTTP_204_NO_CONTENT)
        labels = field_labels(card.game.engine)
        return Response(
            [change_record(c, labels) for c in recorded], status=status.HTTP_201_CREATED
        )


class CardConfirmView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Confirm a community-sourced card (a second curator of its game)",
        description="A 400 naming `card` when it is not community-sourced, is confirmed "
        "already, or you proposed or approved its addition.",
        parameters=[CARD_ID],
        request=None,
        responses={
            200: {
                "type": "object",
                "properties": {"id": {"type": "string"}, "community": {"type": "string"}},
            }
        },
    )
    def post(self, request: Request, id: str) -> Response:
        card = _card_or_404(id)
        _curator_of(request, card)
        confirmed = card_confirm(card=card, curator=request.user)
        return Response({"id": confirmed.short_id, "community": confirmed.community})
