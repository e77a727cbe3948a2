"""The collection API's bodies and records."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from cardsite.api.fields import (
    GAME_SLUGS,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
)
from cardsite.collection.models import MAX_QUANTITY, CollectionCard
from cardsite.collection.services import MAX_IMPORT_BYTES

MODES = ("add", "replace")
MODE_HELP = (
    "add (the default): add the listed copies to what is held. replace: each game listed "
    "(or `game`) holds exactly the list afterwards."
)
CONFIRM_EMPTY_HELP = (
    "Needed (true) to replace with a list that names no card (blank, or only comments and "
    "headers), which empties the game's collection; without it that is a 400 naming "
    "`confirm_empty`, and nothing is removed."
)


class CollectionCardSerializer(serializers.Serializer[CollectionCard]):
    id = serializers.CharField(source="card.short_id", help_text="The card's short id.")
    name = serializers.CharField(source="card.name")
    game = serializers.CharField(source="card.game.slug")
    set = serializers.CharField(source="card.card_set.code")
    number = serializers.CharField(source="card.number")
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)


class QuantitySerializer(serializers.Serializer[Any]):
    quantity = StrictIntegerField(
        min_value=0,
        max_value=MAX_QUANTITY,
        help_text=f"Copies of this printing held, 0 to {MAX_QUANTITY}; 0 removes it.",
    )


class HeldSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The card's short id.")
    quantity = serializers.IntegerField(min_value=0, max_value=MAX_QUANTITY)


class ImportTextSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=GAME_SLUGS, help_text="The game the list is for.")
    text = StrictCharField(
        max_length=MAX_IMPORT_BYTES,
        allow_blank=True,
        trim_whitespace=False,
        help_text="Decklist text: `3 Card Name` or `3 Card Name (SET) 12` a line, 1 to "
        f"{MAX_QUANTITY} copies; at most 10,000 lines and 1 MB.",
    )
    mode = serializers.ChoiceField(choices=MODES, default="add", help_text=MODE_HELP)
    confirm_empty = StrictBooleanField(default=False, help_text=CONFIRM_EMPTY_HELP)


class ImportUploadSerializer(serializers.Serializer[Any]):
    csv = serializers.FileField(
        help_text="UTF-8 CSV with a header of set,number,quantity or name,quantity (game and "
        "name columns are read too); at most 10,000 lines and 1 MB."
    )
    game = serializers.ChoiceField(
        choices=GAME_SLUGS,
        required=False,
        help_text="The game, unless the file has a game column.",
    )
    mode = serializers.ChoiceField(choices=MODES, default="add", help_text=MODE_HELP)
    # A form's true, 1 or on: multipart has no JSON booleans.
    confirm_empty = serializers.BooleanField(default=False, help_text=CONFIRM_EMPTY_HELP)


class ImportResultSerializer(serializers.Serializer[Any]):
    printings = serializers.IntegerField(help_text="Printings the import named.")
    copies = serializers.IntegerField(help_text="Copies the import named.")
