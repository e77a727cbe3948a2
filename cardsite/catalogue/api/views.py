"""Catalogue API. Views only wire selectors and the search compiler to serializers."""

import json
from functools import partial
from typing import Any

from django.db.models import QuerySet
from django.http.response import HttpResponseBase
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from cardsite.api.fields import GAME_SLUG_PARAMETER, GAME_SLUGS
from cardsite.api.pagination import SearchPagination
from cardsite.api.schema import ErrorSerializer
from cardsite.catalogue import selectors
from cardsite.catalogue.api.filters import CardFilter, SetFilter
from cardsite.catalogue.api.serializers import (
    CardSerializer,
    GameDetailSerializer,
    GameSerializer,
    SetSerializer,
    card_records,
)
from cardsite.catalogue.api.shared import (
    KEEP_SECONDS,
    SEARCH_KEEP_BYTES,
    SEARCH_KEEP_SECONDS,
    Answer,
    page_values,
    shared_answer,
    shared_read,
)
from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.catalogue.search import meant, names
from cardsite.catalogue.search.dropped import Dropped
from engines.filters.limits import (
    MAX_FUZZY_CHARS,
    MAX_FUZZY_WORDS,
    MAX_NAME_CHARS,
    MAX_QUERY_DEPTH,
    MAX_QUERY_LENGTH,
    MAX_QUERY_TERMS,
    QUERY_NUMBER_MAX,
    QUERY_NUMBER_MIN,
)
from engines.filters.syntax import QuerySyntaxError


@extend_schema_view(
    list=extend_schema(summary="List the games"),
    retrieve=extend_schema(
        summary="A game, with its stat schema, types, zones, sets and glossary",
        parameters=[GAME_SLUG_PARAMETER],
    ),
)
class GameViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_field = "slug"
    throttle_scope = "read"

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        read = partial(super().list, request, *args, **kwargs)
        return shared_read(request, self, read, name="games", values=page_values(request, self))

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        read = partial(super().retrieve, request, *args, **kwargs)
        return shared_read(request, self, read, name="game", values=[kwargs["slug"]])

    def get_queryset(self) -> QuerySet[Game]:
        if self.action == "retrieve":
            return selectors.game_get_queryset()
        return selectors.game_list()

    def get_serializer_class(self) -> type[serializers.BaseSerializer]:
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer


@extend_schema_view(list=extend_schema(summary="List sets, official and unofficial sample"))
class SetViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = SetSerializer
    throttle_scope = "read"
    filterset_class = SetFilter

    def get_queryset(self) -> QuerySet[CardSet]:
        return selectors.set_list()

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        read = partial(super().list, request, *args, **kwargs)
        return shared_read(
            request,
            self,
            read,
            name="sets",
            values=[request.query_params.getlist("game"), *page_values(request, self)],
        )


class QueryErrorSerializer(ErrorSerializer):
    """A 400 for the card list: a filter naming nothing, or a query that does not parse."""

    position = serializers.IntegerField(
        required=False, help_text="For code=invalid_query: where in `q` parsing stopped."
    )


class NameMissSerializer(ErrorSerializer):
    candidates = serializers.ListField(child=serializers.CharField())


def _filters_key(request: Request) -> str:
    """The list filters a search ran under, canonically: what else its result depends on."""
    names = sorted(set(CardFilter.base_filters) - {"q"})
    return json.dumps([(n, request.query_params.getlist(n)) for n in names])


@extend_schema_view(
    list=extend_schema(
        summary="List or search cards",
        parameters=[
            OpenApiParameter(
                "q",
                str,
                description="A query in the search language (see /syntax). "
                "Terms that cannot apply are ignored and listed in `warnings` (as sentences) "
                "and `dropped` (with the nearest valid term and the query rewritten to use "
                "it); a query none of whose terms can apply matches no card. "
                "`own>=1` (or `is:owned`), `own=0` and other `own` comparisons filter by the "
                "copies the caller's collection holds (pools summed); without a token or "
                "session they are dropped with a warning. "
                f"At most {MAX_QUERY_LENGTH:,} characters, {MAX_QUERY_TERMS} terms and "
                f"{MAX_NAME_CHARS} characters of name words, nested at most {MAX_QUERY_DEPTH} "
                f"deep; numbers between {QUERY_NUMBER_MIN:,} and {QUERY_NUMBER_MAX:,}. "
                "Beyond a limit the answer is a 400 (code=invalid_query) naming it.",
            ),
        ],
        responses={200: CardSerializer(many=True), 400: QueryErrorSerializer},
    ),
    retrieve=extend_schema(
        summary="One card, by its short id; answers If-None-Match with 304",
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The ETag you hold: 304 if the card has not changed.",
            ),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="Its version.",
            ),
        ],
        responses={200: CardSerializer, 304: OpenApiResponse(description="Not modified")},
    ),
)
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = CardSerializer
    throttle_scope = "read"
    filterset_class = CardFilter
    pagination_class = SearchPagination
    lookup_field = "short_id"
    lookup_url_kwarg = "id"

    def get_queryset(self) -> QuerySet[Card]:
        return selectors.card_list()

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        query = request.query_params.get("q", "").strip()
        values = [
            # Stripped, as the search reads it; the filters as given (a filter's value is
            # matched loosely, a set code whatever its case, so two spellings of one set
            # differ here only as one answer kept twice).
            query,
            _filters_key(request),
            *page_values(request, self),
        ]
        searched = bool(query)
        response = shared_answer(
            request,
            self,
            name="cards",
            values=values,
            answer=lambda: self._list(request),
            seconds=SEARCH_KEEP_SECONDS if searched else KEEP_SECONDS,
            most_bytes=SEARCH_KEEP_BYTES if searched else None,
        )
        # Read from other sites by autocard.js (docs/pages/embedding.md): the catalogue is
        # public, and with no Allow-Credentials a browser sends no cookie cross-origin, nor
        # shows another site an answer it sent one with. This endpoint only: no CORS library
        # is a dependency, and no other endpoint needs to be read cross-origin.
        response["Access-Control-Allow-Origin"] = "*"
        return response

    def _list(self, request: Request) -> Answer:
        cards = self.filter_queryset(self.get_queryset())
        query = request.query_params.get("q", "").strip()
        game = request.query_params.get("game")
        warnings: list[Dropped] = []
        suggestions: list[str] = []
        personal = False
        if query:
            try:
                result = selectors.card_search_ids(
                    text=query,
                    game=game,
                    cards=cards,
                    narrowed_by=_filters_key(request),
                    viewer=request.user,
                )
            except QuerySyntaxError as exc:
                return Answer(
                    Response(
                        {"code": "invalid_query", "detail": str(exc), "position": exc.position},
                        status=status.HTTP_400_BAD_REQUEST,
                    )
                )
            cards, warnings = result.ids, result.warnings
            # A search of the reader's collection is theirs alone.
            personal = result.personal
        else:
            cards = cards.values_list("id", flat=True)
        page = list(self.paginate_queryset(cards))
        if query and not page:
            # The same name part as the search page's did-you-mean, `!"exact"` names included.
            suggestions = names.suggestions(meant.typed_name(query), game=game)
        data = card_records(page, self.get_serializer_context())
        response = self.paginator.get_paginated_response(
            data, warnings=warnings, suggestions=suggestions
        )
        return Answer(response, shared=not personal)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        read = partial(super().retrieve, request, *args, **kwargs)
        return shared_read(request, self, read, name="card", values=[kwargs["id"]])

    @extend_schema(
        summary="One card by name: exactly, or forgiving typos and punctuation",
        parameters=[
            OpenApiParameter(
                "game",
                str,
                # Empty is absent, as a form sends a field left empty.
                enum=[*GAME_SLUGS, ""],
                description="Game slug; all games when absent or empty.",
            ),
            OpenApiParameter(
                "fuzzy",
                str,
                description=f"A name, typos and all: at most {MAX_FUZZY_WORDS} words and "
                f"{MAX_FUZZY_CHARS} characters (more is a 400 naming the limit).",
            ),
            OpenApiParameter("exact", str, description="The exact name (case and accents aside)."),
        ],
        responses={200: CardSerializer, 404: NameMissSerializer},
    )
    @action(detail=False, methods=["get"], filterset_class=None, pagination_class=None)
    def named(self, request: Request) -> Response:
        params = request.query_params
        fuzzy, exact = params.get("fuzzy", "").strip(), params.get("exact", "").strip()
        if bool(fuzzy) == bool(exact):
            return Response(
                {"code": "invalid", "detail": "Give exactly one of fuzzy= or exact=."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        game = params.get("game")
        # Checked against the engines before any query: PostgreSQL refuses one holding a NUL.
        if game and not (game in GAME_SLUGS and Game.objects.filter(slug=game).exists()):
            return Response(
                {
                    "code": "invalid",
                    "detail": f"No game {game!r}.",
                    "errors": {"game": [f"No game {game!r}."]},
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        match = (
            names.match_exact(exact, game=game) if exact else names.match_fuzzy(fuzzy, game=game)
        )
        if match.card is None:
            wanted = exact or fuzzy
            code = "ambiguous" if match.candidates else "not_found"
            detail = (
                f"{wanted!r} matches several cards; be more specific."
                if match.candidates
                else f"No card named {wanted!r}."
            )
            return Response(
                {"code": code, "detail": detail, "candidates": match.candidates},
                status=status.HTTP_404_NOT_FOUND,
            )
        card = selectors.card_get(short_id=match.card.short_id)
        return Response(self.get_serializer(card).data)
