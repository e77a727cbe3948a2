from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from cardsite.contributions.models import Curator, Proposal


@admin.register(Curator)
class CuratorAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "added_at", "added_by")
    list_filter = ("game",)
    autocomplete_fields = ("user",)
    readonly_fields = ("added_by",)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            obj.added_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    # Read here; reviewed in the review queue, where approval writes the card and its history.
    list_display = ("id", "game", "kind", "status", "proposer", "created_at")
    list_filter = ("game", "kind", "status")
    readonly_fields = [f.name for f in Proposal._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
