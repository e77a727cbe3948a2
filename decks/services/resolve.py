"""Requested cards turned into the engine's plain `DeckCard`s, through the game's snapshot.

Names, short ids, printings and saved entries are all looked up in memory. Only what the
snapshot cannot answer goes further: a short id or name of another game's card (one query,
and only when there is such a miss) and "did you mean" suggestions for unknown names.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from cardsite.cardlists.snapshot import FactionRef, GameSnapshot, SnapCard, game_snapshot
from cardsite.catalogue.models import Card
from cardsite.catalogue.search import names
from decks.services.intake import Intake, RequestedCard
from engines.bounds import capped, more_problems
from engines.errors import InputError
from engines.filters.text import fold
from engines.rules import DeckCard, Problem, Severity, infer_faction

# "Did you mean" is a fuzzy search per name: only this many distinct unknown names get one.
MAX_SUGGESTED = 20

# Problems that stop a deck being saved or used: the cards themselves cannot be known.
UNSAVABLE = frozenset({"unknown_card", "wrong_game", "unreadable_line", "unknown_zone"})


def capped_problems(problems: tuple[Problem, ...]) -> tuple[Problem, ...]:
    """The first problems an answer shows, then one saying how many more there are (an
    error if any of them is): a list of 1,000 bad lines is not answered with 1,000."""
    shown, more = capped(problems)
    if not more:
        return problems
    left = problems[len(shown) :]
    severity = (
        Severity.ERROR if any(p.severity == Severity.ERROR for p in left) else left[0].severity
    )
    return (*shown, Problem("more_problems", severity, more_problems(more).capitalize() + "."))


class DeckContentError(ValueError):
    """Cards that cannot be used at all (unknown, of another game, unreadable lines); the
    first of them, as capped_problems keeps them."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        problems = capped_problems(problems)
        super().__init__(" ".join(p.message for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class ResolvedEntry:
    card: SnapCard
    quantity: int
    zone: str

    def deck_card(self) -> DeckCard:
        return self.card.deck_card(self.quantity, self.zone)


@dataclass(frozen=True)
class PlannedEntry:
    """A planned card (a pasted list's sideboard or maybe-board): never part of the deck."""

    card: SnapCard
    quantity: int


@dataclass(frozen=True)
class ResolvedDeck:
    snapshot: GameSnapshot
    entries: tuple[ResolvedEntry, ...]
    problems: tuple[Problem, ...]
    # The faction asked for, or else the one the cards share (None when they share none).
    faction: FactionRef | None
    faction_given: bool = False
    # Planned cards, merged by card: outside every count, check and export of the deck.
    planned: tuple[PlannedEntry, ...] = ()

    # Cached: checking every format of a game, the counts, the hand and the odds all read
    # the same plain cards, which need building only once.
    @cached_property
    def deck_cards(self) -> tuple[DeckCard, ...]:
        return tuple(e.deck_card() for e in self.entries)

    @cached_property
    def counts(self) -> dict[str, Any]:
        """Cards by zone, by type and by faction, and the total."""
        zones: Counter[str] = Counter()
        types: Counter[str] = Counter()
        factions: Counter[str] = Counter()
        for e in self.entries:
            zones[e.zone] += e.quantity
            types[e.card.card_type or "type not given"] += e.quantity
            for name in e.card.factions or ("none",):
                factions[name] += e.quantity
        return {
            "total": sum(zones.values()),
            "zones": dict(zones),
            "types": dict(types),
            "factions": dict(factions),
        }

    @property
    def unsavable(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.code in UNSAVABLE)

    def known(self) -> ResolvedDeck:
        """The deck, when every card in it is known, to save, print or play; else
        DeckContentError with the problems in the way."""
        if self.unsavable:
            # By line: an unreadable line and an unknown card are read in separate passes.
            raise DeckContentError(tuple(sorted(self.unsavable, key=Problem.sort_key)))
        return self


def _error(code: str, message: str, request: RequestedCard, *cards: str) -> Problem:
    return Problem(code, Severity.ERROR, message, cards, line=request.line)


def resolve(*, game: str, intake: Intake, faction: str | None = None) -> ResolvedDeck:
    """The deck's cards, merged by card and zone, and a problem for each card that cannot be
    known. Raises InputError for a faction the game does not have."""
    snap = game_snapshot(game)
    zones = [z.slug for z in snap.engine.zones]
    problems = list(intake.problems)
    quantities: dict[tuple[int, str], int] = defaultdict(int)
    cards: dict[int, SnapCard] = {}
    misses: list[RequestedCard] = []
    for request in intake.cards:
        request, card = _found(snap, request)
        if card is None:
            misses.append(request)
            continue
        zone = request.zone or card.type_zone or zones[0]
        if zone not in zones:
            problems.append(
                _error(
                    "unknown_zone",
                    f"{card.name} {request.label} is put in '{zone}', which {snap.name} does "
                    f"not have (zones: {', '.join(sorted(zones))}).",
                    request,
                    card.name,
                )
            )
            continue
        quantities[(card.pk, zone)] += request.quantity
        cards[card.pk] = card
    planned: dict[int, int] = defaultdict(int)
    for request in intake.planned:
        request, card = _found(snap, request)
        if card is None:
            misses.append(request)
            continue
        planned[card.pk] += request.quantity
        cards[card.pk] = card
    problems += _missed(snap, sorted(misses, key=lambda r: r.line or 0))
    entries = tuple(ResolvedEntry(cards[pk], q, zone) for (pk, zone), q in quantities.items())

    chosen = None
    if faction:
        chosen = snap.faction(faction)
        if chosen is None:
            raise InputError("faction", f"{snap.name} has no faction {faction!r}.")
    else:
        inferred = infer_faction(e.deck_card() for e in entries)
        chosen = snap.faction_named(inferred) if inferred else None
    return ResolvedDeck(
        snap,
        entries,
        tuple(problems),
        chosen,
        bool(faction),
        tuple(PlannedEntry(cards[pk], q) for pk, q in planned.items()),
    )


def _found(snap: GameSnapshot, request: RequestedCard) -> tuple[RequestedCard, SnapCard | None]:
    """The request a card answers, and its card: the line as written (its `// ...` kept in
    the name) when a card is named so, else the line without its comment."""
    if request.literal is not None:
        card = _lookup(snap, request.literal)
        if card is not None:
            return request.literal, card
    return request, _lookup(snap, request)


def _lookup(snap: GameSnapshot, request: RequestedCard) -> SnapCard | None:
    if request.pk is not None:
        return snap.by_pk.get(request.pk)
    if request.short_id:
        return snap.cards.get(request.short_id)
    card = None
    if request.set_code and request.number:
        card = snap.by_print.get((request.set_code.upper(), request.number))
    if card is None and request.name:
        card = snap.by_name.get(fold(request.name))
    return card


def _missed(snap: GameSnapshot, misses: list[RequestedCard]) -> list[Problem]:
    if not misses:
        return []
    # A miss may be another game's card: one query for all the ids and names together.
    ids = {r.short_id for r in misses if r.short_id}
    folded = {fold(r.name) for r in misses if r.name and not r.short_id}
    elsewhere: dict[str, str] = {}
    if ids:
        rows = Card.objects.filter(short_id__in=ids).values_list("short_id", "game__name")
        elsewhere.update(rows)
    if folded:
        rows = (
            Card.objects.filter(search_name__in=folded)
            .exclude(game_id=snap.game_id)
            .values_list("search_name", "game__name")
        )
        for search_name, game_name in rows:
            elsewhere.setdefault(search_name, game_name)
    # One fuzzy search per distinct name, in the order the names first appear.
    unknown = dict.fromkeys(
        r.name for r in misses if r.name and not r.short_id and fold(r.name) not in elsewhere
    )
    suggested = {
        fold(name): tuple(names.suggestions(name, game=snap.slug))
        for name in list(unknown)[:MAX_SUGGESTED]
    }
    # Several cards of one other game are one mistake (another game's deck pasted in), so
    # they are one problem listing every line, not a problem per card.
    abroad: dict[str, list[RequestedCard]] = defaultdict(list)
    for r in misses:
        if (game := elsewhere.get(_key(r))) is not None:
            abroad[game].append(r)
    grouped = {game: found for game, found in abroad.items() if len(found) > 1}
    problems = [_other_game(snap, game, found) for game, found in grouped.items()]
    problems += [
        _unknown(snap, r, elsewhere, suggested.get(fold(r.name or ""), ()))
        for r in misses
        if elsewhere.get(_key(r)) not in grouped
    ]
    return problems


def _key(request: RequestedCard) -> str:
    """What a missed card is known by elsewhere: its short id, or its folded name."""
    return request.short_id or fold(request.name or "")


def _line_ranges(lines: list[int]) -> str:
    """Line numbers as runs: "1-12, 14, 20-21"."""
    runs: list[list[int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _other_game(snap: GameSnapshot, game: str, found: list[RequestedCard]) -> Problem:
    count = sum(r.quantity for r in found)
    lines = [r.line for r in found if r.line is not None]
    where = f" (line{'s' if len(lines) > 1 else ''} {_line_ranges(lines)})" if lines else ""
    return Problem(
        "wrong_game",
        Severity.ERROR,
        f"These {count} cards{where} are {game} cards, not {snap.name}: is this deck for "
        "the right game?",
        tuple(dict.fromkeys(r.name or r.short_id or "" for r in found)),
        line=min(lines, default=None),
        lines=tuple(sorted(lines)),
    )


def _unknown(
    snap: GameSnapshot,
    request: RequestedCard,
    elsewhere: dict[str, str],
    suggestions: tuple[str, ...],
) -> Problem:
    key = _key(request)
    if key in elsewhere:
        what = request.name or request.short_id or ""
        return _error(
            "wrong_game",
            f"{request.label} is a {elsewhere[key]} card, not {snap.name}.",
            request,
            what,
        )
    if request.short_id or request.pk is not None:
        return _error(
            "unknown_card", f"No card has the id {request.label}.", request, request.short_id or ""
        )
    hint = f"; did you mean {' or '.join(suggestions[:3])}?" if suggestions else "."
    return Problem(
        "unknown_card",
        Severity.ERROR,
        f"No {snap.name} card is named {request.label}{hint}",
        (request.name or "",),
        line=request.line,
        suggestions=suggestions,
    )
