from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from cardsite.catalogue.forms import CardAdminForm
from cardsite.catalogue.models import (
    Card,
    CardSet,
    CardType,
    Errata,
    Faction,
    Game,
    Keyword,
    Rarity,
    Ruling,
    Subtype,
    Term,
)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "players", "play_time"]
    # The slug ties a game to its folder and engine.toml; renaming it here would orphan it.
    readonly_fields = ["slug"]


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "game", "release_date", "is_official"]
    list_filter = ["game", "is_official"]
    search_fields = ["code", "name"]


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "kind", "abbreviation", "colour", "is_official"]
    list_filter = ["game", "kind", "is_official"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(CardType)
class CardTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "zone", "source"]
    list_filter = ["game"]
    # Types come from the engines (see services.game_sync); they are shown, not edited.
    readonly_fields = ["game", "name", "slug", "zone", "description", "source"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Subtype)
class SubtypeAdmin(admin.ModelAdmin):
    list_display = ["name", "game"]
    list_filter = ["game"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Rarity)
class RarityAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "order"]
    list_filter = ["game"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Keyword)
class KeywordAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "kind", "abbreviation", "reminder_text"]
    list_filter = ["game", "kind"]
    search_fields = ["name", "reminder_text"]
    filter_horizontal = ["factions"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Term)
class TermAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "source"]
    list_filter = ["game"]
    search_fields = ["name", "text"]
    prepopulated_fields = {"slug": ["name"]}


class RulingInline(admin.TabularInline):
    model = Ruling
    extra = 0
    fields = ["position", "date", "text", "source"]


class ErrataInline(admin.TabularInline):
    model = Errata
    extra = 0
    fields = ["position", "date", "text", "source"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
    list_display = ["name", "game", "card_set", "number", "card_type", "short_id"]
    list_filter = ["game", "card_set__is_official", "card_type", "factions"]
    search_fields = ["name", "rules_text", "short_id"]
    list_select_related = ["game", "card_set", "card_type"]
    autocomplete_fields = ["card_set"]
    filter_horizontal = ["factions", "keywords", "subtypes"]
    readonly_fields = ["short_id", "slug", "created_at", "updated_at"]
    inlines = [RulingInline, ErrataInline]
    fieldsets = [
        (None, {"fields": ["game", "card_set", "number", "name", "short_id", "slug"]}),
        ("Classification", {"fields": ["card_type", "subtypes", "factions", "rarity", "keywords"]}),
        ("Text", {"fields": ["rules_text", "flavour_text", "artist", "art"]}),
        ("Stats", {"fields": ["stats"]}),
        ("Provenance", {"fields": ["source", "notes", "inferred", "created_at", "updated_at"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Card]:
        return super().get_queryset(request).select_related("game", "card_set", "card_type")
