"""Reads for variants and for two decks side by side, for the site's pages: where a variant
came from (as far as its reader may know) and how it differs from its parent now, a deck's
variants a page at a time, and two decks compared with what each page's header shows.

The decks passed in were found through `deck_for_reader`; what they point at is checked again
(decks.history.reads.readable_parent / readable_variants)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from django.core.paginator import Page, Paginator

from decks.history.diff import CardLine, Diff, diff_states
from decks.history.reads import deck_comparison, readable_parent, readable_variants
from decks.models import Deck
from decks.reading.selectors import decks_listed, format_name
from decks.services import DeckChart, Standing, game_snapshot, standings
from decks.services.history import CardKey, DeckState

VARIANTS_PER_PAGE = 25
# The picker's "My decks" offers the most recently updated ones; older ones by id or link.
PICKER_DECKS = 100
# A deck's name in a chart's legend: about half a phone's width.
LEGEND_NAME = 30


@dataclass(frozen=True)
class Lineage:
    """A variant's parent as its reader may know it."""

    # The parent, when the reader may read it; None when it is private to someone else or
    # deleted (`hidden`), whose name is then never shown.
    parent: Deck | None
    hidden: bool
    branched_at: int | None
    # From the parent's current cards to the variant's (planned cards left out).
    differences: Diff | None

    @property
    def parent_moved_on(self) -> bool:
        """Whether the parent has been saved since the variant branched from it."""
        return bool(self.parent and self.branched_at and self.parent.version > self.branched_at)


def _cards(deck: Deck) -> dict[CardKey, int]:
    """The deck's own cards (no planned ones) by (short id, zone): one query."""
    cards: dict[CardKey, int] = {}
    for short_id, zone, quantity in deck.entries.values_list("card__short_id", "zone", "quantity"):
        cards[(short_id, zone)] = cards.get((short_id, zone), 0) + quantity
    return cards


def lineage(deck: Deck, user: Any) -> Lineage | None:
    """Where `deck` branched from, for `user`: None for a deck that is no variant (or whose
    parent is gone for good); two queries when its parent may be named, none otherwise."""
    if not deck.forked_from_id:
        return None
    parent = readable_parent(deck, user)
    if parent is None:
        return Lineage(None, True, deck.parent_version, None)
    differences = diff_states(
        game_snapshot(deck.game.slug), DeckState(_cards(parent)), DeckState(_cards(deck))
    )
    return Lineage(parent, False, deck.parent_version, differences)


def variant_count(deck: Deck, user: Any) -> int:
    """How many variants of `deck` the user may list: one query."""
    return readable_variants(deck, user).count()


@dataclass(frozen=True)
class VariantRow:
    deck: Deck
    format_name: str
    standing: Standing


def variant_page(deck: Deck, user: Any, number: int) -> Page[VariantRow]:
    """A page of the variants `user` may list, newest change first, each with its standing in
    its own format: a count, a page and at most one query for the standings not cached."""
    variants = readable_variants(deck, user).select_related("faction")
    page = Paginator(variants, VARIANTS_PER_PAGE).get_page(number)
    shown = list(page.object_list)
    standing = standings(decks=shown)
    rows = [VariantRow(d, format_name(d), standing[d.pk]) for d in shown]
    # The rows stand for the paginator's decks, one each: its counts hold for them.
    return Page(rows, page.number, cast("Paginator[VariantRow]", page.paginator))


def picker_decks(user: Any, game: str | None = None) -> list[Deck]:
    """The user's own decks (of `game`, when given) a compare form offers: one query."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(decks_listed(user=user, mine=True, game=game)[:PICKER_DECKS])


@dataclass(frozen=True)
class Side:
    letter: str
    deck: Deck
    cards: int
    format_name: str
    standing: Standing


@dataclass(frozen=True)
class SideBySide:
    a: Side
    b: Side
    # Cards in both decks, the ones held in different numbers first.
    both: tuple[CardLine, ...]
    only_a: tuple[CardLine, ...]
    only_b: tuple[CardLine, ...]
    charts: list[DeckChart]

    @property
    def differing(self) -> int:
        return sum(1 for line in self.both if line.step)


def side_by_side(a: Deck, b: Deck) -> SideBySide:
    """Two readable decks of one game compared (DifferentGames otherwise), in a fixed number
    of queries however many cards they hold."""
    compared = deck_comparison(a, b)
    cards = compared.cards
    standing = standings(decks=[a, b])
    count_a = sum(line.before for line in cards.both + cards.only_a)
    count_b = sum(line.after for line in cards.both + cards.only_b)
    return SideBySide(
        a=Side("A", a, count_a, format_name(a), standing[a.pk]),
        b=Side("B", b, count_b, format_name(b), standing[b.pk]),
        both=tuple(sorted(cards.both, key=lambda line: line.step == 0)),
        only_a=cards.only_a,
        only_b=cards.only_b,
        charts=[_lettered(chart) for chart in compared.charts],
    )


def _lettered(chart: DeckChart) -> DeckChart:
    """The chart's series named "A: …" and "B: …", as the page's heads are (two decks may
    share a name: a copy keeps it), each name cut to what a legend fits on a phone (a legend
    line does not wrap; the heads above show the whole names)."""
    return replace(
        chart,
        series=tuple(
            replace(s, name=f"{letter}: {_short(s.name)}")
            for letter, s in zip("AB", chart.series, strict=True)
        ),
    )


def _short(name: str) -> str:
    return name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1].rstrip() + "…"
