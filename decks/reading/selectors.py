"""Reads of decks, always through who is asking: a private deck exists only for its owner,
and a deleted one for nobody but its owner's "Recently deleted" list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from django.core.paginator import Page, Paginator
from django.db.models import Max, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from cardsite.catalogue.models import Card, Faction, Game
from cardsite.catalogue.short_ids import is_valid_short_id
from decks.history.reads import readable_parent
from decks.models import DELETED_KEEP_DAYS, Deck, DeckEntry, Job, PrintProfile
from decks.reading.finding import PER_PAGE, DeckFilters
from decks.reading.key_cards import DeckCards, deck_cards
from decks.reading.owning import buildable_only
from decks.services import Standing, game_snapshot, standings
from engines.errors import InputError
from engines.filters.text import fold

# Shown in "Recently deleted", newest first; older ones are still restorable by their link.
DELETED_SHOWN = 100


def _base() -> QuerySet[Deck]:
    """Every deck anyone may read: deleted decks are left out here, so that every reader
    (pages, lists, the API, forks, card pages) loses them at once."""
    return _all().filter(deleted_at__isnull=True)


def _all() -> QuerySet[Deck]:
    # The fork source too: a deck's record names it only while it is not deleted.
    return Deck.objects.select_related("owner", "game", "faction", "forked_from")


def deck_for_reader(*, deck_id: str, user: Any) -> Deck | None:
    """The deck with this id (its share key) if `user` may read it: public and unlisted decks
    are readable by anyone holding the id, private ones by their owner only."""
    deck = _base().filter(share_key=deck_id).first()
    if deck is None:
        return None
    if deck.visibility == Deck.Visibility.PRIVATE and deck.owner_id != getattr(user, "id", None):
        return None
    return deck


def deck_for_link(*, deck_id: str, user: Any, signed: bool) -> Deck | None:
    """As deck_for_reader, and a private deck also for whoever holds a signed link to it that
    has not expired (`signed`: checked by decks.tts.links before anything is read)."""
    deck = _base().filter(share_key=deck_id).first()
    if deck is None or signed:
        return deck
    if deck.visibility == Deck.Visibility.PRIVATE and deck.owner_id != getattr(user, "id", None):
        return None
    return deck


# The orders /decks/ offers; the id breaks ties, so pages never overlap or skip a deck.
SORTS = {
    "updated": ("-updated_at", "-id"),
    "newest": ("-created_at", "-id"),
    "name": ("search_name", "id"),
}


def cards_named(*, card: str, game: str | None = None) -> list[Card]:
    """The cards a filter names: the card with this short id, or else every printing whose
    folded name is this one's (in `game`, if given)."""
    text = card.strip()
    cards = Card.objects.only("id", "name", "short_id", "slug", "game_id").order_by("id")
    if is_valid_short_id(text.lower()) and (found := list(cards.filter(short_id=text.lower()))):
        return found
    named = cards.filter(search_name=fold(text))
    if game:
        named = named.filter(game__slug=game)
    return list(named)


def decks_listed(
    *,
    user: Any = None,
    mine: bool = False,
    game: str | None = None,
    format: str | None = None,
    faction: str | None = None,
    card: str | None = None,
    card_ids: Sequence[int] | None = None,
    q: str = "",
    sort: str = "updated",
) -> QuerySet[Deck]:
    """Public decks (or all of the user's own, with `mine`), filtered, recently updated first
    (or newest, by `sort`). Unlisted decks are never listed: their link is the only way in.
    `card` is a short id or a name (cards_named); `card_ids` the cards it already named.
    `q`'s words must each be in the name, regardless of case and accents."""
    if mine:
        decks = _base().filter(owner_id=getattr(user, "id", None))
    else:
        decks = _base().filter(visibility=Deck.Visibility.PUBLIC)
    if game:
        decks = decks.filter(game__slug=game)
    if format:
        decks = decks.filter(format=format)
    if faction:
        decks = decks.filter(Q(faction__slug=faction) | Q(faction__name__iexact=faction))
    if card and card_ids is None:
        card_ids = [c.pk for c in cards_named(card=card, game=game)]
    if card_ids is not None:
        holding = DeckEntry.objects.filter(card_id__in=card_ids).values("deck_id")
        decks = decks.filter(id__in=holding)
    for word in fold(q).split():
        decks = decks.filter(search_name__contains=word)
    return decks.order_by(*SORTS[sort])


def game_formats(*, game: Game) -> list[dict[str, Any]]:
    """A game's formats as the API and the game page show them: each with its settings (and
    the values the site holds for them) and its rules, each rule a sentence with its source."""
    snap = game_snapshot(game)
    formats = []
    for f in snap.engine.formats:
        values = snap.format_settings(f.slug)
        formats.append(
            {
                "slug": f.slug,
                "name": f.name,
                "description": f.description,
                "needs_faction": f.needs_faction,
                "settings": [
                    {"key": s.key, "label": s.label, "help": s.help, "value": values.get(s.key)}
                    for s in f.settings
                ],
                "rules": [rule.as_dict(values) for rule in f.rules],
            }
        )
    return formats


def decks_deleted(*, user: Any) -> QuerySet[Deck]:
    """The user's decks deleted recently enough to restore, most recently deleted first."""
    since = timezone.now() - timedelta(days=DELETED_KEEP_DAYS)
    return (
        _all()
        .filter(owner_id=getattr(user, "id", None), deleted_at__gt=since)
        .order_by("-deleted_at", "-id")[:DELETED_SHOWN]
    )


def deleted_deck_of(*, deck_id: str, user: Any) -> Deck | None:
    """The user's own deleted deck with this id, however long ago it was deleted."""
    return (
        _all()
        .filter(share_key=deck_id, owner_id=getattr(user, "id", None), deleted_at__isnull=False)
        .first()
    )


def job_for_reader(*, key: str, user: Any) -> Job | None:
    """The job with this key, if `user` may read it: a signed-in requester's job is theirs
    alone (it may print a private deck); an anonymous one is readable by its key."""
    job = Job.objects.filter(key=key).first()
    if job is None:
        return None
    if job.owner_id is not None and job.owner_id != getattr(user, "id", None):
        return None
    return job


@dataclass(frozen=True)
class DeckRow:
    deck: Deck
    format_name: str
    standing: Standing
    faction: Faction | None = None
    cards: DeckCards = field(default_factory=lambda: DeckCards(0))
    # My decks only: the deck it branched from, if its owner may read it; `parent_hidden`
    # when it branched from one they may not.
    parent: Deck | None = None
    parent_hidden: bool = False


@dataclass
class DeckListing:
    """A deck list as asked for (/decks/, or /decks/mine/ with `mine`): the page of rows, the
    choices its form offers, and what to say about the filters (`error`: one names no game,
    format or faction; the page is then None)."""

    filters: DeckFilters
    games: list[Game]
    formats: list[tuple[Game, list[tuple[str, str]]]]
    factions: list[tuple[Game, list[Faction]]]
    mine: bool = False
    cards: list[Card] = field(default_factory=list)
    page: Page[DeckRow] | None = None
    error: InputError | None = None
    # Why a filter asked for was not applied (buildable, for an anonymous viewer), or applied
    # to only some of the decks (legality, past LEGALITY_SCAN).
    note: str = ""


# The legality filter checks this many decks at most (the first of the other filters' order),
# each from the cache where it can: a standing is not stored in the database, so filtering on it
# means knowing it for every deck considered.
LEGALITY_SCAN = 500


def _check_choices(filters: DeckFilters, games: list[Game], factions: list[Faction]) -> None:
    """InputError unless the game, format and faction asked for exist (the format and faction
    in the game, when one is asked for)."""
    game = next((g for g in games if g.slug == filters.game), None)
    if filters.game and game is None:
        raise InputError("game", f"There is no game “{filters.game}”.")
    scope = [game] if game else games
    if filters.format and not any(g.engine.format(filters.format) for g in scope):
        if game is None:
            raise InputError("format", f"No game has a format “{filters.format}”.")
        known = ", ".join(f.slug for f in game.engine.formats)
        raise InputError(
            "format", f"{game.name} has no format “{filters.format}” (formats: {known})."
        )
    wanted = filters.faction.lower()
    in_scope = [f for f in factions if game is None or f.game_id == game.pk]
    if filters.faction and not any(wanted in (f.slug, f.name.lower()) for f in in_scope):
        if game is None:
            raise InputError("faction", f"No game has a faction “{filters.faction}”.")
        raise InputError("faction", f"{game.name} has no faction “{filters.faction}”.")


def public_deck_listing(
    *, filters: DeckFilters, refused: InputError | None = None, viewer: Any = None
) -> DeckListing:
    """The public decks matching `filters`: deck_listing of /decks/."""
    return deck_listing(filters=filters, refused=refused, viewer=viewer)


def deck_listing(
    *,
    filters: DeckFilters,
    refused: InputError | None = None,
    viewer: Any = None,
    mine: bool = False,
) -> DeckListing:
    """The decks matching `filters`, a page of them, each with its standing in its own format,
    its card count and key cards: the public decks, or with `mine` every deck of `viewer`'s own
    (private ones too, never anyone else's). In a fixed number of queries however many decks
    there are. With `refused` (the filters could not be read), only the form's choices and
    that error."""
    games = list(Game.objects.order_by("name"))
    factions = list(Faction.objects.order_by("name"))
    listing = DeckListing(
        filters=filters,
        games=games,
        formats=format_choices(games),
        factions=[(g, [f for f in factions if f.game_id == g.pk]) for g in games],
        mine=mine,
    )
    try:
        if refused:
            raise refused
        _check_choices(filters, games, factions)
    except InputError as exc:
        listing.error = exc
        return listing
    card_ids = None
    if filters.card:
        listing.cards = cards_named(card=filters.card, game=filters.game or None)
        card_ids = [c.pk for c in listing.cards]
    decks = decks_listed(
        user=viewer,
        mine=mine,
        game=filters.game or None,
        format=filters.format or None,
        faction=filters.faction or None,
        card_ids=card_ids,
        q=filters.q,
        sort=filters.sort,
    )
    if filters.buildable:
        if getattr(viewer, "is_authenticated", False):
            decks = buildable_only(decks, viewer=viewer)
        else:
            listing.note = "Sign in to list only the decks your collection can build."
    standing: dict[int, Standing] = {}
    if filters.legality:
        considered = list(decks[: LEGALITY_SCAN + 1])
        if len(considered) > LEGALITY_SCAN:
            considered = considered[:LEGALITY_SCAN]
            listing.note = (
                f"Legality was checked for the first {LEGALITY_SCAN} decks only, in this order:"
                " narrow the list by game or format to check the rest."
            )
        standing = standings(decks=considered)
        wanted = Standing.LEGAL if filters.legality == "legal" else Standing.NOT_LEGAL
        page = Paginator([d for d in considered if standing[d.pk] == wanted], PER_PAGE).get_page(
            filters.page
        )
    else:
        page = Paginator(decks, PER_PAGE).get_page(filters.page)
    shown = list(page.object_list)
    if not filters.legality:
        standing = standings(decks=shown)
    cards = deck_cards(decks=shown)
    rows = [_row(d, standing[d.pk], cards[d.pk], viewer if mine else None) for d in shown]
    # The rows stand for the paginator's decks, one each: its counts hold for them.
    listing.page = Page(rows, page.number, cast("Paginator[DeckRow]", page.paginator))
    return listing


def _row(deck: Deck, standing: Standing, cards: DeckCards, owner: Any) -> DeckRow:
    parent = readable_parent(deck, owner) if owner and deck.forked_from_id else None
    return DeckRow(
        deck,
        format_name(deck),
        standing,
        stated_faction(deck),
        cards,
        parent,
        parent_hidden=bool(owner) and bool(deck.forked_from_id) and parent is None,
    )


def format_choices(games: list[Game]) -> list[tuple[Game, list[tuple[str, str]]]]:
    """Each game's formats as the filter offers them: a name two games share names its game
    too, or a closed list shows the same words twice for two different choices."""
    names = Counter(f.name for g in games for f in g.engine.formats)
    return [
        (
            g,
            [
                (f.slug, f"{f.name} ({g.name})" if names[f.name] > 1 else f.name)
                for f in g.engine.formats
            ],
        )
        for g in games
    ]


def stated_faction(deck: Deck) -> Faction | None:
    """The deck's faction where its format asks for one. A deck of another format may still
    hold one its cards happen to share (decks.services.write infers it), which labelled the
    deck with a faction that means nothing in its format."""
    fmt = deck.game.engine.format(deck.format)
    return deck.faction if fmt is not None and fmt.needs_faction else None


def format_name(deck: Deck) -> str:
    """The name of the deck's format, or its slug if its game has no such format now."""
    fmt = deck.game.engine.format(deck.format)
    return fmt.name if fmt else deck.format


def decks_using_card(*, short_id: str, limit: int) -> tuple[int, list[Deck]]:
    """How many public decks hold the card, and the `limit` most recently updated of them;
    one query unless there are more than `limit` (then a count too), by the entries' card
    index."""
    holding = DeckEntry.objects.filter(card__short_id=short_id).values("deck_id")
    decks = decks_listed(card_ids=None).filter(id__in=holding)
    shown = list(decks[:limit])
    return (len(shown) if len(shown) < limit else decks.count()), shown


def deck_card_counts(*, deck: Deck) -> dict[str, int]:
    """Copies of each card (by short id) in the deck, all zones together, in one query."""
    counts: dict[str, int] = {}
    for short_id, quantity in deck.entries.values_list("card__short_id", "quantity"):
        counts[short_id] = counts.get(short_id, 0) + quantity
    return counts


@dataclass(frozen=True)
class PlannedCard:
    """A card planned beside a deck (its maybe cards), ready to print."""

    short_id: str
    name: str
    url: str
    quantity: int
    official: bool


def planned_cards(*, deck: Deck) -> list[PlannedCard]:
    """The deck's planned cards by name, in one query however many there are (at most
    MAX_MAYBE)."""
    rows = deck.maybe.order_by("card__name", "card__short_id").values_list(
        "card__short_id", "card__slug", "card__name", "quantity", "card__card_set__is_official"
    )
    return [
        PlannedCard(
            short_id, name, reverse("catalogue:card", args=[short_id, slug]), quantity, official
        )
        for short_id, slug, name, quantity, official in rows
    ]


def saved_back_offsets(*, user: Any) -> tuple[float, float] | None:
    """The back offsets (x, y) in mm `user` saved for their printer, or None: anonymous, or
    never saved. Anonymous costs no query."""
    if not getattr(user, "is_authenticated", False):
        return None
    row = PrintProfile.objects.filter(user=user).values_list("back_offset_x", "back_offset_y")
    found = row.first()
    return (float(found[0]), float(found[1])) if found else None


def decks_for_sitemap() -> QuerySet[Deck, tuple[str, datetime]]:
    """(share key, last change) of the decks a sitemap lists: the public ones that are not
    deleted, exactly those the public list shows (never a private or unlisted one), in a total
    order; tuples, as thousands are read at once."""
    return decks_listed().select_related(None).order_by("id").values_list("share_key", "updated_at")


def public_decks_last_changed() -> datetime | None:
    """When a deck the sitemap lists last changed: one query."""
    return decks_listed().aggregate(newest=Max("updated_at"))["newest"]


def own_decks_of_format(*, user: Any, game_id: int, format_slug: str) -> list[tuple[str, str]]:
    """The (share key, name) of the user's own decks of a game in one format, by name: what
    the playtester offers as a second deck."""
    if not getattr(user, "is_authenticated", False):
        return []
    decks = _base().filter(owner_id=user.id, game_id=game_id, format=format_slug)
    return list(decks.order_by("name", "id").values_list("share_key", "name")[:100])
