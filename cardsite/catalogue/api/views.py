"""Read-only catalogue API. Views only wire selectors to serializers."""

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.serializers import BaseSerializer

from cardsite.catalogue import selectors
from cardsite.catalogue.api.filters import CardFilter, SetFilter
from cardsite.catalogue.api.serializers import (
    CardSerializer,
    GameDetailSerializer,
    GameSerializer,
    SetSerializer,
)
from cardsite.catalogue.models import Card, CardSet, Game


@extend_schema_view(
    list=extend_schema(summary="List the games"),
    retrieve=extend_schema(summary="A game, with its stat schema, types, zones, sets and glossary"),
)
class GameViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Game]:
        if self.action == "retrieve":
            return selectors.game_get_queryset()
        return selectors.game_list()

    def get_serializer_class(self) -> type[BaseSerializer]:
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer


@extend_schema_view(list=extend_schema(summary="List sets, official and unofficial sample"))
class SetViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = SetSerializer
    filterset_class = SetFilter

    def get_queryset(self) -> QuerySet[CardSet]:
        return selectors.set_list()


@extend_schema_view(
    list=extend_schema(
        summary="List cards",
        parameters=[
            OpenApiParameter("page_size", int, description="Cards per page, at most 200."),
        ],
    ),
    retrieve=extend_schema(summary="One card, by its short id"),
)
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = CardSerializer
    filterset_class = CardFilter
    lookup_field = "short_id"
    lookup_url_kwarg = "id"

    def get_queryset(self) -> QuerySet[Card]:
        return selectors.card_list()
