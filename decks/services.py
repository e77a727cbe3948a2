"""Checking decks against their game's format, and (below) writing them.

A deck arrives as requested cards: names or short ids, quantities, perhaps zones. Checking
resolves them to catalogue cards, fills in what the player left out (zones from card types,
the faction from the cards), and hands plain values to the game's engine for its rules.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cardsite.catalogue.models import Card, Faction, Game
from cardsite.catalogue.search import names
from cardsite.catalogue.search.text import fold
from decks.decklist import ListLine, ListProblem
from decks.models import Deck as DeckModel
from decks.models import DeckEntry, FormatSetting
from engines.base import slugify
from engines.rules import Deck, DeckCard, Format, Severity, infer_faction


class DeckInputError(ValueError):
    """The request cannot be checked at all (unknown game or format): a 400, not a problem list."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


@dataclass(frozen=True)
class RequestedCard:
    quantity: int = 1
    name: str | None = None
    short_id: str | None = None
    zone: str | None = None
    set_code: str | None = None
    number: str | None = None
    line: int | None = None

    @classmethod
    def from_line(cls, line: ListLine) -> RequestedCard:
        return cls(line.quantity, line.name, None, line.zone, line.set_code, line.number, line.line)

    @classmethod
    def from_entry(cls, entry: Any) -> RequestedCard:
        """A saved deck entry as a request, to check or rewrite a stored deck."""
        return cls(entry.quantity, None, entry.card.short_id, entry.zone)

    @property
    def label(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"'{self.name or self.short_id}'{where}"


@dataclass(frozen=True)
class Entry:
    card: Card
    quantity: int
    zone: str


@dataclass
class CheckResult:
    legal: bool
    problems: list[dict[str, Any]]
    counts: dict[str, Any]
    entries: list[Entry]
    faction: Faction | None = None
    format: Format | None = None
    unresolved: list[RequestedCard] = field(default_factory=list)


def format_for(game: Game, slug: str) -> Format:
    fmt = game.engine.format(slug)
    if fmt is None:
        known = ", ".join(f.slug for f in game.engine.formats)
        raise DeckInputError("format", f"{game.name} has no format {slug!r}; formats: {known}.")
    return fmt


def format_settings(game: Game, fmt: Format) -> dict[str, Any]:
    stored = FormatSetting.objects.filter(game=game, format=fmt.slug)
    return {**fmt.default_settings(), **{s.key: s.value for s in stored}}


def _problem(code: str, message: str, cards: list[str], **extra: Any) -> dict[str, Any]:
    return {"code": code, "severity": "error", "message": message, "cards": cards, **extra}


def _resolve(
    game: Game, requested: list[RequestedCard]
) -> tuple[list[tuple[RequestedCard, Card]], list[dict[str, Any]]]:
    """Cards for the requests, in a bounded number of queries, and a problem for each miss."""
    base = Card.objects.select_related("card_type", "game", "card_set").prefetch_related(
        "factions", "keywords", "subtypes"
    )
    by_id = {
        c.short_id: c
        for c in base.filter(short_id__in=[r.short_id for r in requested if r.short_id])
    }
    printed = {
        (c.card_set.code.upper(), c.number): c
        for c in base.filter(
            game=game, card_set__code__in=[r.set_code for r in requested if r.set_code]
        )
    }
    # Of several printings of a name, the official one wins, then the newest set.
    by_name: dict[str, Card] = {}
    folded = {fold(r.name) for r in requested if r.name and not r.short_id}
    for card in base.filter(game=game, search_name__in=folded).order_by(
        "card_set__is_official", "card_set__release_date", "card_set__code"
    ):
        by_name[card.search_name] = card

    found: list[tuple[RequestedCard, Card]] = []
    problems: list[dict[str, Any]] = []
    for request in requested:
        card = None
        if request.short_id:
            card = by_id.get(request.short_id)
        elif request.set_code and request.number:
            card = printed.get((request.set_code, request.number))
        if card is None and request.name and not request.short_id:
            card = by_name.get(fold(request.name))
        if card is not None and card.game_id != game.id:
            problems.append(
                _problem(
                    "wrong_game",
                    f"{card.name} {request.label} is a {card.game.name} card, not {game.name}.",
                    [card.name],
                    line=request.line,
                )
            )
        elif card is not None:
            found.append((request, card))
        else:
            problems.append(_unknown(game, request))
    return found, problems


def _unknown(game: Game, request: RequestedCard) -> dict[str, Any]:
    if request.short_id:
        return _problem(
            "unknown_card",
            f"No card has the id {request.label}.",
            [request.short_id],
            line=request.line,
            suggestions=[],
        )
    elsewhere = names.match_exact(request.name or "")
    if elsewhere.card is not None and elsewhere.card.game_id != game.id:
        return _problem(
            "wrong_game",
            f"{request.label} is a {elsewhere.card.game.name} card, not {game.name}.",
            [request.name or ""],
            line=request.line,
        )
    suggestions = names.suggestions(request.name or "", game=game.slug)
    hint = f"; did you mean {' or '.join(suggestions[:3])}?" if suggestions else "."
    return _problem(
        "unknown_card",
        f"No {game.name} card is named {request.label}{hint}",
        [request.name or ""],
        line=request.line,
        suggestions=suggestions,
    )


def _deck_card(card: Card, quantity: int, zone: str) -> DeckCard:
    return DeckCard(
        key=card.short_id,
        name=card.name,
        card_type=card.card_type.name,
        zone=zone,
        quantity=quantity,
        factions=tuple(f.name for f in card.factions.all()),
        keywords=tuple(k.name for k in card.keywords.all()),
        subtypes=tuple(s.name for s in card.subtypes.all()),
        stats=card.stats,
        text=card.rules_text,
    )


def deck_check(
    *,
    game: Game,
    format_slug: str,
    faction: str | None = None,
    requested: list[RequestedCard],
    list_problems: list[ListProblem] = (),
) -> CheckResult:
    """Everything wrong with a deck in a format, without saving anything."""
    fmt = format_for(game, format_slug)
    engine = game.engine
    zones = {z.slug for z in engine.zones}
    problems = [
        _problem("unreadable_line", f"Line {p.line}: {p.message}", [], line=p.line)
        for p in list_problems
    ]

    found, misses = _resolve(game, requested)
    problems += misses
    quantities: dict[tuple[int, str], int] = defaultdict(int)
    cards: dict[int, Card] = {}
    for request, card in found:
        zone = request.zone or card.card_type.zone or engine.zones[0].slug
        if zone not in zones:
            problems.append(
                _problem(
                    "unknown_zone",
                    f"{card.name} {request.label} is put in "
                    f"'{zone}', which {game.name} does not have "
                    f"(zones: {', '.join(sorted(zones))}).",
                    [card.name],
                    line=request.line,
                )
            )
            continue
        quantities[(card.id, zone)] += request.quantity
        cards[card.id] = card
    entries = [Entry(cards[cid], q, zone) for (cid, zone), q in quantities.items()]
    deck_cards = [_deck_card(e.card, e.quantity, e.zone) for e in entries]

    faction_row = None
    if faction:
        faction_row = Faction.objects.filter(game=game, slug=slugify(faction)).first()
        if faction_row is None:
            raise DeckInputError("faction", f"{game.name} has no faction {faction!r}.")
    elif fmt.needs_faction:
        inferred = infer_faction(deck_cards)
        faction_row = Faction.objects.filter(game=game, name=inferred).first() if inferred else None

    deck = Deck(tuple(deck_cards), faction_row.name if faction_row else None)
    for p in fmt.validate(deck, format_settings(game, fmt)):
        problems.append(
            {
                "code": p.code,
                "severity": str(p.severity),
                "message": p.message,
                "cards": list(p.cards),
                "source": p.source,
            }
        )
    problems.sort(key=lambda p: (p["severity"] != Severity.ERROR, p["code"], p["message"]))
    return CheckResult(
        legal=not any(p["severity"] == Severity.ERROR for p in problems),
        problems=problems,
        counts=_counts(entries),
        entries=entries,
        faction=faction_row,
        format=fmt,
    )


def _counts(entries: list[Entry]) -> dict[str, Any]:
    zones: Counter[str] = Counter()
    types: Counter[str] = Counter()
    factions: Counter[str] = Counter()
    for e in entries:
        zones[e.zone] += e.quantity
        types[e.card.card_type.name] += e.quantity
        for f in e.card.factions.all() or [None]:
            factions[f.name if f else "none"] += e.quantity
    return {
        "total": sum(zones.values()),
        "zones": dict(zones),
        "types": dict(types),
        "factions": dict(factions),
    }


# --- writing decks --------------------------------------------------------------------------


class DeckConflict(Exception):
    """The deck changed since the version the writer read: nothing was written."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the deck is at version {current}")
        self.current = current


class DeckContentError(ValueError):
    """Cards that cannot be saved (unknown, of another game, unreadable lines), with problems."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(p["message"] for p in problems))
        self.problems = problems


UNSAVABLE = {"unknown_card", "wrong_game", "unreadable_line", "unknown_zone"}


def _checked_entries(
    game: Game,
    format_slug: str,
    faction: str | None,
    requested: list[RequestedCard],
    list_problems: list[ListProblem],
) -> CheckResult:
    result = deck_check(
        game=game,
        format_slug=format_slug,
        faction=faction,
        requested=requested,
        list_problems=list_problems,
    )
    blocking = [p for p in result.problems if p["code"] in UNSAVABLE]
    if blocking:
        raise DeckContentError(blocking)
    return result


def _write_entries(deck: DeckModel, entries: list[Entry]) -> None:
    deck.entries.all().delete()
    DeckEntry.objects.bulk_create(
        [DeckEntry(deck=deck, card=e.card, quantity=e.quantity, zone=e.zone) for e in entries]
    )


def deck_create(
    *,
    owner: Any,
    game: Game,
    format_slug: str,
    name: str,
    description: str = "",
    visibility: str = "private",
    faction: str | None = None,
    requested: list[RequestedCard],
    list_problems: list[ListProblem] = (),
    forked_from: DeckModel | None = None,
) -> DeckModel:
    result = _checked_entries(game, format_slug, faction, requested, list(list_problems))
    with transaction.atomic():
        deck = DeckModel.objects.create(
            owner=owner,
            game=game,
            format=format_slug,
            name=name,
            description=description,
            visibility=visibility,
            faction=result.faction,
            forked_from=forked_from,
        )
        _write_entries(deck, result.entries)
    return deck


def deck_update(
    *,
    deck: DeckModel,
    expected_version: int | None,
    changes: dict[str, Any],
    requested: list[RequestedCard] | None = None,
    list_problems: list[ListProblem] = (),
) -> DeckModel:
    """Apply `changes` (name, description, visibility, format, faction) and, when given, new
    cards, only if the deck is still at `expected_version`; raises DeckConflict otherwise.

    The version check and bump are one UPDATE, so of concurrent writers exactly one wins.
    """
    format_slug = changes.get("format", deck.format)
    faction = changes.get("faction", deck.faction.name if deck.faction else None)
    if requested is None:
        requested = [RequestedCard.from_entry(e) for e in deck.entries.select_related("card")]
    result = _checked_entries(deck.game, format_slug, faction, requested, list(list_problems))
    fields = {k: v for k, v in changes.items() if k in {"name", "description", "visibility"}}
    with transaction.atomic():
        version = expected_version if expected_version is not None else deck.version
        updated = DeckModel.objects.filter(pk=deck.pk, version=version).update(
            version=F("version") + 1,
            format=format_slug,
            faction=result.faction,
            updated_at=timezone.now(),
            **fields,
        )
        if not updated:
            raise DeckConflict(DeckModel.objects.get(pk=deck.pk).version)
        _write_entries(deck, result.entries)
    deck.refresh_from_db()
    return deck


def deck_delete(*, deck: DeckModel) -> None:
    deck.delete()


def deck_fork(*, deck: DeckModel, owner: Any) -> DeckModel:
    """A private copy of a deck someone can read, owned by `owner`."""
    requested = [RequestedCard.from_entry(e) for e in deck.entries.select_related("card")]
    return deck_create(
        owner=owner,
        game=deck.game,
        format_slug=deck.format,
        name=f"{deck.name} (copy)",
        description=deck.description,
        faction=deck.faction.name if deck.faction else None,
        requested=requested,
        forked_from=deck,
    )


# --- goldfish -------------------------------------------------------------------------------


def goldfish_check(*, game: Game, runs: int, policy: dict[str, Any]) -> Any:
    """The game's goldfish procedure, once the request is known to be one it can run; else
    DeckInputError naming the field. Lets a background job refuse bad input before queueing."""
    from engines.goldfish import MAX_RUNS, GoldfishError, resolve_policy

    if not 1 <= runs <= MAX_RUNS:
        raise DeckInputError("runs", f"runs must be between 1 and {MAX_RUNS:,}, got {runs:,}")
    procedure = game.engine.goldfish
    if procedure is None:
        raise DeckInputError("game", f"{game.name} has no goldfish procedure")
    try:
        resolve_policy(game.engine.goldfish_policy, policy)
    except GoldfishError as exc:
        raise DeckInputError(f"policy.{exc.field}", str(exc)) from None
    return procedure


def goldfish_run(
    *,
    game: Game,
    entries: list[Entry],
    runs: int,
    seed: int,
    policy: dict[str, Any],
    progress: Any = None,
) -> dict[str, Any]:
    """Simulate `runs` solo games of these entries by the game's procedure. Raises
    DeckInputError for a runs count over the cap or a bad policy option."""
    from engines.goldfish import GoldfishError

    procedure = goldfish_check(game=game, runs=runs, policy=policy)
    cards = [_deck_card(e.card, e.quantity, e.zone) for e in entries]
    try:
        result = procedure(cards, runs=runs, seed=seed, policy=policy, progress=progress)
    except GoldfishError as exc:
        raise DeckInputError(f"policy.{exc.field}", str(exc)) from None
    return {"game": game.slug, "runs": runs, "seed": seed, **result}


def deck_entries(deck: DeckModel) -> list[Entry]:
    return [
        Entry(e.card, e.quantity, e.zone)
        for e in deck.entries.select_related("card__card_type").prefetch_related(
            "card__factions", "card__keywords", "card__subtypes"
        )
    ]
