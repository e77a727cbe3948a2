"""Every way a deck arrives, turned into one list of requested cards.

A posted card list, decklist text, a deck code, a Cockatrice deck file, a saved deck and one
quantity change from the builder all become an `Intake`: the cards asked for, by id, name or
printing, with the line each came from, and the lines that could not be read. Nothing here
touches the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cardsite.cardlists.cod import MAX_COD_BYTES, CodError, cod_bytes, looks_like_cod, parse_cod
from cardsite.cardlists.decklist import (
    CODE_PREFIX,
    MAX_LINES,
    MAX_QUANTITY,
    DeckCodeError,
    ListLine,
    decode_code,
    parse_text,
)
from decks.models import Deck
from engines import ENGINES
from engines.base import GameEngine
from engines.errors import InputError
from engines.rules import Problem, Severity

# The limits on a deck as it arrives, in one place (the Limits table, docs/pages/operations.md);
# past any of them the request is refused with a 400 naming the limit before a card is looked
# up. A decklist's MAX_LINES is counted by parse_text, as it splits the lines.
MAX_ENTRIES = 500


@dataclass(frozen=True)
class RequestedCard:
    quantity: int = 1
    name: str | None = None
    short_id: str | None = None
    zone: str | None = None
    set_code: str | None = None
    number: str | None = None
    line: int | None = None
    # A saved entry's card, by primary key: it was resolved when it was saved.
    pk: int | None = None
    # The line read with its trailing `// ...` or `# ...` kept in the name: the card asked
    # for, if a card is named so ("Dead // Gone"); else this request, the comment dropped.
    literal: RequestedCard | None = None

    @property
    def label(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"'{self.name or self.short_id}'{where}"


@dataclass(frozen=True)
class Intake:
    cards: tuple[RequestedCard, ...] = ()
    # Lines of a decklist that could not be read at all, and notices on how one was read.
    problems: tuple[Problem, ...] = ()
    # A decklist's sideboard or maybe-board: the deck's planned cards, never counted into it.
    planned: tuple[RequestedCard, ...] = ()
    # What a deck code carries besides its cards.
    format: str | None = None
    faction: str | None = None


def bounded(intake: Intake, engine: GameEngine, field: str, most: int | None = None) -> Intake:
    """The intake, if it is within the deck limits; else InputError naming the limit. `most`
    replaces the game's deck total for a list that is not a deck (a sheet of proxies)."""
    entries = len(intake.cards) + len(intake.planned)
    if entries > MAX_ENTRIES:
        raise InputError(
            field, f"A deck has at most {MAX_ENTRIES} entries; this one has {entries:,}."
        )
    total = sum(c.quantity for c in intake.cards)
    if most is None and total > engine.max_deck_cards:
        raise InputError(
            field,
            f"A {engine.name} deck has at most {engine.max_deck_cards} cards; "
            f"this one has {total:,}.",
        )
    if most is not None and total > most:
        raise InputError(field, f"A list has at most {most:,} cards; this one has {total:,}.")
    return intake


def intake_cards(
    cards: Iterable[Mapping[str, Any]], engine: GameEngine, most: int | None = None
) -> Intake:
    """A posted list: each item has a quantity and a card's `name` or short `id`."""
    return bounded(_listed(cards), engine, "cards", most)


def _listed(cards: Iterable[Mapping[str, Any]]) -> Intake:
    return Intake(
        tuple(
            RequestedCard(
                quantity=c.get("quantity", 1),
                name=c.get("name"),
                short_id=c.get("id"),
                zone=c.get("zone"),
            )
            for c in cards
        )
    )


def intake_text(text: str, engine: GameEngine, most: int | None = None) -> Intake:
    lines, unreadable = parse_text(text, engine, max_lines=MAX_LINES)
    intake = Intake(
        tuple(_requested(x) for x in lines if not x.planned),
        tuple(
            Problem(
                "read_as_sideboard" if p.notice else "unreadable_line",
                Severity.WARNING if p.notice else Severity.ERROR,
                f"Line {p.line}: {p.message}",
                line=p.line,
            )
            for p in unreadable
        ),
        planned=tuple(_requested(x) for x in lines if x.planned),
    )
    return bounded(intake, engine, "text", most)


def _requested(x: ListLine) -> RequestedCard:
    return RequestedCard(
        x.quantity,
        x.name,
        None,
        x.zone,
        x.set_code,
        x.number,
        x.line,
        literal=_requested(x.literal) if x.literal is not None else None,
    )


def intake_code(code: str, engine: GameEngine) -> Intake:
    game_slug = engine.slug
    try:
        decoded = decode_code(code.strip())
    except DeckCodeError as exc:
        raise InputError("code", f"That deck code cannot be used: {exc}.") from None
    if decoded["game"] != game_slug:
        # One problem for the whole code, in the games' own names: pasting another game's
        # deck is one mistake, not one per card.
        other = ENGINES.get(str(decoded["game"]))
        raise InputError(
            "code",
            f"This is a {other.name} deck code; this deck is {engine.name}."
            if other is not None
            else f"This deck code is for a game this site does not have; this deck is "
            f"{engine.name}.",
        )
    entries: Any = decoded["entries"]
    intake = Intake(
        tuple(RequestedCard(q, None, s, z) for s, q, z in entries),
        format=str(decoded["format"]),
        faction=str(decoded["faction"]) if decoded["faction"] else None,
    )
    return bounded(intake, engine, "code")


# A Cockatrice name made unique with its printing (cardsite.catalogue.cockatrice):
# `Name (SET) number`.
_PRINTED_NAME = re.compile(r"^(?P<name>.+) \((?P<set>[A-Za-z0-9-]+)\) (?P<number>\S+)$")


def intake_cod(
    text: str, engine: GameEngine, most: int | None = None, field: str = "cod"
) -> Intake:
    """A Cockatrice `.cod`: its `main` zone is the deck (each card goes to the zone its type
    belongs in), its `side` zone the planned cards; any other zone (Cockatrice's tokens) is
    left out, and said so. A refusal names `field`, where the file came in."""
    try:
        _, cards = parse_cod(text)
    except CodError as exc:
        raise InputError(field, f"That Cockatrice deck file cannot be used: {exc}.") from None
    deck: list[RequestedCard] = []
    planned: list[RequestedCard] = []
    skipped: set[str] = set()
    for number, card in enumerate(cards, start=1):
        printed = _PRINTED_NAME.match(card.name)
        request = RequestedCard(card.quantity, card.name, line=number)
        if printed:
            # The name as written wins if a card has it; else the printing it names.
            request = RequestedCard(
                card.quantity,
                printed["name"],
                set_code=printed["set"],
                number=printed["number"],
                line=number,
                literal=request,
            )
        if card.zone == "main":
            deck.append(request)
        elif card.zone == "side":
            planned.append(request)
        else:
            skipped.add(card.zone)
    problems = tuple(
        Problem(
            "zone_left_out",
            Severity.WARNING,
            f"The zone {zone!r} is left out: a deck file's cards are in main and side.",
        )
        for zone in sorted(skipped)
    )
    return bounded(Intake(tuple(deck), problems, planned=tuple(planned)), engine, field, most)


def uploaded_cod(upload: Any) -> str:
    """An uploaded `.cod` file's text; past MAX_COD_BYTES no more than the limit and a byte
    is read, and the answer names the limit."""
    data = upload.read(MAX_COD_BYTES + 1)
    try:
        if (upload.size or 0) > MAX_COD_BYTES:
            raise CodError(f"a Cockatrice deck file is at most {MAX_COD_BYTES // 1024} KB")
        return cod_bytes(data)
    except CodError as exc:
        raise InputError("cod_file", f"That Cockatrice deck file cannot be used: {exc}.") from None


def intake_pasted(pasted: str, engine: GameEngine) -> Intake:
    """A paste box that takes a deck code, a Cockatrice deck file or decklist text."""
    if pasted.strip().startswith(CODE_PREFIX + "."):
        return intake_code(pasted, engine)
    if looks_like_cod(pasted):
        return intake_cod(pasted, engine)
    return intake_text(pasted, engine)


def intake_posted(data: Mapping[str, Any], most: int | None = None) -> Intake:
    """A validated API body holding `cards`, `text` (decklist text or a Cockatrice `.cod`) or
    `code` (and its `game`); `most` is the total for a list that is not a deck (see
    `bounded`)."""
    engine = data["game"].engine
    if data.get("code"):
        return intake_code(data["code"], engine)
    if "text" in data:
        if looks_like_cod(data["text"]):
            return intake_cod(data["text"], engine, most, field="text")
        return intake_text(data["text"], engine, most)
    return intake_cards(data.get("cards", ()), engine, most)


def intake_deck(deck: Deck) -> Intake:
    """A saved deck's cards, in one query of plain values."""
    rows = deck.entries.order_by("zone", "id").values_list(
        "card_id", "card__short_id", "quantity", "zone"
    )
    return Intake(
        tuple(RequestedCard(quantity=q, short_id=s, zone=z, pk=pk) for pk, s, q, z in rows)
    )


def intake_quantity(
    current: Intake, *, short_id: str, zone: str, step: int = 0, quantity: int | None = None
) -> Intake:
    """The deck with one card's quantity in one zone changed by `step`, or set to `quantity`,
    kept within 0 to MAX_QUANTITY; a card brought to 0 leaves the deck."""
    kept: list[RequestedCard] = []
    had = 0
    for card in current.cards:
        if card.short_id == short_id and card.zone == zone:
            had += card.quantity
        else:
            kept.append(card)
    wanted = max(0, min(MAX_QUANTITY, quantity if quantity is not None else had + step))
    if wanted:
        kept.append(RequestedCard(wanted, None, short_id, zone))
    return replace(current, cards=tuple(kept))
