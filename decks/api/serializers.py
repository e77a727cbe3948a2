from typing import Any

from django.core.validators import slug_re
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.api.schema import ErrorSerializer
from cardsite.catalogue.models import Game


class RequestedCardSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=160)
    id = serializers.CharField(required=False, max_length=12, help_text="A card's short id.")
    quantity = serializers.IntegerField(min_value=1, max_value=99, default=1)
    zone = serializers.CharField(
        required=False, max_length=20, help_text="Inferred from the card's type when absent."
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if bool(data.get("name")) == bool(data.get("id")):
            raise serializers.ValidationError("Give a card's name or its id, not both.")
        return data


@extend_schema_field(RequestedCardSerializer(many=True))
class CardListField(serializers.Field):
    """A deck's cards, checked as RequestedCardSerializer(many=True) would check them, with
    the same per-card errors, but in plain Python: a 50-card deck spent most of its
    validation building 200 DRF field runs."""

    quantity = RequestedCardSerializer().fields["quantity"]

    def to_internal_value(self, data: Any) -> list[dict[str, Any]]:
        if not isinstance(data, list):
            raise serializers.ValidationError("Expected a list of cards.")
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
        for key, limit in (("name", 160), ("id", 12), ("zone", 20)):
            if key not in item:
                continue
            value = item[key]
            if isinstance(value, int | float) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                problems[key] = ["Not a valid string."]
            elif "\x00" in value:
                problems[key] = ["Null characters are not allowed."]
            elif len(value) > limit:
                problems[key] = [f"Ensure this field has no more than {limit} characters."]
            else:
                card[key] = value.strip()
        if "quantity" in item:
            try:
                card["quantity"] = self.quantity.run_validation(item["quantity"])
            except serializers.ValidationError as exc:
                problems["quantity"] = [str(m) for m in exc.detail]
        if not problems and bool(card.get("name")) == bool(card.get("id")):
            problems["non_field_errors"] = ["Give a card's name or its id, not both."]
        return card, problems


class GameSlugField(serializers.SlugRelatedField):
    """A game, by its slug. What cannot be a slug is refused before the lookup: PostgreSQL
    fails a query holding a NUL character with an error, not an empty result."""

    def to_internal_value(self, data: Any) -> Game:
        if isinstance(data, str) and not slug_re.fullmatch(data):
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)


class DeckInputSerializer(serializers.Serializer):
    game = GameSlugField(slug_field="slug", queryset=Game.objects.all())
    format = serializers.CharField(max_length=40)
    faction = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=60,
        help_text="Inferred from the cards when absent.",
    )
    cards = CardListField(required=False)
    text = serializers.CharField(
        required=False,
        max_length=100_000,
        help_text="A decklist in the text format instead of `cards`.",
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
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=5_000
    )
    visibility = serializers.ChoiceField(
        choices=["private", "unlisted", "public"], default="private"
    )
    code = serializers.CharField(
        required=False, max_length=20_000, help_text="A deck code instead of `cards` or `text`."
    )
    version = serializers.IntegerField(
        required=False, min_value=1, help_text="On update: the version you read (or If-Match)."
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


class DeckPatchSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5_000)
    visibility = serializers.ChoiceField(choices=["private", "unlisted", "public"], required=False)
    format = serializers.CharField(max_length=40, required=False)
    faction = serializers.CharField(required=False, allow_null=True, max_length=60)
    cards = CardListField(required=False)
    text = serializers.CharField(required=False, max_length=100_000)
    version = serializers.IntegerField(required=False, min_value=1)


class DeckEntrySerializer(serializers.Serializer):
    quantity = serializers.IntegerField()
    zone = serializers.CharField()
    card = serializers.DictField(help_text="The card, as /api/v1/cards/{id}/ gives it.")


class DeckSerializer(serializers.Serializer):
    """The shape of a deck read (built by views.deck_record)."""

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
    forked_from = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    legal = serializers.BooleanField()
    problems = ProblemSerializer(many=True)
    counts = serializers.DictField()
    entries = DeckEntrySerializer(many=True)


class GoldfishSerializer(serializers.Serializer):
    runs = serializers.IntegerField(
        default=1000, help_text="Games to simulate (at most 1,000,000)."
    )
    seed = serializers.IntegerField(default=0, help_text="The same seed gives the same answer.")
    policy = serializers.DictField(
        required=False, default=dict, help_text="The game's policy options (see the deck page)."
    )


class GoldfishListSerializer(DeckInputSerializer, GoldfishSerializer):
    pass


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
