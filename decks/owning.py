"""Decks against collections, read for a viewer: the copies their collection lacks for a deck,
which decks a filter may call buildable, and which built decks compete for the same cards.

What the viewer owns is read only through cardsite.collection.selectors, so a pool counts as
one collection here as everywhere. Copies are per printing: a deck's card row is the printing
it holds, and only that printing's copies count for it. Planned ("maybe") cards are outside
the deck and ask for nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, F, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from cardsite.catalogue.models import Card
from cardsite.collection.selectors import collection_owner_ids, owned_counts, owned_rows
from decks.decklist import ExportEntry, to_text
from decks.models import Deck, DeckEntry


@dataclass(frozen=True)
class Missing:
    """What the viewer's collection lacks for one deck: `lines` (card, copies lacking), by
    name; `held` the copies of the deck's cards the viewer's other built decks take, per card
    id (counted against this deck only when it is built itself)."""

    lines: list[tuple[Card, int]]
    buildable: bool
    held: dict[int, int] = field(default_factory=dict)
    built: bool = False

    @property
    def total(self) -> int:
        return sum(quantity for _, quantity in self.lines)

    @property
    def shown(self) -> list[tuple[Card, int, int]]:
        """Each line with the copies of its card other built decks take, for the page."""
        return [(card, n, self.held.get(card.pk, 0)) for card, n in self.lines]

    @property
    def held_total(self) -> int:
        return sum(self.held.values())


def _built_entries(owner_ids: list[int]) -> QuerySet[DeckEntry]:
    """The entries of every built deck of these owners that has not been deleted."""
    return DeckEntry.objects.filter(
        deck__owner_id__in=owner_ids, deck__built_at__isnull=False, deck__deleted_at__isnull=True
    )


def deck_missing(*, deck: Deck, viewer: Any) -> Missing:
    """The copies `viewer`'s collection lacks for `deck`, all zones together. When the deck is
    built from this same collection, copies the collection's other built decks take are not
    free for it; otherwise the whole collection counts. An anonymous viewer owns nothing."""
    needed: dict[int, int] = defaultdict(int)
    cards: dict[int, Card] = {}
    for entry in deck.entries.select_related("card__card_set"):
        needed[entry.card_id] += entry.quantity
        cards[entry.card_id] = entry.card
    owner_ids = collection_owner_ids(user=viewer)
    owned = owned_counts(user=viewer, card_ids=needed) if owner_ids else {}
    held: dict[int, int] = {}
    if owner_ids and needed:
        others = _built_entries(owner_ids).filter(card_id__in=list(needed)).exclude(deck=deck)
        held = dict(
            others.values("card_id").annotate(n=Sum("quantity")).values_list("card_id", "n")
        )
    built = deck.built_at is not None and deck.owner_id in owner_ids
    lines = []
    for card_id, quantity in needed.items():
        free = owned.get(card_id, 0) - (held.get(card_id, 0) if built else 0)
        if quantity > max(free, 0):
            lines.append((cards[card_id], quantity - max(free, 0)))
    lines.sort(key=lambda line: (line[0].name, line[0].short_id))
    return Missing(lines=lines, buildable=not lines, held=held, built=built)


def owned_by_short_id(user: Any, ids: dict[str, int]) -> dict[str, int]:
    """Copies `user`'s collection holds of each card in `ids` (short id: card id), by short
    id: the builder's one read of the collection per render."""
    counts = owned_counts(user=user, card_ids=ids.values()) if ids else {}
    return {short_id: counts.get(pk, 0) for short_id, pk in ids.items()}


def missing_text(*, deck: Deck, missing: Missing) -> str:
    """The missing cards as a decklist in the deck export's text format (one zone: the deck's
    first), which the collection's import and the deck builder both read."""
    engine = deck.game.engine
    zone = engine.zones[0].slug
    entries = [
        ExportEntry(quantity, card.name, zone, card.card_set.code, card.number)
        for card, quantity in missing.lines
    ]
    return to_text(entries, engine, title=f"Missing for {deck.name} ({deck.game.name})")


def buildable_only(decks: QuerySet[Deck], *, viewer: Any) -> QuerySet[Deck]:
    """`decks` narrowed, in the database, to those the viewer's collection (their pool's)
    holds every copy of: no card whose copies in the deck (all zones together) exceed the
    copies owned. Built decks are not subtracted: this is what could be built."""
    owned = (
        owned_rows(user=viewer)
        .filter(card_id=OuterRef("card_id"))
        .values("card_id")
        .annotate(total=Sum("quantity"))
        .values("total")
    )
    short = (
        DeckEntry.objects.filter(deck_id=OuterRef("pk"))
        .values("card_id")
        .annotate(
            need=Sum("quantity"),
            have=Coalesce(Subquery(owned, output_field=IntegerField()), Value(0)),
        )
        .filter(need__gt=F("have"))
    )
    return decks.filter(~Exists(short))


@dataclass(frozen=True)
class Conflict:
    """A card the built decks of one collection together need more copies of than it holds:
    `decks` are (deck, copies it needs), by name."""

    card: Card
    owned: int
    needed: int
    decks: list[tuple[Deck, int]]

    @property
    def short(self) -> int:
        return self.needed - self.owned

    def others(self, deck: Deck) -> list[tuple[Deck, int]]:
        """The decks other than `deck` that compete for this card."""
        return [(d, n) for d, n in self.decks if d.pk != deck.pk]


def built_conflicts(*, user: Any, deck: Deck | None = None) -> list[Conflict]:
    """The cards `user`'s built decks (every pool member's, when pooled) together need more
    copies of than the collection (the pool's) holds; with `deck`, only the cards it is one
    of the competitors for. Three queries after the owners: the totals per card, the copies
    owned of those, and the decks of the cards short."""
    if deck is not None and deck.built_at is None:
        return []
    owner_ids = collection_owner_ids(user=user)
    if not owner_ids:
        return []
    entries = _built_entries(owner_ids)
    if deck is not None:
        if deck.owner_id not in owner_ids:
            return []
        entries = entries.filter(card_id__in=deck.entries.values("card_id"))
    totals = dict(entries.values("card_id").annotate(n=Sum("quantity")).values_list("card_id", "n"))
    if not totals:
        return []
    owned = owned_counts(user=user, card_ids=totals)
    short = {c: n for c, n in totals.items() if n > owned.get(c, 0)}
    if not short:
        return []
    per_deck: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    decks: dict[int, Deck] = {}
    cards: dict[int, Card] = {}
    rows = entries.filter(card_id__in=list(short)).select_related("deck", "card")
    for entry in rows:
        per_deck[entry.card_id][entry.deck_id] += entry.quantity
        decks[entry.deck_id] = entry.deck
        cards[entry.card_id] = entry.card
    conflicts = [
        Conflict(
            card=cards[card_id],
            owned=owned.get(card_id, 0),
            needed=needed,
            decks=sorted(
                ((decks[d], n) for d, n in per_deck[card_id].items()),
                key=lambda pair: (pair[0].name, pair[0].pk),
            ),
        )
        for card_id, needed in short.items()
    ]
    return sorted(conflicts, key=lambda c: (c.card.name, c.card.short_id))
