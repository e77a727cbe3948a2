from typing import Any

from rest_framework import serializers

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


class DeckInputSerializer(serializers.Serializer):
    game = serializers.SlugRelatedField(slug_field="slug", queryset=Game.objects.all())
    format = serializers.CharField(max_length=40)
    faction = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=60,
        help_text="Inferred from the cards when absent.",
    )
    cards = RequestedCardSerializer(many=True, required=False)
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
