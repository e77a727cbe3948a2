"""A game's cards as plain values, built once per catalogue version and shared.

Checking a deck needs, for each card, only a few facts (type, zone, factions, keywords,
stats). Building ORM instances for them on every request cost most of a validation's time,
although the cards had not changed. So each game's cards, factions and format settings are
read once into a `GameSnapshot`, kept in the shared cache under the catalogue version (which
every catalogue or format-setting write moves), and memoised in the process for as long as
that version holds: a warm deck check reads no card from the database at all.

The format settings are rows of the decks app, which sits above this module: it hands over
their reader when it starts (`read_format_settings_with`, from decks/apps.py), so they are read
and cached with the cards while this module imports nothing from that app.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from cardsite.catalogue.models import Card, Faction, Game
from cardsite.catalogue.versioning import catalogue_version
from engines.base import GameEngine, slugify
from engines.filters.text import fold
from engines.rules import DeckCard

SNAPSHOT_SECONDS = 24 * 60 * 60

# A game's (format slug, setting key, value) rows, by the game's id; none until the decks
# app hands over its reader.
FormatSettingRows = Callable[[int], Iterable[tuple[str, str, Any]]]
_format_settings: list[FormatSettingRows] = []


def read_format_settings_with(reader: FormatSettingRows) -> None:
    _format_settings[:] = [reader]


@dataclass(frozen=True)
class SnapCard:
    pk: int
    short_id: str
    name: str
    slug: str
    card_type: str | None
    # The zone the card's type goes in (None: no type, or a type never in a deck).
    type_zone: str | None
    factions: tuple[str, ...]
    keywords: tuple[str, ...]
    subtypes: tuple[str, ...]
    stats: Mapping[str, object]
    text: str
    set_code: str
    number: str
    official: bool
    # The card's faction is not given (GameEngine.official_factions_not_given), not none.
    factions_not_given: bool = False

    def get_absolute_url(self) -> str:
        return reverse("catalogue:card", args=[self.short_id, self.slug])

    def deck_card(self, quantity: int, zone: str) -> DeckCard:
        return DeckCard(
            key=self.short_id,
            name=self.name,
            card_type=self.card_type or "",
            zone=zone,
            quantity=quantity,
            factions=self.factions,
            keywords=self.keywords,
            subtypes=self.subtypes,
            stats=self.stats,
            text=self.text,
            unstated=("factions",) if self.factions_not_given else (),
        )


@dataclass(frozen=True)
class FactionRef:
    pk: int
    name: str
    slug: str


@dataclass
class GameSnapshot:
    game_id: int
    slug: str
    name: str
    version: int
    cards: dict[str, SnapCard] = field(default_factory=dict)
    by_pk: dict[int, SnapCard] = field(default_factory=dict)
    # Folded name -> the printing a bare name means: the official one, then the newest set.
    by_name: dict[str, SnapCard] = field(default_factory=dict)
    by_print: dict[tuple[str, str], SnapCard] = field(default_factory=dict)
    factions: dict[str, FactionRef] = field(default_factory=dict)
    # Format slug -> its admin-set values, over the format's defaults.
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def engine(self) -> GameEngine:
        from engines import get_engine

        return get_engine(self.slug)

    def faction(self, name_or_slug: str) -> FactionRef | None:
        return self.factions.get(slugify(name_or_slug))

    def faction_named(self, name: str) -> FactionRef | None:
        return next((f for f in self.factions.values() if f.name == name), None)

    def format_settings(self, format_slug: str) -> dict[str, Any]:
        fmt = self.engine.format(format_slug)
        defaults = fmt.default_settings() if fmt else {}
        return {**defaults, **self.settings.get(format_slug, {})}


_local: dict[str, GameSnapshot] = {}
_lock = threading.Lock()


def game_snapshot(game: Game | str) -> GameSnapshot:
    """The game's snapshot at the current catalogue version."""
    slug = game if isinstance(game, str) else game.slug
    version = catalogue_version()
    held = _local.get(slug)
    if held is not None and held.version == version:
        return held
    key = f"deck-snapshot:{slug}:{version}"
    snapshot = cache.get(key)
    if snapshot is None:
        snapshot = _build(slug, version)
        cache.set(key, snapshot, SNAPSHOT_SECONDS)
    with _lock:
        _local[slug] = snapshot
    return snapshot


def _build(slug: str, version: int) -> GameSnapshot:
    game = Game.objects.get(slug=slug)
    engine = game.engine
    zones = {t.name: t.zone for t in engine.card_types}
    snap = GameSnapshot(game.id, game.slug, game.name, version)
    cards = (
        Card.objects.filter(game=game)
        .select_related("card_type", "card_set")
        .prefetch_related("factions", "keywords", "subtypes")
        # Later rows win a name: official after sample, newer after older.
        .order_by("card_set__is_official", "card_set__release_date", "card_set__code", "id")
    )
    for card in cards:
        type_name = card.card_type.name if card.card_type is not None else None
        factions = tuple(f.name for f in card.factions.all())
        keywords = tuple(k.name for k in card.keywords.all())
        snapped = SnapCard(
            pk=card.id,
            short_id=card.short_id,
            name=card.name,
            slug=card.slug,
            card_type=type_name,
            type_zone=(
                zones.get(type_name)
                if type_name
                else engine.zone_for(None, factions, keywords, card.name)
            ),
            factions=factions,
            keywords=keywords,
            subtypes=tuple(s.name for s in card.subtypes.all()),
            stats=dict(card.stats),
            text=card.rules_text,
            set_code=card.card_set.code,
            number=card.number,
            official=card.card_set.is_official,
            factions_not_given=engine.factions_not_given(
                official=card.card_set.is_official, factions=factions
            ),
        )
        snap.cards[card.short_id] = snapped
        snap.by_pk[card.id] = snapped
        snap.by_name[card.search_name or fold(card.name)] = snapped
        snap.by_print[(card.card_set.code.upper(), card.number)] = snapped
    for pk, name, faction_slug in Faction.objects.filter(game=game).values_list(
        "id", "name", "slug"
    ):
        snap.factions[faction_slug] = FactionRef(pk, name, faction_slug)
    for reader in _format_settings:
        for fmt, key, value in reader(game.id):
            snap.settings.setdefault(fmt, {})[key] = value
    return snap
