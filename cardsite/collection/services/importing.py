"""Importing a collection: all or nothing, and every problem names its line.

Lines are read (reading.py), then each is matched to one printing in its game's snapshot, the
same one decklists use: `SET NUMBER` names a printing; a bare name means the printing a
decklist's bare name means (the official one from the newest set). A name that different
cards of the game share (different rules text) is ambiguous and must give its set and number.
Nothing is stored while any line has a problem.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import User
from django.db import transaction

from cardsite.cardlists.snapshot import GameSnapshot, SnapCard, game_snapshot
from cardsite.catalogue.documents import Problem
from cardsite.catalogue.models import Card
from cardsite.collection.models import MAX_QUANTITY, CollectionCard
from cardsite.collection.services.owner_lock import lock_owner
from cardsite.collection.services.reading import ImportLine, read_csv, read_text
from engines import ENGINES
from engines.errors import InputError
from engines.filters.text import fold

Mode = Literal["add", "replace"]


class CollectionImportError(ValueError):
    """The import's problems, each naming its line; nothing was stored."""

    def __init__(self, field: str, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.field = field
        self.problems = problems


@dataclass(frozen=True)
class ImportResult:
    printings: int
    copies: int


def collection_import(
    *,
    owner: User,
    game: str | None = None,
    text: str | None = None,
    csv: str | None = None,
    mode: Mode = "add",
    confirm_empty: bool = False,
) -> ImportResult:
    """Add the listed copies to `owner`'s collection (`mode="add"`), or make the collection
    of each game listed exactly the list (`"replace"`). A replace by a list naming no card
    empties the game, so it needs `confirm_empty`. InputError for input past the limits,
    without a game, or an unconfirmed empty replace; CollectionImportError listing every
    problem by line. Either way nothing is stored."""
    if mode not in ("add", "replace"):
        raise InputError("mode", "The mode is add or replace.")
    if (text is None) == (csv is None):
        raise InputError("text", "Give either text or a CSV file.")
    if game is not None and game not in ENGINES:
        raise InputError("game", f"No game {game[:40]!r}; games are {', '.join(sorted(ENGINES))}.")
    field = "text" if text is not None else "csv"
    if text is not None:
        if game is None:
            raise InputError("game", "Say which game the list is for.")
        lines, problems = read_text(text, ENGINES[game])
    else:
        lines, problems = read_csv(csv or "")
    wanted, found = _resolve(lines, game)
    problems += found
    games = {found.game_id for found, _ in wanted.values()} if mode == "replace" else set()
    if mode == "replace" and game is not None:
        games.add(game_snapshot(game).game_id)
    with transaction.atomic():
        # What is held is read under the owner's lock, so an import at the same moment as a
        # `+` (or another import) counts the copies it added, and the 999 check holds.
        lock_owner(owner=owner)
        problems += _over_limit(owner, wanted, mode)
        if problems:
            raise CollectionImportError(field, sorted(problems, key=lambda p: p.line or 0))
        if mode == "replace" and not wanted and not confirm_empty:
            raise InputError(
                "confirm_empty",
                "The list names no card, so replacing with it would remove every card of "
                "the game from your collection. Confirm emptying it (confirm_empty) to do so.",
            )
        _store(owner, {pk: q for pk, (_, q) in wanted.items()}, mode, games)
    return ImportResult(len(wanted), sum(q for _, q in wanted.values()))


@dataclass(frozen=True)
class _Found:
    pk: int
    game_id: int
    # The first line that named this printing.
    line: int


def _resolve(
    lines: list[ImportLine], game: str | None
) -> tuple[dict[int, tuple[_Found, int]], list[Problem]]:
    problems: list[Problem] = []
    wanted: dict[int, tuple[_Found, int]] = {}
    bare: dict[tuple[int, str], list[int]] = defaultdict(list)
    # Read once per import, not once per line (each read checks the catalogue's version).
    snaps: dict[str, GameSnapshot] = {}
    for line in lines:
        slug = line.game or game
        if slug is None:
            problems.append(Problem(line.line, "game", "say which game (a game column)"))
            continue
        if slug not in ENGINES or (game is not None and line.game and line.game != game):
            problems.append(Problem(line.line, "game", f"{slug[:40]!r} is not the game here"))
            continue
        snap = snaps.get(slug) or snaps.setdefault(slug, game_snapshot(slug))
        if line.literal is not None and _lookup(snap, line.literal)[0] is not None:
            line = line.literal
        card, problem = _lookup(snap, line)
        if card is None:
            problems.append(problem or Problem(line.line, "", "no such card"))
            continue
        if not (line.set_code and line.number):
            bare[(snap.game_id, fold(line.name or ""))].append(line.line)
        found = _Found(card.pk, snap.game_id, line.line)
        wanted[card.pk] = (found, wanted.get(card.pk, (found, 0))[1] + line.quantity)
    problems += _ambiguous(bare)
    return wanted, problems


def _lookup(snap: GameSnapshot, line: ImportLine) -> tuple[SnapCard | None, Problem | None]:
    if line.set_code or line.number:
        card = snap.by_print.get(((line.set_code or "").upper(), line.number or ""))
        if card is None:
            where = f"{line.set_code or '?'} {line.number or '?'}"
            return None, Problem(line.line, "set", f"{snap.name} has no printing {where[:60]}")
        if line.name and fold(line.name) != fold(card.name):
            return None, Problem(
                line.line,
                "name",
                f"{card.set_code} {card.number} is {card.name}, not {line.name[:80]}",
            )
        return card, None
    card = snap.by_name.get(fold(line.name or ""))
    if card is None:
        return None, Problem(
            line.line, "name", f"{snap.name} has no card named {(line.name or '')[:80]!r}"
        )
    return card, None


def _ambiguous(bare: dict[tuple[int, str], list[int]]) -> list[Problem]:
    """Bare names that different cards share: one query for them all."""
    if not bare:
        return []
    texts: dict[tuple[int, str], set[str]] = defaultdict(set)
    rows = Card.objects.filter(search_name__in={name for _, name in bare}).values_list(
        "game_id", "search_name", "rules_text"
    )
    for game_id, name, rules in rows:
        texts[(game_id, name)].add(rules)
    return [
        Problem(
            n, "name", f"{len(texts[key])} different cards share this name; give its set and number"
        )
        for key, numbers in bare.items()
        if len(texts.get(key, ())) > 1
        for n in numbers
    ]


def _over_limit(owner: User, wanted: dict[int, tuple[_Found, int]], mode: Mode) -> list[Problem]:
    if mode == "add" and wanted:
        held = dict(
            CollectionCard.objects.filter(owner=owner, card_id__in=list(wanted)).values_list(
                "card_id", "quantity"
            )
        )
    else:
        held = {}
    return [
        Problem(
            found.line,
            "quantity",
            f"this makes {q + held.get(pk, 0):,} copies of one printing; a collection holds "
            f"at most {MAX_QUANTITY}",
        )
        for pk, (found, q) in wanted.items()
        if q + held.get(pk, 0) > MAX_QUANTITY
    ]


def _store(owner: User, wanted: dict[int, int], mode: Mode, games: set[int]) -> None:
    """Under the owner's lock (collection_import): nobody else writes these rows meanwhile."""
    rows = CollectionCard.objects.filter(owner=owner)
    if mode == "replace":
        rows.filter(card__game_id__in=games).exclude(card_id__in=list(wanted)).delete()
        held: dict[int, int] = {}
    else:
        held = dict(rows.filter(card_id__in=list(wanted)).values_list("card_id", "quantity"))
    CollectionCard.objects.bulk_create(
        [
            CollectionCard(owner=owner, card_id=pk, quantity=min(MAX_QUANTITY, q + held.get(pk, 0)))
            for pk, q in wanted.items()
        ],
        batch_size=500,
        update_conflicts=True,
        unique_fields=["owner", "card"],
        update_fields=["quantity", "updated_at"],
    )
