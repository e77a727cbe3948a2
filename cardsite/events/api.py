"""Events in the API: create one, register a deck, read the registered lists, enter the
standings and publish them. Writes need a session or a token; ids are the events' keys and,
for decks, the decks' ids (share keys)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import GameSlugField, StrictCharField, StrictIntegerField
from cardsite.events.models import Event
from cardsite.events.selectors import RegisteredList, event_for_reader, registered_lists
from cardsite.events.services import (
    MAX_PLAYERS,
    NAME_MAX,
    EventForbidden,
    RegistrationRefused,
    StandingIn,
    event_create,
    event_publish,
    registration_submit,
    standings_set,
)
from cardsite.limits import spend
from decks.api.serializers import FORMAT_SLUGS
from decks.reading.selectors import deck_for_reader
from decks.services import problem_json


class EventWriteSerializer(serializers.Serializer):
    game = GameSlugField()
    format = serializers.ChoiceField(choices=FORMAT_SLUGS, help_text="One of the game's formats.")
    name = StrictCharField(max_length=NAME_MAX)
    starts_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(help_text="Decklists are taken until then.")
    visibility = serializers.ChoiceField(
        choices=Event.Visibility.choices, required=False, default=Event.Visibility.PUBLIC
    )


class RegistrationWriteSerializer(serializers.Serializer):
    deck = StrictCharField(max_length=32, help_text="Your deck's id.")


class StandingSerializer(serializers.Serializer):
    player = StrictCharField(max_length=150, help_text="A registered player's username.")
    rank = StrictIntegerField(min_value=1, max_value=MAX_PLAYERS)


EVENT_CREATED = inline_serializer("EventCreated", {"id": serializers.CharField()})
CARD_LINE = inline_serializer(
    "RegisteredCard",
    {
        "id": serializers.CharField(help_text="The printing's short id."),
        "name": serializers.CharField(),
        "zone": serializers.CharField(),
        "quantity": serializers.IntegerField(),
        "sample": serializers.BooleanField(help_text="An unofficial sample card."),
    },
)


class RegistrationRecordSerializer(serializers.Serializer):
    """A registered list, as a reader may see it."""

    player = serializers.CharField()
    deck = serializers.CharField(allow_null=True, help_text="The deck's name.")
    version = serializers.IntegerField(help_text="The deck's version, locked at registering.")
    rank = serializers.IntegerField(allow_null=True)
    cards = serializers.ListField(
        child=CARD_LINE, allow_null=True, help_text="Null: a private deck's list."
    )
    legal = serializers.BooleanField(allow_null=True)
    problems = serializers.ListField(child=serializers.DictField())
    version_url = serializers.CharField(
        allow_null=True, help_text="The registered version in this API (public decks)."
    )


REGISTRATION = RegistrationRecordSerializer
REGISTRATIONS = RegistrationRecordSerializer(many=True)
REFUSED = inline_serializer(
    "RegistrationRefused",
    {
        "code": serializers.CharField(),
        "detail": serializers.CharField(),
        "problems": serializers.ListField(child=serializers.DictField()),
    },
)


def _event(key: str) -> Event:
    event = event_for_reader(key=key)
    if event is None:
        raise NotFound("No event with that id.")
    return event


def registration_record(listed: RegisteredList) -> dict[str, Any]:
    return {
        "player": listed.player,
        "deck": listed.deck_name or None,
        "version": listed.version,
        "rank": listed.rank,
        "cards": None
        if listed.cards is None
        else [
            {
                "id": c.short_id,
                "name": c.name,
                "zone": c.zone,
                "quantity": c.quantity,
                "sample": c.sample,
            }
            for c in listed.cards
        ],
        "legal": listed.legal,
        "problems": [problem_json(p) for p in listed.problems],
        "version_url": listed.version_url,
    }


class EventsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Create an event you organise",
        request=EventWriteSerializer,
        responses={201: EVENT_CREATED},
    )
    def post(self, request: Request) -> Response:
        body = EventWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        spend(request, "events")
        event = event_create(
            organiser=request.user,
            game=data["game"],
            format_slug=data["format"],
            name=data["name"],
            starts_at=data["starts_at"],
            deadline=data["deadline"],
            visibility=data["visibility"],
        )
        return Response({"id": event.key}, status=status.HTTP_201_CREATED)


class RegistrationsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_throttles(self) -> list[Any]:
        self.throttle_scope = "read" if self.request.method == "GET" else "write"
        return super().get_throttles()

    @extend_schema(
        summary="The registered lists you may read",
        description="The organiser reads every list with its cards and legality; a player "
        "their own; anyone else is refused (403) until the standings are published, and then "
        "reads every list but a private deck's.",
        responses={200: REGISTRATIONS},
    )
    def get(self, request: Request, id: str) -> Response:
        event = _event(id)
        lists = registered_lists(event=event, user=request.user)
        if not (event.published or event.organiser_id == request.user.id or lists):
            raise PermissionDenied("The registered lists are not published yet.")
        return Response([registration_record(r) for r in lists])

    @extend_schema(
        summary="Register one of your decks (or replace your registered list)",
        description=f"Locks the deck's current version. Refused after the deadline, once the "
        f"standings are published, beyond {MAX_PLAYERS} players, and for a deck not legal in the "
        "event's format (400 `illegal_deck`, naming its problems).",
        request=RegistrationWriteSerializer,
        responses={201: REGISTRATION, 400: REFUSED},
    )
    def post(self, request: Request, id: str) -> Response:
        event = _event(id)
        body = RegistrationWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck = deck_for_reader(deck_id=body.validated_data["deck"], user=request.user)
        if deck is None or deck.owner_id != request.user.id:
            raise ValidationError({"deck": ["You have no deck with that id."]})
        try:
            registration_submit(event=event, player=request.user, deck=deck)
        except RegistrationRefused as refused:
            return Response(
                {
                    "code": "illegal_deck",
                    "detail": refused.message,
                    "problems": [problem_json(p) for p in refused.problems],
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        mine = registered_lists(event=event, user=request.user)
        own = next(r for r in mine if r.registration.player_id == request.user.id)
        return Response(registration_record(own), status=status.HTTP_201_CREATED)


class StandingsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Enter the final standings (the organiser)",
        description=f"One rank per registered player, 1 to the number of players (at most "
        f"{MAX_PLAYERS}); replaces any standings entered before. Frozen once published.",
        request=StandingSerializer(many=True),
        responses={200: REGISTRATIONS},
    )
    def post(self, request: Request, id: str) -> Response:
        event = _event(id)
        body = StandingSerializer(data=request.data, many=True, max_length=MAX_PLAYERS)
        body.is_valid(raise_exception=True)
        try:
            standings_set(
                event=event,
                organiser=request.user,
                standings=[StandingIn(s["player"], s["rank"]) for s in body.validated_data],
            )
        except EventForbidden as forbidden:
            raise PermissionDenied(str(forbidden)) from forbidden
        lists = registered_lists(event=event, user=request.user)
        return Response([registration_record(r) for r in lists])


class PublishView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "write"

    @extend_schema(
        summary="Publish the standings and open the lists (the organiser)",
        request=None,
        responses={200: OpenApiResponse(description="Published.", response=EVENT_CREATED)},
    )
    def post(self, request: Request, id: str) -> Response:
        try:
            event = event_publish(event=_event(id), organiser=request.user)
        except EventForbidden as forbidden:
            raise PermissionDenied(str(forbidden)) from forbidden
        return Response({"id": event.key})
