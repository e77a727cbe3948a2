"""A deck's history in the API: its versions, any version read whole, the difference between
two, reverting to one, two decks compared, and a deck's variants. Mixed into DeckViewSet,
whose reads of a deck (`_readable`, `_owned`) keep private decks to their owners: every deck
here is found through them, and what a deck points at (its parent, its variants) is checked
again by the selectors."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse as api_reverse

from cardsite.api.pagination import StablePagination
from cardsite.catalogue.api.serializers import _DATETIME
from cardsite.catalogue.models import Game
from decks.api.history_serializers import (
    ComparisonSerializer,
    DiffSerializer,
    RevertSerializer,
    VariantCreateSerializer,
    VariantSerializer,
    VersionSerializer,
)
from decks.api.records import deck_etag, deck_record, version_record
from decks.api.responses import PreconditionRequired, content_error, stale_version
from decks.api.serializers import DeckErrorSerializer, DeckSerializer, StaleVersionSerializer
from decks.history.diff import CardLine, diff_states
from decks.history.reads import (
    DifferentGames,
    deck_comparison,
    deck_versions,
    first_kept,
    readable_variants,
)
from decks.models import VERSION_MAX, Deck, DeckVersion
from decks.reading.selectors import deck_for_reader
from decks.services import (
    DeckChart,
    DeckConflict,
    DeckContentError,
    deck_branch,
    deck_revert,
    game_snapshot,
)
from decks.services.history import VersionNotFound, deck_state, state_at, summary
from engines.filters.text import fold

# A deck's id (its share key) as a query parameter: anything else names no deck.
DECK_ID_MAX = Deck._meta.get_field("share_key").max_length
DECK_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{DECK_ID_MAX}}}")
DECK_ID_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": DECK_ID_MAX,
    "pattern": "^[A-Za-z0-9_-]+$",
}
VERSION_SCHEMA = {"type": "integer", "minimum": 1, "maximum": VERSION_MAX}
VERSION_PATH = OpenApiParameter(
    "number",
    VERSION_SCHEMA,
    OpenApiParameter.PATH,
    description=f"A version, 1 to {VERSION_MAX:,}.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description="The deck's ETag as you read it (or send `expected_version`): a stale one "
    "is refused with 412.",
)
ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 201], description="Its version."
)
LOCATION = OpenApiParameter(
    "Location", str, OpenApiParameter.HEADER, response=[201], description="The new deck's URL."
)
NOT_KEPT = OpenApiResponse(description="No such deck, it is private, or no such version kept.")
BAD_VERSION = OpenApiResponse(description=f"A version number outside 1 to {VERSION_MAX:,}.")
STALE = {
    409: OpenApiResponse(StaleVersionSerializer, description="`expected_version` is stale"),
    412: OpenApiResponse(StaleVersionSerializer, description="If-Match is stale"),
}


def version_number(value: str | None, name: str) -> int:
    """A version number from a query string or a path: a whole number from 1 to VERSION_MAX,
    or a 400 naming the parameter and the limit (past it, no version can have been kept: the
    number is wrong, not missing)."""
    # Ten digits at most before int(): a number thousands of digits long is refused unread.
    digits = value is not None and value.isascii() and value.isdigit() and len(value) <= 10
    if not digits or not 1 <= int(value or 0) <= VERSION_MAX:
        raise ValidationError({name: [f"A version is a whole number from 1 to {VERSION_MAX:,}."]})
    return int(value or 0)


def planned_ids(game: Game, cards: list[dict[str, Any]]) -> dict[str, int]:
    """A PATCH's planned cards (each by name or short id) as {short id: quantity}, a card
    named twice counting both; a 400 naming `maybe` for a card the game does not have (the
    service bounds the rest)."""
    snap = game_snapshot(game.slug)
    out: dict[str, int] = {}
    for card in cards:
        found = snap.cards.get(card["id"]) if "id" in card else snap.by_name.get(fold(card["name"]))
        if found is None:
            named = card.get("id") or card.get("name")
            raise ValidationError({"maybe": [f"{named!r} is not a {snap.name} card."]})
        out[found.short_id] = out.get(found.short_id, 0) + card["quantity"]
    return out


def _not_kept(number: int) -> NotFound:
    return NotFound(f"Version {number} of this deck was never kept.")


def _card(line: CardLine, cards_api: str) -> dict[str, Any]:
    """A card by its short id, with its name and its URL in this API while the catalogue
    has it."""
    known = line.url is not None
    return {
        "id": line.short_id,
        "name": line.name if known else None,
        "url": f"{cards_api}{line.short_id}/" if known else None,
    }


def _curve(chart: DeckChart) -> dict[str, Any]:
    return {
        "title": chart.title,
        "x": chart.x_title,
        "labels": list(chart.labels),
        "series": [
            {"deck": side, "values": list(s.values)}
            for side, s in zip("ab", chart.series, strict=True)
        ],
        "note": chart.note,
    }


class DeckHistoryActions:
    """The history actions of DeckViewSet (which provides `_readable` and `_owned`)."""

    request: Request

    def _readable(self, request: Request, id: str) -> Deck:
        raise NotImplementedError

    def _owned(self, request: Request, id: str) -> Deck:
        raise NotImplementedError

    @extend_schema(
        summary="A deck's versions, newest first",
        responses={200: VersionSerializer(many=True)},
    )
    @action(detail=True, methods=["get"])
    def versions(self, request: Request, id: str) -> Response:
        deck = self._readable(request, id)
        paginator = StablePagination()
        page = paginator.paginate_queryset(deck_versions(deck), request, view=self)
        first = first_kept(deck)
        return paginator.get_paginated_response([_version(v, first) for v in page])

    @extend_schema(
        summary="A version of a deck, whole, in the shape of a deck read",
        parameters=[VERSION_PATH],
        responses={200: DeckSerializer, 400: BAD_VERSION, 404: NOT_KEPT},
    )
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>[0-9]+)")
    def version(self, request: Request, id: str, number: str) -> Response:
        deck = self._readable(request, id)
        wanted = version_number(number, "number")
        kept = DeckVersion.objects.filter(deck=deck, number=wanted).first()
        if kept is None:
            raise _not_kept(wanted)
        try:
            return Response(version_record(deck, kept, request))
        except VersionNotFound as exc:
            raise _not_kept(wanted) from exc

    @extend_schema(
        summary="What changed between two versions of a deck",
        parameters=[
            OpenApiParameter(
                "from",
                VERSION_SCHEMA,
                required=True,
                description=f"A kept version, 1 to {VERSION_MAX:,}.",
            ),
            OpenApiParameter(
                "to", VERSION_SCHEMA, description="A kept version; the current one when absent."
            ),
        ],
        responses={200: DiffSerializer, 404: NOT_KEPT},
    )
    @action(detail=True, methods=["get"])
    def diff(self, request: Request, id: str) -> Response:
        deck = self._readable(request, id)
        params = request.query_params
        start = version_number(params.get("from"), "from")
        end = version_number(params["to"], "to") if "to" in params else deck.version
        states = []
        for number in (start, end):
            if number == deck.version:
                states.append(deck_state(deck))
                continue
            try:
                states.append(state_at(deck, number))
            except VersionNotFound as exc:
                raise _not_kept(number) from exc
        found = diff_states(game_snapshot(deck.game.slug), states[0], states[1])
        cards = api_reverse("card-list", request=request)
        return Response(
            {
                "from": start,
                "to": end,
                "added": [
                    {"card": _card(x, cards), "quantity": x.after, "zone": x.zone}
                    for x in found.added
                ],
                "removed": [
                    {"card": _card(x, cards), "quantity": x.before, "zone": x.zone}
                    for x in found.removed
                ],
                "changed": [
                    {"card": _card(x, cards), "zone": x.zone, "from": x.before, "to": x.after}
                    for x in found.changed
                ],
                "settings": {k: {"from": a, "to": b} for k, (a, b) in found.settings.items()},
            }
        )

    @extend_schema(
        summary="Go back to a version of a deck you own, as a new version",
        request=RevertSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={
            200: DeckSerializer,
            400: DeckErrorSerializer,
            404: NOT_KEPT,
            **STALE,
            428: OpenApiResponse(description="Neither If-Match nor expected_version was given"),
        },
    )
    @action(detail=True, methods=["post"])
    def revert(self, request: Request, id: str) -> Response:
        deck = self._owned(request, id)
        body = RevertSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        target = body.validated_data["version"]
        header = request.headers.get("If-Match")
        if header:
            expected = deck.version if header.strip() == deck_etag(deck) else -1
        elif "expected_version" in body.validated_data:
            expected = body.validated_data["expected_version"]
        else:
            raise PreconditionRequired(
                "Send If-Match with the deck's ETag, or expected_version, to revert it."
            )
        try:
            deck = deck_revert(
                deck=deck, expected_version=expected, version=target, author=request.user
            )
        except VersionNotFound as exc:
            raise _not_kept(target) from exc
        except DeckConflict as exc:
            return stale_version(exc, from_header=bool(header))
        except DeckContentError as exc:
            return content_error(exc, "A card of that version has left the catalogue.")
        return Response(deck_record(deck, request), headers={"ETag": deck_etag(deck)})

    @extend_schema(
        summary="Two decks of one game compared",
        parameters=[
            OpenApiParameter("a", DECK_ID_SCHEMA, required=True, description="A deck's id."),
            OpenApiParameter("b", DECK_ID_SCHEMA, required=True, description="Another deck's id."),
        ],
        responses={
            200: ComparisonSerializer,
            404: OpenApiResponse(description="No deck `a` or `b`, or it is private."),
        },
    )
    @action(detail=False, methods=["get"])
    def compare(self, request: Request) -> Response:
        decks = []
        for side in ("a", "b"):
            value = request.query_params.get(side, "")
            if not DECK_ID.fullmatch(value):
                raise ValidationError(
                    {side: [f"A deck's id: 1 to {DECK_ID_MAX} letters, digits, - or _."]}
                )
            deck = deck_for_reader(deck_id=value, user=request.user)
            if deck is None:
                raise NotFound(f"No deck with the id given as {side}, or it is private.")
            decks.append(deck)
        try:
            found = deck_comparison(decks[0], decks[1])
        except DifferentGames as exc:
            raise ValidationError({"b": [f"Decks of one game compare; {exc}"]}) from exc
        cards = api_reverse("card-list", request=request)
        return Response(
            {
                "a": _deck_ref(found.a),
                "b": _deck_ref(found.b),
                "both": [
                    {"card": _card(x, cards), "zone": x.zone, "a": x.before, "b": x.after}
                    for x in found.cards.both
                ],
                "only_a": [
                    {"card": _card(x, cards), "zone": x.zone, "quantity": x.before}
                    for x in found.cards.only_a
                ],
                "only_b": [
                    {"card": _card(x, cards), "zone": x.zone, "quantity": x.after}
                    for x in found.cards.only_b
                ],
                "curves": [_curve(c) for c in found.charts],
            }
        )

    @extend_schema(
        methods=["GET"],
        summary="The variants of a deck that you may see",
        responses={200: VariantSerializer(many=True)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Branch a variant of a deck you can read (of someone else's: a private copy)",
        request=VariantCreateSerializer,
        parameters=[ETAG, LOCATION],
        responses={201: DeckSerializer, 400: DeckErrorSerializer},
    )
    @action(detail=True, methods=["get", "post"], permission_classes=[IsAuthenticatedOrReadOnly])
    def variants(self, request: Request, id: str) -> Response:
        deck = self._readable(request, id)
        if request.method == "POST":
            body = VariantCreateSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            try:
                variant = deck_branch(
                    deck=deck,
                    owner=request.user,
                    name=body.validated_data["name"],
                    note=body.validated_data["note"],
                )
            except DeckContentError as exc:
                return content_error(exc, "A card of this deck has left the catalogue.")
            return Response(
                deck_record(variant, request),
                status=status.HTTP_201_CREATED,
                headers={
                    "ETag": deck_etag(variant),
                    "Location": request.build_absolute_uri(
                        reverse("v1:deck-detail", kwargs={"id": variant.share_key})
                    ),
                },
            )
        paginator = StablePagination()
        page = paginator.paginate_queryset(
            readable_variants(deck, request.user),
            request,
            view=self,
        )
        return paginator.get_paginated_response([_variant(v, request) for v in page])


def _version(version: DeckVersion, first: int) -> dict[str, Any]:
    counts = summary(version.changes, version.steps)
    return {
        "version": version.number,
        "created_at": _DATETIME.to_representation(version.created_at),
        "author": version.author.get_username() if version.author else None,
        "note": version.note,
        "summary": {
            "added": counts.added,
            "removed": counts.removed,
            "changed": counts.changed,
            "copies_added": counts.copies_added,
            "copies_removed": counts.copies_removed,
            "steps": counts.steps,
            "text": counts.words,
        },
        "first": version.number == first,
    }


def _deck_ref(deck: Deck) -> dict[str, Any]:
    return {"id": deck.share_key, "name": deck.name, "version": deck.version}


def _variant(deck: Deck, request: Request) -> dict[str, Any]:
    return {
        "id": deck.share_key,
        "name": deck.name,
        "owner": deck.owner.get_username(),
        "visibility": deck.visibility,
        "version": deck.version,
        "parent_version": deck.parent_version,
        "updated_at": _DATETIME.to_representation(deck.updated_at),
        "url": api_reverse("deck-detail", args=[deck.share_key], request=request),
    }
