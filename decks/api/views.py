from typing import Any

from django.core.cache import cache
from django.http import HttpResponse
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
from rest_framework.exceptions import APIException, NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse as api_reverse
from rest_framework.views import APIView

from cardsite.api.pagination import StablePagination
from cardsite.catalogue.api.serializers import _DATETIME, card_records
from cardsite.catalogue.versioning import catalogue_version
from decks.api.jobs import job_accepted, prefers_async
from decks.api.serializers import (
    CheckResultSerializer,
    DeckErrorSerializer,
    DeckInputSerializer,
    DeckPatchSerializer,
    DeckSerializer,
    DeckWriteSerializer,
    GoldfishListSerializer,
    GoldfishResultSerializer,
    GoldfishSerializer,
    JobSerializer,
    StaleVersionSerializer,
)
from decks.decklist import DeckCodeError, ExportEntry, decode_code, encode_code, parse_text, to_text
from decks.jobs import goldfish_job, proxies_job
from decks.models import Deck
from decks.printing import SheetOrder, deck_order, list_order, print_order
from decks.proxies import ProxyOptionError, parse_options
from decks.selectors import deck_for_reader, decks_listed
from decks.services import (
    UNSAVABLE,
    DeckConflict,
    DeckContentError,
    DeckInputError,
    Entry,
    RequestedCard,
    deck_check,
    deck_create,
    deck_delete,
    deck_entries,
    deck_fork,
    deck_update,
    goldfish_run,
)

JOB_ACCEPTED = (
    "A background job: with `Prefer: respond-async`, or for large work when the site has a "
    "worker. Poll the Location header's URL (the body's `url`); fetch `result_url` once done."
)


class PreconditionRequired(APIException):
    status_code = 428
    default_detail = "Send If-Match with the deck's ETag, or the version you read, to replace it."
    default_code = "precondition_required"


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

    throttle_scope = "validate"
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


# --- decks ---------------------------------------------------------------------------------


def deck_etag(deck: Deck) -> str:
    return f'"deck-{deck.share_key}-v{deck.version}"'


# A deck's record is rebuilt (and its legality checked again) only when something it shows
# changes: the deck (its version and save time), its owner's name, its fork link, or the
# catalogue and format settings (the catalogue version). The rest of the time it is cached.
DECK_RECORD_SECONDS = 10 * 60


def deck_record(deck: Deck, request: Request) -> dict[str, Any]:
    key = ":".join(
        [
            "deck-record",
            deck.share_key,
            str(deck.version),
            deck.updated_at.isoformat(),
            deck.owner.get_username(),
            str(deck.forked_from_id),
            str(catalogue_version()),
            request.get_host(),
        ]
    )
    record = cache.get(key)
    if record is None:
        record = _deck_record(deck, request)
        cache.set(key, record, DECK_RECORD_SECONDS)
    return record


def _deck_record(deck: Deck, request: Request) -> dict[str, Any]:
    entries = list(deck.entries.select_related("card").order_by("zone", "card__name"))
    records = dict(
        zip(
            [e.card_id for e in entries],
            card_records([e.card_id for e in entries], {"request": request}),
            strict=True,
        )
    )
    requested = [RequestedCard.from_entry(e) for e in entries]
    result = deck_check(
        game=deck.game,
        format_slug=deck.format,
        faction=deck.faction.name if deck.faction else None,
        requested=requested,
    )
    forked = deck.forked_from
    return {
        "id": deck.share_key,
        "url": api_reverse("deck-detail", args=[deck.share_key], request=request),
        "share_url": request.build_absolute_uri(deck.get_absolute_url()),
        "owner": deck.owner.get_username(),
        "game": deck.game.slug,
        "format": deck.format,
        "faction": deck.faction.name if deck.faction else None,
        "name": deck.name,
        "description": deck.description,
        "visibility": deck.visibility,
        "version": deck.version,
        "forked_from": forked.share_key if forked else None,
        "created_at": _DATETIME.to_representation(deck.created_at),
        "updated_at": _DATETIME.to_representation(deck.updated_at),
        "legal": result.legal,
        "problems": result.problems,
        "counts": result.counts,
        "entries": [
            {"quantity": e.quantity, "zone": e.zone, "card": records[e.card_id]} for e in entries
        ],
    }


def _deck_cards(data: dict[str, Any], game: Any) -> tuple[list[RequestedCard], list[Any]]:
    if "code" in data:
        decoded = decode_code(data["code"])
        if decoded["game"] != game.slug:
            raise DeckCodeError(f"the code is for {decoded['game']}, not {game.slug}")
        return [RequestedCard(q, None, s, z) for s, q, z in decoded["entries"]], []
    return requested_cards(data)


def _content_error(
    problems: list[dict[str, Any]], detail: str = "Some cards cannot be saved; nothing was saved."
) -> Response:
    return Response(
        {"code": "invalid_cards", "detail": detail, "problems": problems},
        status=status.HTTP_400_BAD_REQUEST,
    )


def _posted_entries(data: dict[str, Any]) -> tuple[list[Entry], list[dict[str, Any]]]:
    """A posted list's cards, and the problems (unknown cards, unreadable lines) that stop
    anything being made from it."""
    requested, list_problems = requested_cards(data)
    result = deck_check(
        game=data["game"],
        format_slug=data["format"],
        requested=requested,
        list_problems=list_problems,
    )
    return result.entries, [p for p in result.problems if p["code"] in UNSAVABLE]


def _if_match_version(request: Request, deck: Deck) -> tuple[int | None, bool]:
    """The version the writer read, from If-Match or the body, and whether If-Match gave it."""
    header = request.headers.get("If-Match")
    if header:
        return (deck.version if header.strip() == deck_etag(deck) else -1), True
    version = request.data.get("version") if hasattr(request.data, "get") else None
    return (int(version) if isinstance(version, int) else None), False


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
    game = drf_serializers.CharField(required=False)
    format = drf_serializers.CharField(required=False)
    faction = drf_serializers.CharField(required=False)
    card = drf_serializers.CharField(required=False, help_text="A card's short id or exact name.")
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
        parameters=[DECK_ETAG],
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
        request=DeckPatchSerializer,
        parameters=[IF_MATCH, DECK_ETAG],
        responses={
            200: DeckSerializer,
            400: DeckErrorSerializer,
            409: StaleVersionSerializer,
            412: StaleVersionSerializer,
        },
    ),
    destroy=extend_schema(summary="Delete a deck you own", responses={204: None}),
)
class DeckViewSet(viewsets.ViewSet):
    lookup_field = "id"
    lookup_value_regex = "[A-Za-z0-9_-]+"
    permission_classes = [IsAuthenticatedOrReadOnly]
    # list() pages by hand; declared so the schema shows the page and its parameters.
    pagination_class = StablePagination

    @property
    def throttle_scope(self) -> str:
        if self.action == "goldfish":
            return "goldfish"
        return "read" if self.request.method in ("GET", "HEAD", "OPTIONS") else "write"

    # Only for the schema: reads are built by deck_record, writes use the serializers above.
    serializer_class = DeckSerializer

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
        serializer = DeckWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            requested, list_problems = _deck_cards(data, data["game"])
            deck = deck_create(
                owner=request.user,
                game=data["game"],
                format_slug=data["format"],
                name=data["name"],
                description=data["description"],
                visibility=data["visibility"],
                faction=data.get("faction"),
                requested=requested,
                list_problems=list_problems,
            )
        except DeckCodeError as exc:
            raise ValidationError({"code": [str(exc)]}) from None
        except DeckContentError as exc:
            return _content_error(exc.problems)
        except DeckInputError as exc:
            raise ValidationError({exc.field: [str(exc)]}) from None
        return Response(
            deck_record(deck, request),
            status=status.HTTP_201_CREATED,
            headers={"ETag": deck_etag(deck)},
        )

    def update(self, request: Request, id: str, partial: bool = False) -> Response:
        deck = self._owned(request, id)
        serializer = DeckPatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        expected, from_header = _if_match_version(request, deck)
        if expected is None and not partial:
            raise PreconditionRequired()
        requested, list_problems = None, []
        if "cards" in data or "text" in data:
            requested, list_problems = requested_cards({**data, "game": deck.game})
        changes = {
            k: data[k]
            for k in ("name", "description", "visibility", "format", "faction")
            if k in data
        }
        if "format" in changes and deck.game.engine.format(changes["format"]) is None:
            raise ValidationError(
                {"format": [f"{deck.game.name} has no format {changes['format']!r}."]}
            )
        try:
            deck = deck_update(
                deck=deck,
                expected_version=expected,
                changes=changes,
                requested=requested,
                list_problems=list_problems,
            )
        except DeckConflict as exc:
            return Response(
                {
                    "code": "stale_version",
                    "detail": f"The deck has changed: it is now at version "
                    f"{exc.current}. Read it again and reapply your change.",
                    "current": exc.current,
                },
                status=status.HTTP_412_PRECONDITION_FAILED
                if from_header
                else status.HTTP_409_CONFLICT,
            )
        except DeckContentError as exc:
            return _content_error(exc.problems)
        except DeckInputError as exc:
            raise ValidationError({exc.field: [str(exc)]}) from None
        return Response(deck_record(deck, request), headers={"ETag": deck_etag(deck)})

    def partial_update(self, request: Request, id: str) -> Response:
        return self.update(request, id, partial=True)

    def destroy(self, request: Request, id: str) -> Response:
        deck_delete(deck=self._owned(request, id))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Export a deck as text, JSON or a deck code",
        parameters=[OpenApiParameter("as", str, enum=["text", "json", "code"])],
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, id: str) -> Response:
        deck = self._readable(request, id)
        kind = request.query_params.get("as", "text")
        entries = list(deck.entries.select_related("card__card_set").order_by("zone", "card__name"))
        if kind == "text":
            text = to_text(
                [
                    ExportEntry(
                        e.quantity, e.card.name, e.zone, e.card.card_set.code, e.card.number
                    )
                    for e in entries
                ],
                deck.game.engine,
                title=f"{deck.name} ({deck.game.name}, {deck.format})",
            )
            return Response({"format": "text", "text": text})
        if kind == "code":
            code = encode_code(
                deck.game.slug,
                deck.format,
                deck.faction.name if deck.faction else None,
                [(e.card.short_id, e.quantity, e.zone) for e in entries],
            )
            return Response({"format": "code", "code": code})
        if kind == "json":
            return Response(
                {
                    "format": "json",
                    "game": deck.game.slug,
                    "format_slug": deck.format,
                    "name": deck.name,
                    "faction": deck.faction.name if deck.faction else None,
                    "cards": [
                        {
                            "id": e.card.short_id,
                            "name": e.card.name,
                            "quantity": e.quantity,
                            "zone": e.zone,
                        }
                        for e in entries
                    ],
                }
            )
        raise ValidationError({"as": [f"Export as text, json or code, not {kind!r}."]})

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
        return _goldfish_response(
            request, deck.game, deck_entries(deck), body.validated_data, deck.share_key
        )

    @extend_schema(
        summary="Copy a deck you can read into your own decks",
        request=None,
        responses={201: DeckSerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def fork(self, request: Request, id: str) -> Response:
        copy = deck_fork(deck=self._readable(request, id), owner=request.user)
        return Response(deck_record(copy, request), status=status.HTTP_201_CREATED)


class DeckProxiesView(APIView):
    """GET /api/v1/decks/{id}/proxies.pdf: the deck's proxies as a PDF."""

    throttle_scope = "proxies"
    permission_classes = [AllowAny]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The PDF bypasses renderers; errors must still be JSON even for Accept: application/pdf.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        summary="Printable proxies of a deck you can read, as a PDF",
        parameters=[
            OpenApiParameter("paper", str, enum=["a4", "letter"]),
            OpenApiParameter("size", str, enum=["63x88", "2.5x3.5"]),
            OpenApiParameter("bleed", float, description="0 to 3 mm, where the page allows"),
            OpenApiParameter("gap", float, description="0 to 10 mm between cards"),
            OpenApiParameter(
                "backs",
                str,
                enum=["0", "1", "false", "true"],
                description="Add mirrored backs pages",
            ),
        ],
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            202: OpenApiResponse(JobSerializer, description=JOB_ACCEPTED),
        },
    )
    def get(self, request: Request, id: str) -> HttpResponse:
        deck = deck_for_reader(deck_id=id, user=request.user)
        if deck is None:
            raise NotFound("No deck with that id, or it is private.")
        try:
            options = parse_options(request.query_params)
        except ProxyOptionError as exc:
            raise ValidationError({exc.option: [exc.message]}) from None
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
        request=DeckInputSerializer,
        parameters=[
            OpenApiParameter("paper", str, enum=["a4", "letter"]),
            OpenApiParameter("size", str, enum=["63x88", "2.5x3.5"]),
            OpenApiParameter("bleed", float),
            OpenApiParameter("gap", float),
            OpenApiParameter("backs", str, enum=["0", "1", "false", "true"]),
        ],
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
        try:
            options = parse_options(request.query_params)
        except ProxyOptionError as exc:
            raise ValidationError({exc.option: [exc.message]}) from None
        entries, unusable = _posted_entries(data)
        if unusable:
            return _content_error(unusable, "Some cards cannot be printed; nothing was made.")
        order = list_order(
            "Card list", data["game"].name, [(e.card, e.quantity) for e in entries], options
        )
        if background := _proxies_job(request, order):
            return background
        return HttpResponse(print_order(order), content_type="application/pdf")


def _proxies_job(request: Request, order: SheetOrder) -> Response | None:
    """A 202 with a job for a large sheet (or when the client prefers to poll), else None."""
    job = proxies_job(order=order, owner=request.user, prefer_async=prefers_async(request))
    return job_accepted(job, request) if job else None


def _goldfish_response(
    request: Request,
    game: Any,
    entries: list[Any],
    data: dict[str, Any],
    deck_key: str | None = None,
) -> Response:
    run = {"runs": data["runs"], "seed": data["seed"], "policy": data["policy"]}
    try:
        job = goldfish_job(
            game=game,
            entries=entries,
            **run,
            owner=request.user,
            deck_key=deck_key,
            prefer_async=prefers_async(request),
        )
        if job is not None:
            return job_accepted(job, request)
        return Response(goldfish_run(game=game, entries=entries, **run))
    except DeckInputError as exc:
        raise ValidationError({exc.field: [str(exc)]}) from None


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
        entries, unusable = _posted_entries(data)
        if unusable:
            return _content_error(unusable, "Some cards are not known; nothing was simulated.")
        return _goldfish_response(request, data["game"], entries, data)
