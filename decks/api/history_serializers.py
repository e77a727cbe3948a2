"""The shapes of the history endpoints' bodies and answers (decks.api.history builds the
answers by hand; these describe them to the schema, and check what is posted)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from cardsite.api.fields import StrictCharField, StrictIntegerField
from decks.models import VERSION_MAX
from decks.services.history import NOTE_MAX
from decks.services.write import NAME_MAX


class CardRefSerializer(serializers.Serializer):
    """A card named in a diff or a comparison. A card the catalogue no longer has keeps its
    short id, with no name and no URL."""

    id = serializers.CharField(help_text="The card's short id.")
    name = serializers.CharField(allow_null=True)
    url = serializers.URLField(allow_null=True, help_text="The card in this API.")


class SummarySerializer(serializers.Serializer):
    added = serializers.IntegerField(help_text="Cards (by zone) that were not there before.")
    removed = serializers.IntegerField(help_text="Cards (by zone) taken out altogether.")
    changed = serializers.IntegerField(help_text="Cards (by zone) whose quantity changed.")
    copies_added = serializers.IntegerField(help_text="Copies put in, over every card.")
    copies_removed = serializers.IntegerField(help_text="Copies taken out, over every card.")
    steps = serializers.IntegerField(
        help_text="The builder edits folded into this version (1 for any other write): one "
        "author's edits in a row, each within 10 minutes of the one before, are one version."
    )
    text = serializers.CharField(help_text='In words, e.g. "+7 cards, \u22122 (9 changes)".')


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    author = serializers.CharField(allow_null=True, help_text="Null if the account is gone.")
    note = serializers.CharField()
    summary = SummarySerializer()
    first = serializers.BooleanField(
        help_text="The deck's first kept version: created, branched, or (numbered over 1) "
        "where history began to be kept; its summary counts every card as added, and the "
        "versions before it were never kept."
    )


class AddedSerializer(serializers.Serializer):
    card = CardRefSerializer()
    quantity = serializers.IntegerField()
    zone = serializers.CharField(help_text="One of the game's zones, or `maybe` (planned).")


class ChangedSerializer(serializers.Serializer):
    card = CardRefSerializer()
    zone = serializers.CharField(help_text="One of the game's zones, or `maybe` (planned).")


def from_and_to(serializer: type[serializers.Serializer], make: Any) -> None:
    """Declare `from` and `to` on a serializer: `from` is a Python keyword, so no class body
    can name it."""
    serializer._declared_fields["from"] = make()
    serializer._declared_fields["to"] = make()


from_and_to(ChangedSerializer, serializers.IntegerField)


class SettingChangeSerializer(serializers.Serializer):
    """A setting's value before and after."""


# Every setting (decks.services.history.settings_of) is text, and the faction may be none.
from_and_to(SettingChangeSerializer, lambda: serializers.CharField(allow_null=True))


class DiffSerializer(serializers.Serializer):
    added = AddedSerializer(many=True)
    removed = AddedSerializer(many=True, help_text="Each card with the quantity it had in `from`.")
    changed = ChangedSerializer(many=True)
    settings = serializers.DictField(
        child=SettingChangeSerializer(),
        help_text="The settings that differ (name, format, faction, description, visibility).",
    )


from_and_to(DiffSerializer, serializers.IntegerField)


class RevertSerializer(serializers.Serializer):
    version = StrictIntegerField(
        min_value=1, max_value=VERSION_MAX, help_text="The kept version to go back to."
    )
    expected_version = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=VERSION_MAX,
        help_text="The version you read (or send If-Match): one of the two is required.",
    )


class DeckRefSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    version = serializers.IntegerField()


class BothSerializer(serializers.Serializer):
    card = CardRefSerializer()
    zone = serializers.CharField()
    a = serializers.IntegerField(help_text="Its quantity in deck a.")
    b = serializers.IntegerField(help_text="Its quantity in deck b.")


class OnlySerializer(serializers.Serializer):
    card = CardRefSerializer()
    zone = serializers.CharField()
    quantity = serializers.IntegerField()


class CurveSeriesSerializer(serializers.Serializer):
    deck = serializers.ChoiceField(choices=["a", "b"])
    values = serializers.ListField(child=serializers.FloatField())


class CurveSerializer(serializers.Serializer):
    title = serializers.CharField()
    x = serializers.CharField(help_text="What the labels count (a cost, a tier...).")
    labels = serializers.ListField(child=serializers.CharField())
    series = CurveSeriesSerializer(many=True)
    note = serializers.CharField(help_text="What the bars group or leave out; empty if none.")


class ComparisonSerializer(serializers.Serializer):
    a = DeckRefSerializer()
    b = DeckRefSerializer()
    both = BothSerializer(many=True)
    only_a = OnlySerializer(many=True)
    only_b = OnlySerializer(many=True)
    curves = CurveSerializer(many=True)


class VariantSerializer(serializers.Serializer):
    """A deck branched from another, in short."""

    id = serializers.CharField()
    name = serializers.CharField()
    owner = serializers.CharField()
    visibility = serializers.CharField()
    version = serializers.IntegerField()
    parent_version = serializers.IntegerField(
        allow_null=True, help_text="The parent's version it branched from."
    )
    updated_at = serializers.DateTimeField()
    url = serializers.URLField()


class VariantCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=NAME_MAX)
    note = StrictCharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=NOTE_MAX,
        help_text="Kept on the variant's first version.",
    )
