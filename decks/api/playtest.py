"""POST /api/v1/playtest/: a deck's playtest table after a seed and a list of actions."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import StrictIntegerField
from cardsite.api.schema import ErrorSerializer
from decks.api.responses import content_error
from decks.api.serializers import DeckErrorSerializer, DeckInputSerializer
from decks.public.presenters import playtest_card
from decks.reading.selectors import deck_for_reader
from decks.services import DeckContentError, intake_deck, intake_posted, resolve
from decks.services.playtest import (
    ActionError,
    playtest_session,
    second_deck_default,
    second_deck_of,
)
from engines.playtest import ACTIONS, MAX_ACTIONS, MAX_AMOUNT, MAX_SEED

ZONE = {"type": "string", "maxLength": 40}
CARD_ID = {"type": "integer", "minimum": 1, "maximum": 10_000}
# Each action's keys and their JSON types; what a key means is in docs/pages/goldfish.md.
ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["do"],
    "additionalProperties": False,
    "properties": {
        "do": {"enum": list(ACTIONS)},
        "card": CARD_ID,
        "cards": {"type": "array", "items": CARD_ID, "maxItems": MAX_AMOUNT},
        "to": ZONE,
        "zone": ZONE,
        "at": {"oneOf": [{"enum": ["top", "bottom"]}, {"type": "integer", "minimum": 0}]},
        "face_up": {"type": "boolean"},
        "n": {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT},
        "counter": ZONE,
        "by": {"type": "integer", "minimum": -MAX_AMOUNT, "maximum": MAX_AMOUNT},
    },
}


def _check(action: Any, n: int) -> dict[str, Any]:
    """An action as ACTION_SCHEMA states it, else the 400 naming it (its meaning is the
    engine's to check, against the table at that point)."""
    where = f"actions[{n}]"
    if not isinstance(action, dict) or "do" not in action:
        raise serializers.ValidationError(f"{where}: an action is an object with a 'do'.")
    for key, value in action.items():
        spec = ACTION_SCHEMA["properties"].get(key)
        if spec is None:
            raise serializers.ValidationError(f"{where}: unknown key {str(key)[:40]!r}.")
        if not _fits(value, spec):
            raise serializers.ValidationError(f"{where}: {key!r} is not as the schema says.")
    return action


def _fits(value: Any, spec: dict[str, Any]) -> bool:
    if "oneOf" in spec:
        return any(_fits(value, s) for s in spec["oneOf"])
    if "enum" in spec:
        return isinstance(value, str) and value in spec["enum"]
    kind = spec["type"]
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str) and len(value) <= spec["maxLength"]
    if kind == "array":
        items = spec["items"]
        return (
            isinstance(value, list)
            and len(value) <= spec["maxItems"]
            and all(_fits(v, items) for v in value)
        )
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return spec.get("minimum", value) <= value <= spec.get("maximum", value)


_LIST_KEYS = ("game", "format", "faction", "cards", "text")


@extend_schema_field({"type": "array", "items": ACTION_SCHEMA, "maxItems": MAX_ACTIONS})
class ActionsField(serializers.Field):
    def to_internal_value(self, data: Any) -> list[dict[str, Any]]:
        if not isinstance(data, list):
            raise serializers.ValidationError("Expected a list of actions.")
        if len(data) > MAX_ACTIONS:
            raise serializers.ValidationError(
                f"At most {MAX_ACTIONS} actions are replayed; got {len(data):,}."
            )
        return [_check(a, n) for n, a in enumerate(data)]

    def to_representation(self, value: Any) -> Any:
        return value


class PlaytestSerializer(DeckInputSerializer):
    # A saved deck's id alone, or a posted list (as DeckInputSerializer's, game by game).
    schema_extra = {
        "oneOf": [
            {"required": ["deck"], "not": {"anyOf": [{"required": [k]} for k in _LIST_KEYS]}},
            {"required": ["game", "format", "cards"], "not": {"required": ["deck"]}},
            {"required": ["game", "format", "text"], "not": {"required": ["deck"]}},
        ],
        "anyOf": DeckInputSerializer.schema_extra["anyOf"],
    }

    deck = serializers.RegexField(
        r"^[A-Za-z0-9_-]{1,32}$",
        required=False,
        help_text="A saved deck's id (one you may read), instead of game, format and cards.",
    )
    # Required: the table is a function of it, and so the body is never empty.
    seed = StrictIntegerField(
        min_value=0,
        max_value=MAX_SEED,
        help_text=f"The shuffle: 0 to {MAX_SEED:,}. The same seed and actions, the same table.",
    )
    actions = ActionsField(
        required=False,
        default=list,
        help_text=f"The moves made by hand, in order (at most {MAX_ACTIONS}).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("game", "format"):
            self.fields[name].required = False

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if "deck" in data:
            if set(_LIST_KEYS) & set(data):
                raise serializers.ValidationError("Give a `deck`, or a game, format and cards.")
            return data
        if "game" not in data or "format" not in data:
            raise serializers.ValidationError("Give a `deck`, or a game, format and cards.")
        return super().validate(data)


class PlaytestErrorSerializer(ErrorSerializer):
    index = serializers.IntegerField(required=False, help_text="The refused action's index.")
    action = serializers.DictField(required=False, help_text="The refused action.")


class PlaytestResultSerializer(serializers.Serializer):
    """Only for the schema: playtest_session builds the body."""

    state = serializers.DictField(
        help_text="turn, step, pending, zones ({zone: [{id, card or null when face down to "
        "the player, face_up, exhausted}]}) and counters."
    )
    legal_actions = serializers.ListField(child=serializers.DictField())
    log = serializers.ListField(child=serializers.CharField())
    table = serializers.DictField(help_text="The game's table: zones, steps and counters.")
    seed = serializers.IntegerField()


class PlaytestView(APIView):
    """Playtest a deck by hand: a pure function of (deck, seed, actions), so nothing is kept."""

    throttle_scope = "validate"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Playtest a deck by hand: the table after a seed and a list of actions",
        request=PlaytestSerializer,
        responses={
            200: PlaytestResultSerializer,
            400: OpenApiResponse(
                PlaytestErrorSerializer,
                description="An invalid body, unknown cards (as validation names them), or an "
                "action the rules do not allow at that point (code invalid_action, with its "
                "index).",
            ),
            404: OpenApiResponse(ErrorSerializer, description="No such deck you may read."),
        },
    )
    def post(self, request: Request) -> Response:
        body = PlaytestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if "deck" in data:
                deck = deck_for_reader(deck_id=data["deck"], user=request.user)
                if deck is None:
                    raise NotFound("No deck with that id, or it is private.")
                resolved = resolve(game=deck.game.slug, intake=intake_deck(deck)).known()
                format_slug = deck.format
            else:
                resolved = resolve(game=data["game"].slug, intake=intake_posted(data)).known()
                format_slug = data["format"]
        except DeckContentError as exc:
            return content_error(exc, "Some cards are not known; nothing was dealt.")
        # As the page deals it by default: a table that takes a second deck (a faction deck's
        # targets) takes its game's default one.
        slot = second_deck_of(resolved, format_slug)
        try:
            answer = playtest_session(
                resolved=resolved,
                seed=data["seed"],
                actions=data["actions"],
                describe=playtest_card,
                second=second_deck_default(resolved, slot) if slot else (),
            )
        except ActionError as exc:
            return Response(
                {
                    "code": "invalid_action",
                    "detail": str(exc),
                    "index": exc.index,
                    "action": data["actions"][exc.index]
                    if 0 <= exc.index < len(data["actions"])
                    else None,
                    "errors": {"actions": [str(exc)]},
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(answer)


__all__ = ["DeckErrorSerializer", "PlaytestView"]
