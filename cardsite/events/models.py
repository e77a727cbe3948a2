"""Events an organiser runs: players register a deck before the deadline, which locks the
deck's version then; the organiser enters standings and publishes them with the lists."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from cardsite.catalogue.models import Game
from decks.models import Deck, new_share_key


class Event(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public"
        UNLISTED = "unlisted"

    # The event's id in its URLs and the API: unguessable, so an unlisted event is found by
    # its link only, and no one counts the site's events by trying numbers.
    key = models.CharField(max_length=32, unique=True, default=new_share_key, editable=False)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events"
    )
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    format = models.CharField(max_length=40)
    name = models.CharField(max_length=120)
    starts_at = models.DateTimeField()
    # Decklists are taken until then, and frozen after.
    deadline = models.DateTimeField()
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # Set once the organiser publishes the standings: from then on the lists are open.
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["visibility", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:event", args=[self.key])

    @property
    def format_name(self) -> str:
        """The format's name, or its slug if the game no longer has such a format."""
        fmt = self.game.engine.format(self.format)
        return fmt.name if fmt else self.format

    @property
    def published(self) -> bool:
        return self.published_at is not None


class Registration(models.Model):
    """A player's deck in an event, as it was when they registered: `version` is the deck's
    version number then, and later edits to the deck do not change what is registered."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations"
    )
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="registrations")
    version = models.PositiveIntegerField()
    # The player's final place, entered by the organiser after the event.
    rank = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["player__username", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_event_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}: {self.deck} v{self.version}"
