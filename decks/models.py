"""Decks people build, and the per-format settings an admin decides where a rulebook is silent."""

import math
import secrets
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

from cardsite.catalogue.models import Card, Faction, Game
from cardsite.natural_keys import depends_on
from decks.proxies.layout import MAX_BACK_OFFSET

# How long a deleted deck can be restored from "My decks" before it is purged for good.
DELETED_KEEP_DAYS = 30


def new_share_key() -> str:
    return secrets.token_urlsafe(12)


class FormatSettingManager(models.Manager["FormatSetting"]):
    def get_by_natural_key(self, game_slug: str, format: str, key: str) -> "FormatSetting":
        return self.get(game__slug=game_slug, format=format, key=key)


class FormatSetting(models.Model):
    """A number a format needs that its rulebook does not give (a deck size it leaves open)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="format_settings")
    format = models.CharField(max_length=40)
    key = models.CharField(max_length=40)
    value = models.PositiveIntegerField(
        null=True, blank=True, help_text="Empty: the rule this setting feeds is not checked."
    )

    # Natural keys (here, on Deck and DeckEntry, and on the catalogue rows they point at) make
    # a dump load into another database without clashing with, or overwriting, rows that
    # happen to have the same integer keys there. See decks/backups/backup.py.
    objects = FormatSettingManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "format", "key"], name="unique_format_setting")
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.format}: {self.key} = {self.value}"

    @depends_on("catalogue.game")
    def natural_key(self) -> tuple[str, str, str]:
        return (*self.game.natural_key(), self.format, self.key)

    def clean(self) -> None:
        engine_format = self.game.engine.format(self.format)
        if engine_format is None:
            raise ValidationError({"format": f"{self.game} has no format {self.format!r}."})
        if self.key not in {s.key for s in engine_format.settings}:
            raise ValidationError({"key": f"The {self.format} format has no setting {self.key!r}."})


class DeckManager(models.Manager["Deck"]):
    def get_by_natural_key(self, share_key: str) -> "Deck":
        return self.get(share_key=share_key)


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
    # The deck this one branched from: a variant of one's own deck, or a copy of someone
    # else's. Shown as the API's `parent`; the field keeps its first name so old backups load.
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    # The parent's version when it branched (None for decks branched before versions were kept).
    parent_version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Set when its owner deletes it: from then on only "My decks" shows it, for restoring,
    # until decks.services.lifecycle.decks_purge removes it for good.
    deleted_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The name folded as card names are (search/text.py), so /decks/?q= matches regardless of
    # case and accents. Kept by a pre_save receiver (decks/signals.py) and by deck_update.
    search_name = models.TextField(blank=True, editable=False)
    # Set while its owner has it built: its copies are taken from their collection (a pool's,
    # if they pooled), competing with their other built decks for the same cards.
    built_at = models.DateTimeField(null=True, blank=True)

    objects = DeckManager()
    # For templates, which cannot read a module's constants.
    keep_deleted_days = DELETED_KEEP_DAYS

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "game", "format"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:deck", args=[self.share_key])

    @property
    def restorable_until(self) -> datetime | None:
        """When a deleted deck stops being restorable (and may be purged); None if not deleted."""
        if self.deleted_at is None:
            return None
        return self.deleted_at + timedelta(days=DELETED_KEEP_DAYS)

    @property
    def days_left(self) -> int:
        """Whole days, rounded up, left to restore a deleted deck (0 once it is too late)."""
        until = self.restorable_until
        if until is None:
            return 0
        return max(0, math.ceil((until - timezone.now()) / timedelta(days=1)))

    def natural_key(self) -> tuple[str]:
        # The share key is unique and already public in the deck's link, so it stays the
        # deck's name in a backup too.
        return (self.share_key,)


class DeckEntryManager(models.Manager["DeckEntry"]):
    def get_by_natural_key(self, share_key: str, short_id: str, zone: str) -> "DeckEntry":
        return self.get(deck__share_key=share_key, card__short_id=short_id, zone=zone)


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    quantity = models.PositiveSmallIntegerField()
    zone = models.CharField(max_length=20)

    objects = DeckEntryManager()

    class Meta:
        ordering = ["zone", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card", "zone"], name="unique_deck_entry"),
            models.CheckConstraint(condition=models.Q(quantity__gte=1), name="positive_quantity"),
        ]
        verbose_name_plural = "deck entries"

    def __str__(self) -> str:
        return f"{self.quantity} {self.card}"

    @depends_on("decks.deck", "catalogue.card")
    def natural_key(self) -> tuple[str, str, str]:
        return (*self.deck.natural_key(), *self.card.natural_key(), self.zone)


class DeckVersionManager(models.Manager["DeckVersion"]):
    def get_by_natural_key(self, share_key: str, number: int) -> "DeckVersion":
        return self.get(deck__share_key=share_key, number=number)


# The largest version number: what a PositiveIntegerField holds on every database. A larger
# one was never kept, and is refused by name wherever one comes in, before any query sees it.
VERSION_MAX = 2_147_483_647


class DeckVersion(models.Model):
    """One saved version of a deck: what changed since the version before it.

    A version stores only its changes (each card as short id, zone, quantity before and
    after; each setting as before and after), so history grows with the edits, not with the
    deck's size times their number. Every KEYFRAME_EVERY-th version, and a deck's first
    recorded one, also holds the whole list and settings (`snapshot`), so rebuilding any
    version reads at most that many rows (decks/services/history.py). Cards are named by
    short id, which survives a catalogue reload, never by row id.
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    # [[short_id, zone, before, after], ...]; the zone "maybe" is the planned cards.
    changes = models.JSONField(default=list, blank=True)
    # {setting: [before, after], ...}
    setting_changes = models.JSONField(default=dict, blank=True)
    # {"cards": [[short_id, zone, quantity], ...], "settings": {...}}, or None.
    snapshot = models.JSONField(null=True, blank=True)
    # The steps the version is made of, in order, each [kind, changes] with kind "edit",
    # "undo" or "redo" and changes as above: the builder's undo and redo read them (so they
    # survive a reload), and a folded version keeps every click it folded. None: a version
    # undo cannot reach past (a deck's creation, or one saved before steps were kept).
    steps = models.JSONField(null=True, blank=True)
    # A builder version still folding: its author's next builder edit within FOLD_WINDOW
    # joins it (decks/services/history.py). Any other write, or a checkpoint, closes it.
    open = models.BooleanField(default=False)

    objects = DeckVersionManager()

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="unique_deck_version")
        ]

    def __str__(self) -> str:
        return f"{self.deck} v{self.number}"

    @depends_on("decks.deck")
    def natural_key(self) -> tuple[str, int]:
        return (*self.deck.natural_key(), self.number)


class MaybeEntryManager(models.Manager["MaybeEntry"]):
    def get_by_natural_key(self, share_key: str, short_id: str) -> "MaybeEntry":
        return self.get(deck__share_key=share_key, card__short_id=short_id)


class MaybeEntry(models.Model):
    """A card planned for a deck, kept beside it: outside the deck and outside validation."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="maybe")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveSmallIntegerField()

    objects = MaybeEntryManager()

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="unique_maybe_entry"),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1), name="positive_maybe_quantity"
            ),
        ]
        verbose_name_plural = "maybe entries"

    def __str__(self) -> str:
        return f"maybe {self.quantity} {self.card}"

    @depends_on("decks.deck", "catalogue.card")
    def natural_key(self) -> tuple[str, str]:
        return (*self.deck.natural_key(), *self.card.natural_key())


def new_job_key() -> str:
    return secrets.token_urlsafe(16)


class Job(models.Model):
    """Work too big to answer inline: a proxy sheet or a goldfish simulation. Its key is the
    capability to read it; a signed-in requester's job is readable by them alone."""

    class Kind(models.TextChoices):
        PROXIES = "proxies"
        GOLDFISH = "goldfish"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    key = models.CharField(max_length=32, unique=True, default=new_job_key, editable=False)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    # Who asked, for the limit on jobs at once: "user:<id>", or "addr:" and a keyed hash of
    # the address (no address is stored).
    client = models.CharField(max_length=80, blank=True)
    # Everything the run needs (card ids, quantities, options), fixed when it was asked for.
    params = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # Runs begun: a worker that dies mid-job leaves it running, and its task comes back once.
    attempts = models.PositiveSmallIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(help_text="Pages to draw, or games to simulate.")
    result = models.FileField(upload_to="jobs/", blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Written every JOB_HEARTBEAT_SECONDS by the process holding the job (its worker, or the web
    # process whose threads queue or run it): once it is older than JOB_HEARTBEAT_STALE_SECONDS
    # that process is gone, and decks.jobs.job_sweep runs the job again or fails it.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["client", "status"], name="job_client_status")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(done__lte=models.F("total")), name="done_le_total"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} job {self.key} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("decks:job", args=[self.key])

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def result_type(self) -> str:
        return "application/pdf" if self.kind == self.Kind.PROXIES else "application/json"

    @property
    def result_filename(self) -> str:
        return f"{self.key}-{self.kind}.{'pdf' if self.kind == self.Kind.PROXIES else 'json'}"


class PrintProfileManager(models.Manager["PrintProfile"]):
    def get_by_natural_key(self, username: str) -> "PrintProfile":
        return self.get(user__username=username)


class PrintProfile(models.Model):
    """A user's printer, as read on the duplex calibration sheet: where it puts a page's back,
    in mm seen from the front, right and up positive. Applied to every proxy sheet the user
    prints that does not give its own offsets."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="print_profile"
    )
    back_offset_x = models.DecimalField(max_digits=2, decimal_places=1, default=Decimal(0))
    back_offset_y = models.DecimalField(max_digits=2, decimal_places=1, default=Decimal(0))
    updated_at = models.DateTimeField(auto_now=True)

    objects = PrintProfileManager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    back_offset_x__gte=-MAX_BACK_OFFSET, back_offset_x__lte=MAX_BACK_OFFSET
                ),
                name="print_back_offset_x_range",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    back_offset_y__gte=-MAX_BACK_OFFSET, back_offset_y__lte=MAX_BACK_OFFSET
                ),
                name="print_back_offset_y_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: back offset {self.back_offset_x}, {self.back_offset_y} mm"

    @depends_on("auth.user")
    def natural_key(self) -> tuple[str]:
        # One profile a user: a backup names it by its user.
        return (self.user.get_username(),)
