"""Decks against collections, read for a viewer: the copies their collection lacks for a deck,
which decks a filter may call buildable, and which built decks compete for the same cards.

What the viewer owns is read only through cardsite.collection.selectors, so a pool counts as
one collection here as everywhere. Copies are per printing: a deck's card row is the printing
it holds, and only that printing's copies count for it. Planned ("maybe") cards are outside
the deck and ask for nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, DenseRank

from cardsite.cardlists.decklist import ExportEntry, to_text
from cardsite.catalogue.models import Card
from cardsite.collection.selectors import collection_owner_ids, owned_counts, owned_rows
from decks.models import Deck, DeckEntry

# Conflicts a page or the API lists, by card name; the rest are counted. With the decks named
# per conflict bounded too, what a reader gets stays small however many decks the pool built.
MAX_CONFLICTS_SHOWN = 50
MAX_CONFLICT_DECKS_SHOWN = 10


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
    """A card the built decks of one collection together need more copies of than it holds.
    `decks` are the competing decks the reader may see, (deck, copies it needs), by name: at
    most MAX_CONFLICT_DECKS_SHOWN, `more_decks` counting the rest. `hidden`: built decks of
    other pool members the reader may not see take copies too; pooling shares copies, never
    decks, so those are never named, linked or counted one by one."""

    card: Card
    owned: int
    needed: int
    decks: list[tuple[Deck, int]]
    more_decks: int = 0
    hidden: bool = False

    @property
    def short(self) -> int:
        return self.needed - self.owned


@dataclass(frozen=True)
class Conflicts:
    """The first MAX_CONFLICTS_SHOWN conflicts by card name, and how many there are in all."""

    shown: list[Conflict]
    total: int

    @property
    def more(self) -> int:
        return self.total - len(self.shown)

    def __iter__(self) -> Iterator[Conflict]:
        return iter(self.shown)

    def __len__(self) -> int:
        return len(self.shown)


NO_CONFLICTS = Conflicts(shown=[], total=0)


def _visible_to(reader: Any) -> Q:
    """The built decks `reader` may see named: their own and public ones. An unlisted deck is
    readable by whoever holds its link, but pooling never handed the link to anyone."""
    return Q(deck__owner_id=getattr(reader, "pk", None)) | Q(
        deck__visibility=Deck.Visibility.PUBLIC
    )


def _first_short(
    entries: QuerySet[DeckEntry], owned: QuerySet[Any]
) -> list[tuple[int, int, int, int]]:
    """(card id, copies needed, copies owned, cards short in all) for the first
    MAX_CONFLICTS_SHOWN cards `entries` need more copies of than `owned` holds, by name.

    One statement joining two sums, each taken once per card: the ORM would put the copies
    owned in a correlated subquery, which SQLite runs again for every entry summed."""
    need_sql, need_params = (
        entries.order_by().values("card_id").annotate(needed=Sum("quantity")).query
    ).sql_with_params()
    have_sql, have_params = (
        owned.order_by().values("card_id").annotate(have=Sum("quantity")).query
    ).sql_with_params()
    card = connection.ops.quote_name(Card._meta.db_table)
    sql = (
        f"SELECT need.card_id, need.needed, COALESCE(have.have, 0), COUNT(*) OVER ()"
        f" FROM ({need_sql}) need"
        f" LEFT JOIN ({have_sql}) have ON have.card_id = need.card_id"
        f" JOIN {card} card ON card.id = need.card_id"
        f" WHERE need.needed > COALESCE(have.have, 0)"
        f" ORDER BY card.name, card.short_id, card.id LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*need_params, *have_params, MAX_CONFLICTS_SHOWN])
        return [tuple(row) for row in cursor.fetchall()]


def built_conflicts(*, user: Any, deck: Deck | None = None) -> Conflicts:
    """The cards `user`'s built decks (every pool member's, when pooled) together need more
    copies of than the collection (the pool's) holds; with `deck`, only the cards it is one
    of the competitors for, and the decks competing with it. Decks are named only as `user`
    may see them (_visible_to).

    Summed per card in the database, never walked deck by deck: a fixed number of queries
    and rows however many decks are built (the first MAX_CONFLICTS_SHOWN cards, each with
    at most MAX_CONFLICT_DECKS_SHOWN decks)."""
    if deck is not None and deck.built_at is None:
        return NO_CONFLICTS
    owner_ids = collection_owner_ids(user=user)
    if not owner_ids or (deck is not None and deck.owner_id not in owner_ids):
        return NO_CONFLICTS
    entries = _built_entries(owner_ids)
    if deck is not None:
        entries = entries.filter(card_id__in=deck.entries.values("card_id"))
    first = _first_short(entries, owned_rows(user=user))
    if not first:
        return NO_CONFLICTS
    total = first[0][3]
    card_ids = [card_id for card_id, _, _, _ in first]
    cards = Card.objects.select_related("card_set").in_bulk(card_ids)
    competing = entries.filter(card_id__in=card_ids)
    if deck is not None:
        competing = competing.exclude(deck_id=deck.pk)
    visible = competing.filter(_visible_to(user))
    # A deck may hold a card in two zones: its rows share one dense rank and one sum.
    ranked = (
        visible.annotate(
            n=Window(Sum("quantity"), partition_by=[F("card_id"), F("deck_id")]),
            rank=Window(
                DenseRank(),
                partition_by=[F("card_id")],
                order_by=[F("deck__name").asc(), F("deck_id").asc()],
            ),
        )
        .filter(rank__lte=MAX_CONFLICT_DECKS_SHOWN)
        .values_list("card_id", "deck_id", "n")
        .order_by("card_id", "rank")
    )
    per_card: dict[int, dict[int, int]] = defaultdict(dict)
    for card_id, deck_id, n in ranked:
        per_card[card_id][deck_id] = n
    counted: dict[int, tuple[int, int]] = {
        card_id: (seen, unseen)
        for card_id, seen, unseen in competing.values("card_id")
        .annotate(
            seen=Count("deck_id", filter=_visible_to(user), distinct=True),
            unseen=Count("deck_id", filter=~_visible_to(user)),
        )
        .values_list("card_id", "seen", "unseen")
    }
    named = Deck.objects.only("id", "name", "share_key", "owner_id", "visibility").in_bulk(
        [deck_id for rows in per_card.values() for deck_id in rows]
    )
    shown = [
        Conflict(
            card=cards[card_id],
            owned=have,
            needed=needed,
            decks=[(named[deck_id], n) for deck_id, n in per_card[card_id].items()],
            more_decks=counted.get(card_id, (0, 0))[0] - len(per_card[card_id]),
            hidden=counted.get(card_id, (0, 0))[1] > 0,
        )
        for card_id, needed, have, _ in first
    ]
    return Conflicts(shown=shown, total=total)
