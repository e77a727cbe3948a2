"""Decks people build, and the per-format settings an admin decides where a rulebook is silent."""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from cardsite.catalogue.models import Card, Faction, Game


def new_share_key() -> str:
    return secrets.token_urlsafe(12)


class FormatSetting(models.Model):
    """A number a format needs that its rulebook does not give (Conquest of Fates' deck size)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="format_settings")
    format = models.CharField(max_length=40)
    key = models.CharField(max_length=40)
    value = models.PositiveIntegerField(
        null=True, blank=True, help_text="Empty: the rule this setting feeds is not checked."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "format", "key"], name="unique_format_setting")
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.format}: {self.key} = {self.value}"

    def clean(self) -> None:
        engine_format = self.game.engine.format(self.format)
        if engine_format is None:
            raise ValidationError({"format": f"{self.game} has no format {self.format!r}."})
        if self.key not in {s.key for s in engine_format.settings}:
            raise ValidationError({"key": f"The {self.format} format has no setting {self.key!r}."})


class Deck(models.Model):
    class Visibility(models.TextChoices):
        PRIVATE = "private"
        UNLISTED = "unlisted"
        PUBLIC = "public"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="decks")
    format = models.CharField(max_length=40)
    faction = models.ForeignKey(Faction, null=True, blank=True, on_delete=models.PROTECT)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    # The unguessable part of an unlisted deck's link.
    share_key = models.CharField(max_length=32, unique=True, default=new_share_key, editable=False)
    version = models.PositiveIntegerField(default=1, help_text="Increases with every change.")
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "game", "format"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:deck", args=[self.share_key])


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    quantity = models.PositiveSmallIntegerField()
    zone = models.CharField(max_length=20)

    class Meta:
        ordering = ["zone", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card", "zone"], name="unique_deck_entry"),
            models.CheckConstraint(condition=models.Q(quantity__gte=1), name="positive_quantity"),
        ]
        verbose_name_plural = "deck entries"

    def __str__(self) -> str:
        return f"{self.quantity} {self.card}"
