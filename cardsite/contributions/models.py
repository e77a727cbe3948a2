"""Players' proposals to the catalogue, the curators who review them, and what proposers are
told of the outcome.

The catalogue knows nothing of these: an approval writes the card through the catalogue's
own edit service (cardsite/catalogue/services/edits.py), which records the change with this
proposal's id and source.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from cardsite.catalogue.models import Card, Game

# Proposal photos and bulk files live here, never served as media: only the proposal's own
# view hands them out, to whoever may read the proposal (its proposer and the game's curators).
PRIVATE_FOLDER = "proposals/"


class Curator(models.Model):
    """A user trusted to review one game's proposals."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="curatorships"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="curators")
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["game__name", "user__username"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="unique_curator")]

    def __str__(self) -> str:
        return f"{self.user} curates {self.game}"


class Proposal(models.Model):
    class Kind(models.TextChoices):
        CARD = "card", "new card"
        EDIT = "edit", "change to a card"
        RULING = "ruling", "new ruling"
        ERRATUM = "erratum", "new erratum"
        IMAGE = "image", "card image"
        SET = "set", "new set"
        BULK = "bulk", "card file"

    class Status(models.TextChoices):
        OPEN = "open"
        APPROVED = "approved"
        REJECTED = "rejected"

    class Source(models.TextChoices):
        RULEBOOK = "rulebook", "a rulebook passage"
        PRINTED_CARD = "printed_card", "the printed card (photo)"
        PUBLISHER = "publisher", "a publisher's page"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="proposals")
    # Null for a new card or set; a card removed later takes its proposals' link with it.
    card = models.ForeignKey(
        Card, null=True, blank=True, on_delete=models.SET_NULL, related_name="proposals"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # What is proposed, under the card CSV's column names, and the values those fields had
    # when it was proposed: approving compares them with the card as it is then.
    changes = models.JSONField(default=dict, blank=True)
    base = models.JSONField(default=dict, blank=True)
    source_kind = models.CharField(max_length=20, choices=Source.choices)
    source_text = models.TextField(blank=True)
    source_url = models.URLField(max_length=500, blank=True)
    photo = models.FileField(upload_to=PRIVATE_FOLDER + "photos/", blank=True)
    bulk_file = models.FileField(upload_to=PRIVATE_FOLDER + "files/", blank=True)
    # A card file's diff, counted and sampled when it was proposed.
    summary = models.JSONField(default=dict, blank=True)
    note = models.TextField(blank=True)
    email_me = models.BooleanField(default=False)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)
    # What the approval wrote: the changes as approved, with a curator's edits.
    applied = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["game", "status", "created_at"]),
            models.Index(fields=["proposer", "status"]),
        ]

    def __str__(self) -> str:
        return f"Proposal {self.pk}: {self.get_kind_display()}"

    def source_dict(self) -> dict[str, str | bool]:
        """The source as a card's history records it."""
        return {
            "kind": self.source_kind,
            "text": self.source_text,
            "url": self.source_url,
            "photo": bool(self.photo),
        }


class Notification(models.Model):
    """Something a user is told: the outcome of their proposal."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    proposal = models.ForeignKey(
        Proposal, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return self.text
