"""Request body fields held to the JSON types the schema gives them.

The API reads JSON only (cardsite/api/parsers.py), so a client always can send the type the
schema says. DRF's own fields are lenient the way an HTML form needs: an integer field takes
"12" and 12.0, a boolean "yes" or 1, a string field 12. Each of those is a request the schema
calls invalid, so here it is a 400 rather than a guess. Query parameters arrive as text and
keep DRF's fields.

Games are the engines' (a fixed set), so wherever a game's slug is taken the schema lists them.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers

from cardsite.catalogue.models import Game
from engines import ENGINES


class StrictBooleanField(serializers.BooleanField):
    """JSON's true or false only."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only: not "12", not 12.0, not true."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string only: not 12, not true. Its length is held to max_length as sent, before
    any trimming, as the schema's maxLength counts it."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


# Kept up to date in place as games are loaded (EngineRegistry.derived), so every field and
# schema holding this list takes a game loaded after the process started.
GAME_SLUGS = ENGINES.derived(lambda: sorted(ENGINES))
GAME_SCHEMA = {"type": "string", "enum": GAME_SLUGS, "description": "A game's slug."}
# A game's slug in a path: any other is a 404.
GAME_SLUG_PARAMETER = OpenApiParameter("slug", str, OpenApiParameter.PATH, enum=GAME_SLUGS)


@extend_schema_field(GAME_SCHEMA)
class GameSlugField(serializers.SlugRelatedField):
    """A game, by its slug: one of the engines' slugs, so the schema can list them. Anything
    else is refused before the lookup (PostgreSQL fails a query holding a NUL character with
    an error, not an empty result)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="slug", queryset=Game.objects.all(), **kwargs)

    def to_internal_value(self, data: Any) -> Game:
        if not isinstance(data, str) or data not in ENGINES:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)
