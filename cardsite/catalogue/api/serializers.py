from typing import Any

from django.core.cache import cache
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cardsite.catalogue.models import (
    Card,
    CardSet,
    Errata,
    Faction,
    Game,
    Keyword,
    Rarity,
    Ruling,
    Term,
)
from cardsite.catalogue.versioning import catalogue_version

# Formats datetimes exactly as a declared DateTimeField would.
_DATETIME = serializers.DateTimeField()


def _entry(entry: Ruling | Errata) -> dict[str, Any]:
    return {
        "date": entry.date.isoformat() if entry.date else None,
        "text": entry.text,
        "source": entry.source,
    }


def _absolute(context: dict[str, Any], path: str) -> str:
    return context["request"].build_absolute_uri(path)


class SetSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    official = serializers.BooleanField(source="is_official")
    card_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = CardSet
        fields = ["game", "code", "name", "release_date", "official", "description", "card_count"]


class SetRefSerializer(serializers.ModelSerializer):
    official = serializers.BooleanField(source="is_official")

    class Meta:
        model = CardSet
        fields = ["code", "name", "official"]


class FactionSerializer(serializers.ModelSerializer):
    official = serializers.BooleanField(source="is_official")

    class Meta:
        model = Faction
        fields = [
            "name",
            "slug",
            "kind",
            "abbreviation",
            "colour",
            "official",
            "description",
            "source",
        ]


class FactionRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Faction
        fields = ["name", "slug", "colour"]


class KeywordSerializer(serializers.ModelSerializer):
    factions = serializers.SlugRelatedField(slug_field="name", many=True, read_only=True)

    class Meta:
        model = Keyword
        fields = [
            "name",
            "slug",
            "kind",
            "abbreviation",
            "reminder_text",
            "description",
            "factions",
            "source",
        ]


class KeywordRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Keyword
        fields = ["name", "slug", "kind", "reminder_text"]


class RaritySerializer(serializers.ModelSerializer):
    class Meta:
        model = Rarity
        fields = ["name", "slug", "order", "source"]


class TermSerializer(serializers.ModelSerializer):
    class Meta:
        model = Term
        fields = ["name", "slug", "text", "source"]


class RulingSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ruling
        fields = ["date", "text", "source"]


class ErrataSerializer(serializers.ModelSerializer):
    class Meta:
        model = Errata
        fields = ["date", "text", "source"]


class CardSerializer(serializers.ModelSerializer):
    id = serializers.CharField(
        source="short_id",
        read_only=True,
        help_text="Short, stable id; also the short link /c/<id>.",
    )
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    short_url = serializers.SerializerMethodField()
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    set = SetRefSerializer(source="card_set", read_only=True)
    type = serializers.CharField(
        source="card_type.name",
        read_only=True,
        allow_null=True,
        help_text="The card type; null where the source does not state it.",
    )
    classifications = serializers.SlugRelatedField(
        source="subtypes", slug_field="name", many=True, read_only=True
    )
    factions = FactionRefSerializer(many=True, read_only=True)
    rarity = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)
    keywords = KeywordRefSerializer(many=True, read_only=True)
    text = serializers.CharField(source="rules_text", read_only=True)
    flavour = serializers.CharField(source="flavour_text", read_only=True)
    art = serializers.SerializerMethodField()
    stats = serializers.SerializerMethodField()
    sample = serializers.BooleanField(
        source="is_sample", read_only=True, help_text="True for unofficial sample data."
    )
    community = serializers.ChoiceField(
        choices=["", "sourced", "confirmed"],
        read_only=True,
        help_text='Added by players: "sourced" (community-sourced, transcribed by a player '
        'and approved by a curator) until a second curator confirms it, then "confirmed"; '
        "empty for a card from the rulebook or the sample set.",
    )
    inferred = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="Fields (named as in catalogue documents, stats as stats.<key>) whose values "
        "are not stated for this card but inferred: from the rulebook's statement that the "
        "factions' decks are functionally identical, or from what a worked example implies "
        "(the card's notes say which).",
    )
    rulings = RulingSerializer(many=True, read_only=True)
    errata = ErrataSerializer(many=True, read_only=True)

    class Meta:
        model = Card
        fields = [
            "id",
            "url",
            "page_url",
            "short_url",
            "game",
            "set",
            "number",
            "name",
            "slug",
            "type",
            "classifications",
            "factions",
            "rarity",
            "keywords",
            "text",
            "flavour",
            "artist",
            "art",
            "stats",
            "sample",
            "community",
            "source",
            "notes",
            "inferred",
            "rulings",
            "errata",
            "updated_at",
        ]

    def to_representation(self, card: Card) -> dict[str, Any]:
        """The same record the declared fields describe (a test holds the two equal), built
        directly: DRF's field machinery costs more than the database for a page of 200."""
        request = self.context["request"]
        bases = getattr(self, "_url_bases", None)
        if bases is None:
            api = reverse("card-list", request=request)
            site = request.build_absolute_uri("/")
            bases = self._url_bases = (api, site)
        api, site = bases
        card_set = card.card_set
        return {
            "id": card.short_id,
            "url": f"{api}{card.short_id}/",
            "page_url": site + card.get_absolute_url().lstrip("/"),
            "short_url": site + card.get_short_url().lstrip("/"),
            "game": card.game.slug,
            "set": {"code": card_set.code, "name": card_set.name, "official": card_set.is_official},
            "number": card.number,
            "name": card.name,
            "slug": card.slug,
            "type": card.card_type.name if card.card_type else None,
            "classifications": [s.name for s in card.subtypes.all()],
            "factions": [
                {"name": f.name, "slug": f.slug, "colour": f.colour} for f in card.factions.all()
            ],
            "rarity": card.rarity.name if card.rarity else None,
            "keywords": [
                {"name": k.name, "slug": k.slug, "kind": k.kind, "reminder_text": k.reminder_text}
                for k in card.keywords.all()
            ],
            "text": card.rules_text,
            "flavour": card.flavour_text,
            "artist": card.artist,
            "art": self.get_art(card),
            "stats": card.stats,
            "sample": not card_set.is_official,
            "community": card.community,
            "source": card.source,
            "notes": card.notes,
            "inferred": list(card.inferred or []),
            "rulings": [_entry(r) for r in card.rulings.all()],
            "errata": [_entry(e) for e in card.errata.all()],
            "updated_at": _DATETIME.to_representation(card.updated_at),
        }

    def get_url(self, card: Card) -> str:
        return reverse("card-detail", args=[card.short_id], request=self.context["request"])

    def get_page_url(self, card: Card) -> str:
        return _absolute(self.context, card.get_absolute_url())

    def get_short_url(self, card: Card) -> str:
        return _absolute(self.context, card.get_short_url())

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_art(self, card: Card) -> str | None:
        return _absolute(self.context, card.art.url) if card.art else None

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
            "description": "The game's stats, by the keys its engine declares (see the game's "
            "stat_schema). A stat the source does not give is absent.",
        }
    )
    def get_stats(self, card: Card) -> dict[str, Any]:
        return card.stats


class StatSchemaSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    kind = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    choices = serializers.ListField(child=serializers.CharField())
    minimum = serializers.IntegerField(allow_null=True)
    maximum = serializers.IntegerField(allow_null=True)
    help = serializers.CharField()


class CardTypeSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    zone = serializers.CharField(allow_null=True)
    source = serializers.CharField()


class ZoneSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()


class GameSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    cards_url = serializers.SerializerMethodField()
    card_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Game
        fields = [
            "slug",
            "name",
            "players",
            "play_time",
            "description",
            "card_count",
            "url",
            "page_url",
            "cards_url",
        ]

    def get_url(self, game: Game) -> str:
        return reverse("game-detail", args=[game.slug], request=self.context["request"])

    def get_page_url(self, game: Game) -> str:
        return _absolute(self.context, game.get_absolute_url())

    def get_cards_url(self, game: Game) -> str:
        base = reverse("card-list", request=self.context["request"])
        return f"{base}?game={game.slug}"


class GameDetailSerializer(GameSerializer):
    source = serializers.CharField()
    stat_schema = serializers.SerializerMethodField()
    card_types = serializers.SerializerMethodField()
    zones = serializers.SerializerMethodField()
    sets = SetSerializer(many=True, read_only=True)
    factions = FactionSerializer(many=True, read_only=True)
    rarities = RaritySerializer(many=True, read_only=True)
    keywords = KeywordSerializer(many=True, read_only=True)
    terms = TermSerializer(many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [
            *GameSerializer.Meta.fields,
            "source",
            "stat_schema",
            "card_types",
            "zones",
            "sets",
            "factions",
            "rarities",
            "keywords",
            "terms",
        ]

    @extend_schema_field(StatSchemaSerializer(many=True))
    def get_stat_schema(self, game: Game) -> list[dict[str, Any]]:
        return [
            {
                "key": s.key,
                "label": s.label,
                "kind": str(s.kind),
                "aliases": list(s.aliases),
                "choices": list(s.choices),
                "minimum": s.minimum,
                "maximum": s.maximum,
                "help": s.help,
            }
            for s in game.engine.stats
        ]

    @extend_schema_field(CardTypeSerializer(many=True))
    def get_card_types(self, game: Game) -> list[dict[str, Any]]:
        return [
            {"name": t.name, "slug": t.slug, "zone": t.zone, "source": t.source}
            for t in game.engine.card_types
        ]

    @extend_schema_field(ZoneSerializer(many=True))
    def get_zones(self, game: Game) -> list[dict[str, Any]]:
        return [
            {"slug": z.slug, "name": z.name, "description": z.description}
            for z in game.engine.zones
        ]


def card_records(ids: list[int], context: dict[str, Any]) -> list[dict[str, Any]]:
    """API records for these card ids, in order, from the cache where it has them.

    Keys carry the catalogue version (bumped by every catalogue write) and the scheme and
    host the absolute URLs were built for, so a cached record is never stale or for another
    site (nor an http:// record served over https).
    """
    from cardsite.catalogue.api.records import card_records_from_rows

    request = context["request"]
    prefix = f"card-record:{catalogue_version()}:{request.build_absolute_uri('/')}:"
    cached = cache.get_many([f"{prefix}{i}" for i in ids])
    missing = [i for i in ids if f"{prefix}{i}" not in cached]
    if missing:
        fresh = card_records_from_rows(missing, request)
        cache.set_many({f"{prefix}{i}": record for i, record in fresh.items()}, timeout=3600)
        cached.update({f"{prefix}{i}": record for i, record in fresh.items()})
    return [cached[f"{prefix}{i}"] for i in ids if f"{prefix}{i}" in cached]
