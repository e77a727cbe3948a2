from collections.abc import Iterable
from typing import Any

from django.core.validators import MaxLengthValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.api.fields import GameSlugField, StrictCharField, StrictIntegerField
from cardsite.api.schema import ErrorSerializer
from cardsite.cardlists.decklist import MAX_CODE_CHARS, MAX_QUANTITY
from decks.models import VERSION_MAX
from decks.services.history import NOTE_MAX
from decks.services.intake import MAX_ENTRIES
from decks.services.write import MAX_MAYBE
from engines import ENGINES
from engines.goldfish import MAX_RUNS, PolicyParam

# The schema lists what the engines fix, across every game; which of them a given game has
# (its formats, zones, factions, policy options) is checked against the game, a 400 naming
# the field.
# Each is kept up to date in place as games are loaded (EngineRegistry.derived).
FORMAT_SLUGS = ENGINES.derived(
    lambda: sorted({f.slug for engine in ENGINES.values() for f in engine.formats})
)
ZONE_SLUGS = ENGINES.derived(
    lambda: sorted({z.slug for engine in ENGINES.values() for z in engine.zones})
)


def _kind(default: Any) -> str:
    if isinstance(default, bool):
        return "boolean"
    return "integer" if isinstance(default, int) else "number"


def _policy_schema(params: Iterable[PolicyParam], description: str) -> dict[str, Any]:
    """A `policy` object of these options: each typed like its default, within its range."""
    options: dict[str, dict[str, Any]] = {}
    for param in params:
        option = options.setdefault(param.key, {"type": _kind(param.default)})
        if option["type"] != _kind(param.default):
            raise ValueError(f"policy option {param.key} has two types across the games")
        if param.minimum is not None and param.maximum is not None:
            option["minimum"] = min(option.get("minimum", param.minimum), param.minimum)
            option["maximum"] = max(option.get("maximum", param.maximum), param.maximum)
    return {
        "type": "object",
        "properties": dict(sorted(options.items())),
        "additionalProperties": False,
        "description": description,
    }


# Every game's options, each with the widest range any game gives it; the body's game (or the
# deck's) narrows them to its own.
POLICY_SCHEMA = ENGINES.derived(
    lambda: _policy_schema(
        [p for engine in ENGINES.values() for p in engine.goldfish_policy],
        "The game's policy options (see the deck page); absent ones keep their defaults.",
    )
)


def _by_game(*, policy: bool = False) -> list[dict[str, Any]]:
    """For a body naming its game: what that game allows, one anyOf branch a game, so the
    schema holds a format, zone or policy option to its game as the code does."""
    branches = []
    for slug, engine in sorted(ENGINES.items()):
        properties: dict[str, Any] = {
            "game": {"enum": [slug]},
            "format": {"enum": [f.slug for f in engine.formats]},
            "cards": {"items": {"properties": {"zone": {"enum": [z.slug for z in engine.zones]}}}},
        }
        if policy:
            properties["policy"] = _policy_schema(engine.goldfish_policy, f"{engine.name}'s.")
        branches.append({"properties": properties})
    return branches


# Exactly one of these in a body: the schema says so in JSON Schema, as the code checks it.
CARDS_OR_TEXT = [{"required": ["cards"]}, {"required": ["text"]}]


class RequestedCardSerializer(serializers.Serializer):
    """A card in a posted list: its name or its short id (exactly one), how many, where."""

    schema_extra = {"oneOf": [{"required": ["name"]}, {"required": ["id"]}]}

    name = StrictCharField(required=False, max_length=160)
    id = StrictCharField(required=False, max_length=12, help_text="A card's short id.")
    quantity = StrictIntegerField(min_value=1, max_value=MAX_QUANTITY, default=1)
    zone = serializers.ChoiceField(
        choices=ZONE_SLUGS,
        required=False,
        help_text="One of the game's zones; inferred from the card's type when absent.",
    )


@extend_schema_field(RequestedCardSerializer(many=True))
class CardListField(serializers.Field):
    """A deck's cards, checked as RequestedCardSerializer(many=True) would check them, with
    the same per-card errors, but with its fields run by hand: a 50-card deck spent most of
    its validation building 200 DRF field runs."""

    fields = RequestedCardSerializer().fields
    keys = ("name", "id", "quantity", "zone")

    def __init__(self, **kwargs: Any) -> None:
        # Declared as a validator for the schema's maxItems; checked first, below.
        super().__init__(validators=[MaxLengthValidator(MAX_ENTRIES)], **kwargs)

    def to_internal_value(self, data: Any) -> list[dict[str, Any]]:
        if not isinstance(data, list):
            raise serializers.ValidationError("Expected a list of cards.")
        if len(data) > MAX_ENTRIES:
            raise serializers.ValidationError(
                f"A deck has at most {MAX_ENTRIES} entries; this one has {len(data):,}."
            )
        out, errors, failed = [], [], False
        for item in data:
            card, problems = self._card(item)
            out.append(card)
            errors.append(problems)
            failed = failed or bool(problems)
        if failed:
            raise serializers.ValidationError(errors)
        return out

    def _card(self, item: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
        if not isinstance(item, dict):
            return {}, {"non_field_errors": ["Expected a card: an object with a name or id."]}
        card: dict[str, Any] = {"quantity": 1}
        problems: dict[str, list[str]] = {}
        for key in self.keys:
            if key in item:
                try:
                    card[key] = self.fields[key].run_validation(item[key])
                except serializers.ValidationError as exc:
                    problems[key] = [str(m) for m in exc.detail]
        if not problems and ("name" in card) == ("id" in card):
            problems["non_field_errors"] = ["Give a card's name or its id, not both."]
        return card, problems


class DeckInputSerializer(serializers.Serializer):
    schema_extra = {"oneOf": CARDS_OR_TEXT, "anyOf": ENGINES.derived(_by_game)}

    game = GameSlugField()
    format = serializers.ChoiceField(
        choices=FORMAT_SLUGS, help_text="One of the game's formats (see its formats)."
    )
    faction = StrictCharField(
        required=False,
        allow_null=True,
        max_length=60,
        help_text="One of the game's factions, by name or slug; inferred from the cards when "
        "absent.",
    )
    cards = CardListField(required=False)
    text = StrictCharField(
        required=False,
        max_length=100_000,
        help_text="A decklist in the text format, or a Cockatrice deck file (`.cod` XML: its "
        "main zone the deck, its side zone the planned cards), instead of `cards`.",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("cards" in data) == ("text" in data):
            raise serializers.ValidationError("Give the deck as `cards` or as `text`, not both.")
        if data["game"].engine.format(data["format"]) is None:
            known = ", ".join(f.slug for f in data["game"].engine.formats)
            raise serializers.ValidationError(
                {
                    "format": [
                        f"{data['game'].name} has no format {data['format']!r}; formats: {known}."
                    ]
                }
            )
        return data


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    line = serializers.IntegerField(required=False, allow_null=True)
    suggestions = serializers.ListField(child=serializers.CharField(), required=False)
    source = serializers.CharField(required=False, help_text="The rulebook passage of the rule.")


class DeckErrorSerializer(ErrorSerializer):
    """A 400 for a deck's contents: invalid fields, or cards that cannot be used."""

    problems = ProblemSerializer(
        many=True, required=False, help_text="For code=invalid_cards: the cards at fault."
    )


class StaleVersionSerializer(ErrorSerializer):
    """A write based on an old version of the deck (409, or 412 for If-Match)."""

    current = serializers.IntegerField(help_text="The deck's version now.")


class CheckResultSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    faction = serializers.CharField(allow_null=True)
    problems = ProblemSerializer(many=True)
    counts = serializers.DictField()


class FormatRuleSerializer(serializers.Serializer):
    kind = serializers.CharField()
    description = serializers.CharField()
    sentence = serializers.CharField(
        help_text="The rule as a sentence of its own, with any site setting's value in it."
    )
    severity = serializers.CharField()
    source = serializers.CharField()
    params = serializers.DictField()


class FormatSettingSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)
    help = serializers.CharField()


class FormatSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    needs_faction = serializers.BooleanField()
    settings = FormatSettingSerializer(many=True)
    rules = FormatRuleSerializer(many=True)


class DeckWriteSerializer(DeckInputSerializer):
    schema_extra = {
        "oneOf": [*CARDS_OR_TEXT, {"required": ["code"]}],
        "anyOf": ENGINES.derived(_by_game),
    }

    name = StrictCharField(max_length=120)
    description = StrictCharField(required=False, allow_blank=True, default="", max_length=5_000)
    visibility = serializers.ChoiceField(
        choices=["private", "unlisted", "public"], default="private"
    )
    code = StrictCharField(
        required=False,
        max_length=MAX_CODE_CHARS,
        help_text="A deck code instead of `cards` or `text`.",
    )
    version = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=VERSION_MAX,
        help_text="On update: the version you read (or If-Match).",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in ("cards", "text", "code") if k in data]
        if len(given) != 1:
            raise serializers.ValidationError(
                "Give the deck's cards as one of `cards`, `text` or `code`."
            )
        if "code" in data:
            data = {**data, "cards": []}
            checked = super().validate(data)
            checked.pop("cards")
            return checked
        return super().validate(data)


class PlannedCardSerializer(serializers.Serializer):
    """A planned card: its name or its short id (exactly one), and how many."""

    schema_extra = {"oneOf": [{"required": ["name"]}, {"required": ["id"]}]}

    name = StrictCharField(required=False, max_length=160)
    id = StrictCharField(required=False, max_length=12, help_text="A card's short id.")
    quantity = StrictIntegerField(min_value=1, max_value=MAX_QUANTITY, default=1)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("name" in data) == ("id" in data):
            raise serializers.ValidationError("Give a card's name or its id, not both.")
        return data


class DeckPatchSerializer(serializers.Serializer):
    schema_extra = {"not": {"required": ["cards", "text"]}}

    name = StrictCharField(max_length=120, required=False)
    description = StrictCharField(required=False, allow_blank=True, max_length=5_000)
    visibility = serializers.ChoiceField(choices=["private", "unlisted", "public"], required=False)
    format = serializers.ChoiceField(choices=FORMAT_SLUGS, required=False)
    faction = StrictCharField(required=False, allow_null=True, max_length=60)
    cards = CardListField(required=False)
    text = StrictCharField(required=False, max_length=100_000)
    maybe = serializers.ListField(
        child=PlannedCardSerializer(),
        required=False,
        max_length=MAX_MAYBE,
        help_text=f"The planned cards, all of them (at most {MAX_MAYBE}): they replace the "
        "ones there were. Kept beside the deck, outside its count and its legality.",
    )
    note = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=NOTE_MAX,
        help_text="Kept on the version this change makes (none if it changes nothing).",
    )
    version = StrictIntegerField(required=False, min_value=1, max_value=VERSION_MAX)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if "cards" in data and "text" in data:
            raise serializers.ValidationError("Give the deck as `cards` or as `text`, not both.")
        return data


class DeckEntrySerializer(serializers.Serializer):
    quantity = serializers.IntegerField()
    zone = serializers.CharField()
    card = serializers.DictField(help_text="The card, as /api/v1/cards/{id}/ gives it.")


class ParentSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The deck this one branched from.")
    version = serializers.IntegerField(
        allow_null=True, help_text="Its version when this one branched (null if not known)."
    )


class PlannedEntrySerializer(serializers.Serializer):
    quantity = serializers.IntegerField()
    card = serializers.DictField(help_text="The card, as /api/v1/cards/{id}/ gives it.")


class DeckSerializer(serializers.Serializer):
    """The shape of a deck read (built by decks.api.records)."""

    id = serializers.CharField()
    url = serializers.URLField()
    share_url = serializers.URLField()
    owner = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    faction = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    description = serializers.CharField()
    visibility = serializers.CharField()
    version = serializers.IntegerField()
    forked_from = serializers.CharField(
        allow_null=True, help_text="The parent's id (kept for older clients: see `parent`)."
    )
    parent = ParentSerializer(
        allow_null=True,
        help_text="The deck and version this one branched from; null if none, or if you may "
        "not read it (deleted, or someone else's private deck).",
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    legal = serializers.BooleanField()
    problems = ProblemSerializer(many=True)
    counts = serializers.DictField()
    entries = DeckEntrySerializer(many=True)
    maybe = PlannedEntrySerializer(
        many=True, help_text="The planned cards, outside the deck's count and legality."
    )


@extend_schema_field(POLICY_SCHEMA)
class PolicyField(serializers.DictField):
    pass


class GoldfishSerializer(serializers.Serializer):
    runs = StrictIntegerField(
        default=1000,
        min_value=1,
        max_value=MAX_RUNS,
        error_messages={
            key: f"runs must be between 1 and {MAX_RUNS:,}." for key in ("min_value", "max_value")
        },
        help_text=f"Games to simulate, 1 to {MAX_RUNS:,} (fewer as the policy's games grow "
        "longer).",
    )
    seed = StrictIntegerField(default=0, help_text="The same seed gives the same answer.")
    policy = PolicyField(required=False, default=dict)


class GoldfishListSerializer(DeckInputSerializer, GoldfishSerializer):
    schema_extra = {"oneOf": CARDS_OR_TEXT, "anyOf": ENGINES.derived(lambda: _by_game(policy=True))}


class GoldfishResultSerializer(serializers.Serializer):
    game = serializers.CharField()
    runs = serializers.IntegerField()
    seed = serializers.IntegerField()
    summary = serializers.DictField()
    charts = serializers.DictField()


class JobSerializer(serializers.Serializer):
    """A background job (only for the schema: job_record builds the body)."""

    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=["proxies", "goldfish"])
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    done = serializers.IntegerField(help_text="Pages drawn, or games simulated, so far.")
    total = serializers.IntegerField()
    progress = serializers.FloatField(help_text="done / total, from 0 to 1.")
    error = serializers.CharField(allow_null=True)
    url = serializers.URLField(help_text="This status, to poll.")
    page_url = serializers.URLField(help_text="The same status as a web page.")
    result_url = serializers.URLField(allow_null=True, help_text="The result, once done.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(help_text="When the job and its result are deleted.")
