"""The card catalogue: games, their sets, factions, types, keywords and cards. A game's rules
(stat schema, card types, zones) live in its engine.toml; these hold the data, checked by it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.urls import reverse

from cardsite.catalogue.card_fields import (
    collector_number_problem,
    inferable_fields,
    inferred_problem,
    number_sort_key,
    search_columns,
)
from cardsite.catalogue.game_definitions import stored_engine
from cardsite.natural_keys import depends_on
from engines import ENGINES
from engines.base import GameEngine, StatField

# The largest rarity order every database holds: PostgreSQL's `smallint` (SQLite stores 64
# bits, so without this a value would be kept by one database and refused by the other).
MAX_RARITY_ORDER = 2**15 - 1


class GameManager(models.Manager["Game"]):
    def get_by_natural_key(self, slug: str) -> Game:
        return self.get(slug=slug)


class Game(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    players = models.CharField(max_length=20, blank=True, help_text="Player count, e.g. 2-4.")
    play_time = models.CharField(max_length=40, blank=True)
    description = models.CharField(max_length=300, blank=True, help_text="One line.")
    source = models.TextField(blank=True)
    # Of the engine.toml load_games stored (game_definitions): what Game.engine serves.
    definition_hash = models.CharField(max_length=64, blank=True, editable=False)

    # Natural keys let backups (decks/backups/backup.py, dumpdata --natural-foreign) name rows
    # by what stays the same in a fresh database, where the integer keys come out different.
    objects = GameManager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("catalogue:game", args=[self.slug])

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    @property
    def engine(self) -> GameEngine:
        return stored_engine(self)

    def clean(self) -> None:
        if not self.definition_hash and self.slug not in ENGINES:
            raise ValidationError({"slug": f"No game file declares the game {self.slug!r}."})


class CardSet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sets")
    code = models.CharField(max_length=20)
    name = models.CharField(max_length=120)
    release_date = models.DateField(null=True, blank=True)
    is_official = models.BooleanField(
        default=True, help_text="Unticked: unofficial sample data, labelled so wherever it shows."
    )
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["game__name", "-is_official", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="unique_set_code")]
        verbose_name = "set"

    def __str__(self) -> str:
        label = "" if self.is_official else " (unofficial sample)"
        return f"{self.name} [{self.code}]{label}"


class FactionManager(models.Manager["Faction"]):
    def get_by_natural_key(self, game_slug: str, slug: str) -> Faction:
        return self.get(game__slug=game_slug, slug=slug)


class Faction(models.Model):
    """A faction, race, suit or affiliation: each game calls its colours something else."""

    class Kind(models.TextChoices):
        FACTION = "faction"
        RACE = "race"
        SUIT = "suit"
        AFFILIATION = "affiliation"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="factions")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.FACTION)
    abbreviation = models.CharField(max_length=4, blank=True)
    colour = models.CharField(
        max_length=7,
        default="#777777",
        validators=[RegexValidator(r"^#[0-9a-fA-F]{6}$", "A colour is #RRGGBB.")],
        help_text="Display colour chosen by the site, not a rulebook fact.",
    )
    is_official = models.BooleanField(default=True)
    description = models.TextField(blank=True)
    source = models.TextField(blank=True)

    objects = FactionManager()

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="unique_faction")]

    def __str__(self) -> str:
        return self.name

    @depends_on("catalogue.game")
    def natural_key(self) -> tuple[str, str]:
        return (*self.game.natural_key(), self.slug)


class CardType(models.Model):
    """Mirrors the card types an engine declares; synchronised from it, not edited by hand."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="card_types")
    name = models.CharField(max_length=40)
    slug = models.SlugField(max_length=40)
    zone = models.CharField(max_length=20, blank=True, help_text="Empty: never in a deck.")
    description = models.CharField(max_length=300, blank=True)
    source = models.TextField(blank=True)

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="unique_card_type")]

    def __str__(self) -> str:
        return self.name


class Subtype(models.Model):
    """A classification written beside the type ("Planet — Ice Planet")."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="subtypes")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60)

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="unique_subtype")]

    def __str__(self) -> str:
        return self.name


class Rarity(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rarities")
    name = models.CharField(max_length=30)
    slug = models.SlugField(max_length=30)
    order = models.PositiveSmallIntegerField(
        help_text="Higher is rarer; searches compare on it.",
        # Stated, not left to the backend: SQLite would accept far more than PostgreSQL.
        validators=[MaxValueValidator(MAX_RARITY_ORDER)],
    )
    source = models.TextField(blank=True)

    class Meta:
        ordering = ["game__name", "order"]
        verbose_name_plural = "rarities"
        constraints = [
            models.UniqueConstraint(fields=["game", "slug"], name="unique_rarity"),
            models.UniqueConstraint(fields=["game", "order"], name="unique_rarity_order"),
        ]

    def __str__(self) -> str:
        return self.name


class Keyword(models.Model):
    class Kind(models.TextChoices):
        ATTRIBUTE = "attribute"
        STATUS = "status"
        MECHANIC = "mechanic"
        TRIGGER = "trigger"
        EVERGREEN = "evergreen"
        RACIAL = "racial"
        BATTLE = "battle", "battle keyword"
        EFFECT_TYPE = "effect_type", "effect type"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="keywords")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    abbreviation = models.CharField(max_length=4, blank=True)
    reminder_text = models.TextField(blank=True)
    description = models.TextField(blank=True)
    factions = models.ManyToManyField(
        Faction, blank=True, related_name="keywords", help_text="Races a racial keyword belongs to."
    )
    source = models.TextField(blank=True)

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="unique_keyword")]

    def __str__(self) -> str:
        return self.name


class Term(models.Model):
    """A glossary term the rulebook defines (Bury, Deplete, Nearby...)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="terms")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80)
    text = models.TextField()
    source = models.TextField(blank=True)

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="unique_term")]

    def __str__(self) -> str:
        return self.name


class CardManager(models.Manager["Card"]):
    def get_by_natural_key(self, short_id: str) -> Card:
        return self.get(short_id=short_id)


class Card(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards")
    card_set = models.ForeignKey(
        CardSet, on_delete=models.PROTECT, related_name="cards", verbose_name="set"
    )
    number = models.CharField(max_length=16, help_text="Collector number within the set.")
    number_sort = models.PositiveIntegerField(default=0, editable=False)
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, blank=True, editable=False)
    short_id = models.CharField(max_length=12, unique=True, blank=True, editable=False)
    # Empty where the source does not state the type: a guessed type would be shown, searched
    # and exported as if it were printed on the card.
    card_type = models.ForeignKey(
        CardType,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cards",
        verbose_name="type",
        help_text="Empty: the source does not state the card's type.",
    )
    subtypes = models.ManyToManyField(
        Subtype, blank=True, related_name="cards", verbose_name="classifications"
    )
    factions = models.ManyToManyField(Faction, blank=True, related_name="cards")
    rarity = models.ForeignKey(
        Rarity, null=True, blank=True, on_delete=models.PROTECT, related_name="cards"
    )
    keywords = models.ManyToManyField(Keyword, blank=True, related_name="cards")
    rules_text = models.TextField(blank=True)
    flavour_text = models.TextField(blank=True)
    artist = models.CharField(max_length=120, blank=True)
    art = models.ImageField(upload_to="art/", blank=True)
    stats = models.JSONField(
        default=dict,
        blank=True,
        help_text="Game-specific stats, checked against the game's engine.",
    )
    source = models.TextField(blank=True, help_text="Rulebook section the card's facts come from.")
    notes = models.TextField(blank=True, help_text="What the source leaves out, in words.")
    inferred = models.JSONField(
        default=list,
        blank=True,
        help_text="Fields not stated for this card but copied from the same card in another "
        "faction's deck, on the rulebook's statement that the decks are functionally "
        'identical, named as in catalogue documents, e.g. ["stats.combat_power", "keywords"].',
    )
    # Cards players transcribed (through a reviewed proposal) are official cards of the game,
    # not samples; they stay marked until a second curator confirms them.
    community = models.CharField(
        max_length=10,
        blank=True,
        choices=[
            ("", "not community-sourced"),
            ("sourced", "community-sourced"),
            ("confirmed", "community-sourced, confirmed"),
        ],
        default="",
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # Fingerprint of the imported record, so a re-import leaves unchanged cards (and their
    # Last-Modified dates) alone. A hand edit clears it.
    content_hash = models.CharField(max_length=64, blank=True, editable=False)
    # Folded copies for search (see search/text.py). The database indexes them in ways each
    # backend does best: trigram and full-text GIN indexes on PostgreSQL, FTS5 on SQLite.
    search_name = models.CharField(max_length=160, blank=True, editable=False)
    search_text = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CardManager()

    class Meta:
        ordering = ["game__name", "card_set__code", "number_sort", "number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "number"], name="unique_collector_number"),
        ]
        indexes = [
            models.Index(fields=["game", "name"]),
            models.Index(fields=["name", "id"]),
            models.Index(fields=["search_name"]),
            models.Index(fields=["card_set", "number_sort", "number"]),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        from cardsite.catalogue.short_ids import short_id_candidates
        from engines.base import slugify

        self.number_sort = number_sort_key(self.number)
        self.search_name, self.search_text = search_columns(self.name, self.rules_text)
        self.content_hash = ""
        self.slug = slugify(self.name) or "card"
        if not self.short_id:
            taken = Card.objects.exclude(pk=self.pk).values_list("short_id", flat=True)
            self.short_id = next(
                candidate
                for candidate in short_id_candidates(
                    self.game.slug, self.card_set.code, self.number
                )
                if not taken.filter(short_id=candidate).exists()
            )
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("catalogue:card", args=[self.short_id, self.slug])

    def natural_key(self) -> tuple[str]:
        # The short id alone: unique across games, and derived from game, set and number
        # (short_ids.py), so a re-loaded catalogue gives every card the id it had.
        return (self.short_id,)

    def get_short_url(self) -> str:
        return reverse("catalogue:short-link", args=[self.short_id])

    @property
    def is_sample(self) -> bool:
        return not self.card_set.is_official

    @property
    def is_landscape(self) -> bool:
        """Whether the card's face, and so its back, lies on its side (its engine says which
        types do)."""
        landscape_types = self.game.engine.face.landscape_types
        return self.card_type is not None and self.card_type.name in landscape_types

    def stat_items(self) -> list[tuple[StatField, object]]:
        """The card's stats in the order its game's engine declares them, with their labels."""
        return [
            (spec, self.stats[spec.key])
            for spec in self.game.engine.stats
            if spec.key in self.stats
        ]

    def factions_not_given_label(self) -> str:
        """What stands for a card's factions when it lists none and they are not given (the
        engine's official_factions_not_given, on an official card), or ""."""
        label = self.game.engine.official_factions_not_given
        return label if label and self.card_set.is_official else ""

    def inferred_labels(self) -> list[str]:
        """The labels of the fields whose values are inferred, in the order they are listed."""
        known = inferable_fields(self.game.engine)
        return [known.get(name, name) for name in self.inferred or []]

    def inferred_stat_keys(self) -> set[str]:
        return {name.removeprefix("stats.") for name in self.inferred or [] if "." in name}

    def stat_problems(self) -> dict[str, str]:
        """The engine's verdict on `stats`, keyed by stat name."""
        if not isinstance(self.stats, dict):
            return {"stats": "stats must be an object of name: value"}
        return {e.field: e.message for e in self.game.engine.validate_stats(self.stats)}

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.inferred is None:
            # An emptied admin field arrives as None; "nothing inferred" is the empty list.
            self.inferred = []
        if number_problem := collector_number_problem(self.number or ""):
            errors["number"] = number_problem
        if self.game_id is not None:
            if self.card_set_id and self.card_set.game_id != self.game_id:
                errors["card_set"] = "The set belongs to another game."
            if self.card_type is not None and self.card_type.game_id != self.game_id:
                errors["card_type"] = "The type belongs to another game."
            if self.rarity is not None and self.rarity.game_id != self.game_id:
                errors["rarity"] = "The rarity belongs to another game."
            problems = self.stat_problems()
            if problems:
                errors["stats"] = "; ".join(f"{key}: {msg}" for key, msg in problems.items())
            inferred = inferred_problem(self.inferred, self.game.engine)
            if inferred:
                errors["inferred"] = inferred
        if errors:
            raise ValidationError(errors)


class Ruling(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="rulings")
    position = models.PositiveSmallIntegerField(default=0)
    date = models.DateField(null=True, blank=True)
    text = models.TextField()
    source = models.TextField(blank=True)

    class Meta:
        ordering = ["card", "position", "id"]

    def __str__(self) -> str:
        return f"Ruling on {self.card}"


class Errata(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="errata")
    position = models.PositiveSmallIntegerField(default=0)
    date = models.DateField(null=True, blank=True)
    text = models.TextField()
    source = models.TextField(blank=True)

    class Meta:
        ordering = ["card", "position", "id"]
        verbose_name_plural = "errata"

    def __str__(self) -> str:
        return f"Errata for {self.card}"


class CardChange(models.Model):
    """One accepted change to one field of a card: what it was, what it became, who proposed
    and who approved it, and on what source. A card's history, and where each of its values
    came from (the newest change of that field), are read from these.

    `field` is the card CSV's column name (a stat by its key), "card" for the card's
    addition, or "art" for its image. `proposal` is the contributions app's proposal id, kept
    as a number: the catalogue does not know that app.
    """

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="changes")
    field = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    source = models.JSONField(default=dict, blank=True)
    proposal = models.PositiveIntegerField(null=True, blank=True)
    reverts = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reverted_by"
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["card", "field", "at"])]

    def __str__(self) -> str:
        return f"{self.card} {self.field}"
