from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from cardsite.api.errors import as_form_error
from cardsite.catalogue.art import ART_LIMITS, check_art
from cardsite.catalogue.models import Card
from engines.errors import InputError


class ArtField(forms.ImageField):
    """An image upload refused, by its header alone, when it is larger than card art may be.

    Checked before ImageField's own reading of the file, which would decode it to verify it."""

    def to_python(self, data: Any) -> Any:
        if data not in self.empty_values and hasattr(data, "read"):
            try:
                check_art(data)
            except InputError as exc:
                raise ValidationError(as_form_error(exc), code="art_too_large") from None
        return super().to_python(data)


class CardAdminForm(forms.ModelForm):
    """Card editing for curators: stats are checked against the game's engine, naming bad keys."""

    class Meta:
        model = Card
        fields = [
            "game",
            "card_set",
            "number",
            "name",
            "card_type",
            "subtypes",
            "factions",
            "rarity",
            "keywords",
            "rules_text",
            "flavour_text",
            "artist",
            "art",
            "stats",
            "source",
            "notes",
            "inferred",
        ]
        field_classes = {"art": ArtField}
        help_texts = {
            "stats": 'A JSON object, e.g. {"cq": 3}. Leave out a stat the source does not give.',
            "art": ART_LIMITS.capitalize() + ".",
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        game = data.get("game")
        if game is None:
            return data
        for field_name in ("card_set", "card_type", "rarity"):
            related = data.get(field_name)
            if related is not None and related.game_id != game.id:
                self.add_error(field_name, f"{related} belongs to another game than {game}.")
        for field_name in ("factions", "keywords", "subtypes"):
            strays = [str(obj) for obj in data.get(field_name) or [] if obj.game_id != game.id]
            if strays:
                self.add_error(field_name, f"Not {game} entries: {', '.join(strays)}.")
        stats = data.get("stats")
        if stats is not None:
            if not isinstance(stats, dict):
                self.add_error(
                    "stats", 'Stats must be a JSON object of stat: value, e.g. {"cq": 3}.'
                )
            else:
                for error in game.engine.validate_stats(stats):
                    self.add_error("stats", f"{error.field}: {error.message}")
        return data
