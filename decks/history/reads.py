"""Reads of a deck's history, for its pages and its API: its versions as lists of changes, any
version's legality, the variants a reader may see, and two decks compared. The decks passed
in have already been found through `deck_for_reader`, so whoever asks may read them; what they
point at (a parent, variants) is checked here again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Q, QuerySet

from cardsite.catalogue.versioning import catalogue_version
from decks.history.diff import Comparison, Diff, compare_states, lines_of
from decks.models import Deck, DeckVersion
from decks.services import (
    CheckResult,
    DeckChart,
    check,
    game_snapshot,
    intake_deck,
    resolve,
)
from decks.services.charts import overlaid_curves
from decks.services.history import DeckState, Summary, cards_intake, deck_state, state_at, summary

# A version's legality is checked once per catalogue version, then read from the cache.
LEGALITY_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class VersionView:
    number: int
    created_at: datetime
    author: str | None
    note: str
    diff: Diff
    summary: Summary
    # The deck's first kept version: created here, branched, or (when its number is over 1)
    # the version it was at when history began to be kept.
    first: bool


def deck_versions(deck: Deck) -> QuerySet[DeckVersion]:
    """The deck's versions, newest first (page them: a deck may have thousands)."""
    return DeckVersion.objects.filter(deck=deck).select_related("author").order_by("-number")


def first_kept(deck: Deck) -> int:
    """The number of the deck's oldest kept version."""
    first = DeckVersion.objects.filter(deck=deck).order_by("number").values("number").first()
    return first["number"] if first else deck.version


def version_views(deck: Deck, versions: list[DeckVersion], first: int) -> list[VersionView]:
    """The versions as their changes in the catalogue's names, with no further queries."""
    snap = game_snapshot(deck.game.slug)
    out = []
    for version in versions:
        diff = lines_of(snap, version.changes)
        out.append(
            VersionView(
                number=version.number,
                created_at=version.created_at,
                author=version.author.get_username() if version.author else None,
                note=version.note,
                diff=Diff(diff.added, diff.removed, diff.changed, version.setting_changes),
                summary=summary(version.changes, version.steps),
                first=version.number == first,
            )
        )
    return out


def state_legality(game: str, state: DeckState) -> CheckResult:
    """A state's legality in the format it was in, by today's rules and cards."""
    resolved = resolve(
        game=game, intake=cards_intake(state.cards), faction=state.settings.get("faction")
    )
    return check(resolved, str(state.settings.get("format", "")))


def version_legality(deck: Deck, number: int, state: DeckState | None = None) -> CheckResult:
    """Version `number`'s legality in the deck's format at that time (VersionNotFound if it
    was never kept), cached per catalogue version."""
    key = f"deck-version-legal:{deck.pk}:{number}:{catalogue_version()}"
    result: CheckResult | None = cache.get(key)
    if result is None:
        result = state_legality(deck.game.slug, state or state_at(deck, number))
        cache.set(key, result, LEGALITY_SECONDS)
    return result


def readable_variants(deck: Deck, user: Any) -> QuerySet[Deck]:
    """The decks branched from `deck` that `user` may list: public ones, and their own of any
    visibility (an unlisted deck is found by its link, never listed to others)."""
    mine = Q(owner_id=user.id) if getattr(user, "is_authenticated", False) else Q(pk__in=[])
    return (
        Deck.objects.filter(forked_from=deck, deleted_at__isnull=True)
        .filter(Q(visibility=Deck.Visibility.PUBLIC) | mine)
        .select_related("owner", "game")
        .order_by("-updated_at", "-id")
    )


def readable_parent(deck: Deck, user: Any) -> Deck | None:
    """The deck `deck` branched from, if `user` may be shown it: never a deleted one or
    someone else's private one, and an unlisted one only to its owner or the variant's (who
    branched from it by its link). Anyone else may hold the variant's link without the
    parent's, and an unlisted deck's link is shown to no one who was not given it."""
    parent = deck.forked_from if deck.forked_from_id else None
    if parent is None or parent.deleted_at is not None:
        return None
    viewer = getattr(user, "id", None)
    if parent.visibility == Deck.Visibility.PRIVATE and parent.owner_id != viewer:
        return None
    if parent.visibility == Deck.Visibility.UNLISTED and viewer not in (
        parent.owner_id,
        deck.owner_id,
    ):
        return None
    return parent


@dataclass(frozen=True)
class DeckComparison:
    a: Deck
    b: Deck
    cards: Comparison
    # The game's curves, each with one series per deck.
    charts: list[DeckChart]


class DifferentGames(Exception):
    """Two decks of different games have no cards in common to compare."""


def deck_comparison(a: Deck, b: Deck) -> DeckComparison:
    """Two decks side by side (both already found readable by the caller): their cards in
    both, with each quantity, their cards in one only, and their curves overlaid."""
    if a.game_id != b.game_id:
        raise DifferentGames(f"{a.name} is a {a.game.name} deck and {b.name} a {b.game.name} deck.")
    snap = game_snapshot(a.game.slug)
    resolved = [
        resolve(
            game=d.game.slug, intake=intake_deck(d), faction=d.faction.name if d.faction else None
        )
        for d in (a, b)
    ]
    return DeckComparison(
        a=a,
        b=b,
        cards=compare_states(snap, deck_state(a), deck_state(b)),
        charts=overlaid_curves([(a.name, resolved[0]), (b.name, resolved[1])]),
    )
