"""Query-string filters for the card list.

An unknown value is a 400 that names it, not a silently empty page.
"""

from django.db import models
from django.db.models import QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError

from cardsite.api.fields import GAME_SLUGS
from cardsite.catalogue.models import Card, CardSet, CardType, Faction, Game
from engines import ENGINES
from engines.base import slugify

# Games are the engines' (a fixed set, so the schema lists them); sets, factions and types are
# catalogue data. An empty value is no filter, as a form sends a field left empty, so the
# schema allows it.
GAME_FILTER_SCHEMA = {"type": "string", "enum": ENGINES.derived(lambda: [*GAME_SLUGS, ""])}


def _require(
    model: type[models.Model], field: str, lookup: dict[str, str], what: str, value: str
) -> None:
    if not model._default_manager.filter(**lookup).exists():
        raise ValidationError({field: [f"No {what} {value!r}."]})


class CardFilter(filters.FilterSet):
    game = filters.CharFilter(method="filter_game", help_text="Game slug.")
    set = filters.CharFilter(method="filter_set", help_text="Set code, e.g. TAC-SMP.")
    faction = filters.CharFilter(
        method="filter_faction", help_text="Faction, race, suit or affiliation (name or slug)."
    )
    type = filters.CharFilter(method="filter_type", help_text="Card type (name or slug).")

    class Meta:
        model = Card
        fields: list[str] = []

    @extend_schema_field(GAME_FILTER_SCHEMA)
    def filter_game(self, cards: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        game_id = Game.objects.filter(slug=value).values_list("id", flat=True).first()
        if game_id is None:
            raise ValidationError({"game": [f"No game {value!r}."]})
        # By id: filtering on the slug would join the games table into every count.
        return cards.filter(game_id=game_id)

    def filter_set(self, cards: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        _require(CardSet, "set", {"code__iexact": value}, "set", value)
        return cards.filter(card_set__code__iexact=value)

    def filter_faction(self, cards: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        _require(Faction, "faction", {"slug": slugify(value)}, "faction", value)
        return cards.filter(factions__slug=slugify(value))

    def filter_type(self, cards: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        _require(CardType, "type", {"slug": slugify(value)}, "card type", value)
        return cards.filter(card_type__slug=slugify(value))


class SetFilter(filters.FilterSet):
    game = filters.CharFilter(method="filter_game", help_text="Game slug.")

    class Meta:
        model = CardSet
        fields: list[str] = []

    @extend_schema_field(GAME_FILTER_SCHEMA)
    def filter_game(self, sets: QuerySet[CardSet], name: str, value: str) -> QuerySet[CardSet]:
        _require(Game, "game", {"slug": value}, "game", value)
        return sets.filter(game__slug=value)
