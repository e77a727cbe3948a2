"""The deck resource: list, read, create, replace, change, delete (softly), export and fork;
its history, comparisons and variants are in decks.api.history."""

from __future__ import annotations

from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers as drf_serializers
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from cardsite.api.fields import GAME_SLUGS
from cardsite.api.pagination import StablePagination
from decks.api.goldfish import goldfish_response
from decks.api.history import DeckHistoryActions, planned_ids
from decks.api.records import deck_etag, deck_record
from decks.api.responses import JOB_ACCEPTED, PreconditionRequired, content_error, stale_version
from decks.api.serializers import (
    FORMAT_SLUGS,
    DeckErrorSerializer,
    DeckPatchSerializer,
    DeckSerializer,
    DeckWriteSerializer,
    GoldfishResultSerializer,
    GoldfishSerializer,
    JobSerializer,
    StaleVersionSerializer,
)
from decks.exports.cockatrice import deck_cod
from decks.exports.text import deck_export, export_filename
from decks.models import DELETED_KEEP_DAYS, Deck
from decks.reading.selectors import deck_for_reader, decks_listed
from decks.services import (
    DeckConflict,
    DeckContentError,
    deck_create,
    deck_delete,
    deck_fork,
    deck_update,
    intake_deck,
    intake_posted,
    resolve,
)
from decks.tts import MAX_WAIT, SheetsNotReady, tts_export
from decks.tts.links import LINK_HOURS
from decks.views.exports import attachment
from decks.views.tts import drawing_budgets

EXPORT_KINDS = ("text", "json", "code", "tts", "cod")


def _if_match_version(request: Request, deck: Deck) -> tuple[int | None, bool]:
    """The version the writer read, from If-Match or the body, and whether If-Match gave it."""
    header = request.headers.get("If-Match")
    if header:
        return (deck.version if header.strip() == deck_etag(deck) else -1), True
    version = request.data.get("version") if hasattr(request.data, "get") else None
    return (int(version) if isinstance(version, int) else None), False


def _location(request: Request, deck: Deck) -> str:
    """The absolute URL of a deck's record in this API, for a 201's Location."""
    return request.build_absolute_uri(reverse("v1:deck-detail", kwargs={"id": deck.share_key}))


LOCATION = OpenApiParameter(
    "Location",
    str,
    OpenApiParameter.HEADER,
    response=[201],
    description="The new deck's URL in this API.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description="The deck's ETag as you read it: the write is refused with 412 if it has changed.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, description="304 if the deck has this ETag."
)
DECK_ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 201, 304], description="Its version."
)


class DeckFilterParams(drf_serializers.Serializer):
    # An empty value is no filter, as a form sends a field left empty; so the schema allows it.
    game = drf_serializers.ChoiceField(choices=GAME_SLUGS, required=False, allow_blank=True)
    format = drf_serializers.ChoiceField(choices=FORMAT_SLUGS, required=False, allow_blank=True)
    faction = drf_serializers.CharField(required=False, allow_blank=True)
    card = drf_serializers.CharField(
        required=False, allow_blank=True, help_text="A card's short id or exact name."
    )
    mine = drf_serializers.BooleanField(
        required=False, default=False, help_text="Your own decks, of every visibility."
    )


@extend_schema_view(
    list=extend_schema(
        summary="Public decks (or yours, with mine=true)",
        parameters=[DeckFilterParams],
        responses={200: DeckSerializer(many=True)},
    ),
    retrieve=extend_schema(
        summary="A deck you may read",
        parameters=[IF_NONE_MATCH, DECK_ETAG],
        responses={200: DeckSerializer, 304: OpenApiResponse(description="Not modified")},
    ),
    create=extend_schema(
        summary="Save a new deck",
        request=DeckWriteSerializer,
        parameters=[DECK_ETAG, LOCATION],
        responses={201: DeckSerializer, 400: DeckErrorSerializer},
    ),
    update=extend_schema(
        summary="Replace a deck you own (If-Match or version required)",
        request=DeckPatchSerializer,
        parameters=[IF_MATCH, DECK_ETAG],
        responses={
            200: DeckSerializer,
            400: DeckErrorSerializer,
            409: StaleVersionSerializer,
            412: StaleVersionSerializer,
            428: OpenApiResponse(description="Neither If-Match nor version was given"),
        },
    ),
    partial_update=extend_schema(
        summary="Change a deck you own",
        description=(
            "Each change that changes something makes one version of the deck (see its "
            "versions), with `note` kept on it; a change that changes nothing makes none and "
            "leaves `version` as it was."
        ),
        request=DeckPatchSerializer,
        parameters=[IF_MATCH, DECK_ETAG],
        responses={
            200: DeckSerializer,
            400: DeckErrorSerializer,
            409: StaleVersionSerializer,
            412: StaleVersionSerializer,
        },
    ),
    destroy=extend_schema(
        summary=f"Delete a deck you own (restorable for {DELETED_KEEP_DAYS} days)",
        description=(
            "A soft delete: the deck disappears at once from every read (this API, pages, "
            "lists), and its owner can restore it from My decks on the site for "
            f"{DELETED_KEEP_DAYS} days. After that it is purged for good."
        ),
        responses={204: None},
    ),
)
class DeckViewSet(DeckHistoryActions, viewsets.ViewSet):
    lookup_field = "id"
    lookup_value_regex = "[A-Za-z0-9_-]+"
    permission_classes = [IsAuthenticatedOrReadOnly]
    # list() pages by hand; declared so the schema shows the page and its parameters.
    pagination_class = StablePagination
    # Only for the schema: reads are built by deck_record, writes use the serializers above.
    serializer_class = DeckSerializer

    @property
    def throttle_scope(self) -> str:
        if self.action == "goldfish":
            return "goldfish"
        return "read" if self.request.method in ("GET", "HEAD", "OPTIONS") else "write"

    def _readable(self, request: Request, id: str) -> Deck:
        deck = deck_for_reader(deck_id=id, user=request.user)
        if deck is None:
            raise NotFound("No deck with that id, or it is private.")
        return deck

    def _owned(self, request: Request, id: str) -> Deck:
        deck = self._readable(request, id)
        if deck.owner_id != request.user.id:
            raise PermissionDenied("Only the deck's owner may change it.")
        return deck

    def list(self, request: Request) -> Response:
        params = DeckFilterParams(data=request.query_params)
        params.is_valid(raise_exception=True)
        decks = decks_listed(user=request.user, **params.validated_data)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(decks, request, view=self)
        return paginator.get_paginated_response([deck_record(d, request) for d in page])

    def retrieve(self, request: Request, id: str) -> Response:
        deck = self._readable(request, id)
        if request.headers.get("If-None-Match") == deck_etag(deck):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": deck_etag(deck)})
        return Response(deck_record(deck, request), headers={"ETag": deck_etag(deck)})

    def create(self, request: Request) -> Response:
        body = DeckWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            deck = deck_create(
                owner=request.user,
                game=data["game"],
                format_slug=data["format"],
                name=data["name"],
                description=data["description"],
                visibility=data["visibility"],
                faction=data.get("faction"),
                intake=intake_posted(data),
            )
        except DeckContentError as exc:
            return content_error(exc)
        return Response(
            deck_record(deck, request),
            status=status.HTTP_201_CREATED,
            headers={"ETag": deck_etag(deck), "Location": _location(request, deck)},
        )

    def update(self, request: Request, id: str, partial: bool = False) -> Response:
        deck = self._owned(request, id)
        body = DeckPatchSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        expected, from_header = _if_match_version(request, deck)
        if expected is None and not partial:
            raise PreconditionRequired()
        cards = "cards" in data or "text" in data
        not_settings = ("cards", "text", "version", "maybe", "note")
        try:
            deck = deck_update(
                deck=deck,
                expected_version=expected,
                changes={k: v for k, v in data.items() if k not in not_settings},
                intake=intake_posted({**data, "game": deck.game}) if cards else None,
                maybe=planned_ids(deck.game, data["maybe"]) if "maybe" in data else None,
                author=request.user,
                note=data.get("note", ""),
            )
        except DeckConflict as exc:
            return stale_version(exc, from_header=from_header)
        except DeckContentError as exc:
            return content_error(exc)
        return Response(deck_record(deck, request), headers={"ETag": deck_etag(deck)})

    def partial_update(self, request: Request, id: str) -> Response:
        return self.update(request, id, partial=True)

    def destroy(self, request: Request, id: str) -> Response:
        deck_delete(deck=self._owned(request, id))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Export a deck as text, JSON, a deck code, a Tabletop Simulator object or a "
        "Cockatrice deck",
        description=(
            "`as=cod` answers a Cockatrice deck file (`cockatrice_deck`, XML) as an attachment "
            "named after the deck: the deck's cards in zone `main`, its planned cards in "
            "`side`, each named as the game's Cockatrice card database "
            "(`/api/v1/games/{slug}/export/?as=cockatrice`) names it. "
            "`as=tts` answers the Tabletop Simulator saved object itself (a file for TTS's "
            "Saved Objects folder), as an attachment named after the deck; a private deck's "
            f"sheet links in it are signed and work for {LINK_HOURS} hours. It is answered "
            "once every image sheet it points at is drawn (Tabletop Simulator asks for them "
            f"all at once and never again): the request waits at most {MAX_WAIT:g} s for "
            "that, then answers 429 (code `drawing`) with Retry-After while the drawing goes on."
        ),
        parameters=[
            OpenApiParameter("as", str, enum=[*EXPORT_KINDS]),
            OpenApiParameter(
                "Content-Disposition",
                str,
                OpenApiParameter.HEADER,
                response=[200],
                description="With as=tts or as=cod: an attachment named after the deck.",
            ),
        ],
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            (200, "application/xml"): OpenApiResponse(
                OpenApiTypes.STR, description="With as=cod: the Cockatrice deck file."
            ),
            429: OpenApiResponse(
                description="A rate reached, or (code `drawing`) with as=tts: its image sheets "
                "are still being drawn; ask again after Retry-After."
            ),
        },
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, id: str) -> HttpResponseBase:
        kind = request.query_params.get("as", "text")
        if kind not in EXPORT_KINDS:
            raise ValidationError(
                {"as": [f"Export as text, json, code, tts or cod, not {kind!r}."]}
            )
        deck = self._readable(request, id)
        if kind == "cod":
            body = deck_cod(deck, source_url=request.build_absolute_uri(deck.get_absolute_url()))
            return HttpResponse(
                body,
                content_type="application/xml; charset=utf-8",
                headers={
                    "Content-Disposition": attachment(*export_filename(deck, "cod")),
                    # A private deck's list is its owner's: no shared cache may keep it.
                    "Cache-Control": "private, no-cache",
                },
            )
        if kind == "tts":
            try:
                save = tts_export(deck=deck, now=timezone.now(), **drawing_budgets(request))
            except SheetsNotReady as exc:
                # A 429 naming the limit (the request's wait), as from any other limit: an
                # API client is to come back after Retry-After, and the API answers no 5xx.
                return Response(
                    {"code": "drawing", "detail": str(exc)},
                    status=status.HTTP_429_TOO_MANY_REQUESTS,
                    headers={"Retry-After": str(exc.retry_after)},
                )
            return Response(
                save,
                headers={"Content-Disposition": attachment(*export_filename(deck, "json"))},
            )
        return Response(deck_export(deck, kind))

    @extend_schema(
        summary="Goldfish a deck you can read: simulate solo games",
        request=GoldfishSerializer,
        responses={
            200: GoldfishResultSerializer,
            202: OpenApiResponse(JobSerializer, description=JOB_ACCEPTED),
        },
    )
    @action(detail=True, methods=["post"], permission_classes=[AllowAny])
    def goldfish(self, request: Request, id: str) -> Response:
        deck = self._readable(request, id)
        body = GoldfishSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        resolved = resolve(game=deck.game.slug, intake=intake_deck(deck))
        return goldfish_response(
            request, resolved, body.validated_data, deck.share_key, format_slug=deck.format
        )

    @extend_schema(
        summary="Copy a deck you can read into your own decks",
        request=None,
        parameters=[LOCATION],
        responses={201: DeckSerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def fork(self, request: Request, id: str) -> Response:
        copy = deck_fork(deck=self._readable(request, id), owner=request.user)
        return Response(
            deck_record(copy, request),
            status=status.HTTP_201_CREATED,
            headers={"Location": _location(request, copy)},
        )
