"""Every way a deck arrives, turned into one list of requested cards.

A posted card list, decklist text, a deck code, a saved deck and one quantity change from the
builder all become an `Intake`: the cards asked for, by id, name or printing, with the line
each came from, and the lines that could not be read. Nothing here touches the catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from decks.decklist import CODE_PREFIX, DeckCodeError, decode_code, parse_text
from decks.models import Deck
from engines.base import GameEngine
from engines.errors import InputError
from engines.rules import Problem, Severity

MAX_QUANTITY = 99


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

    @property
    def label(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"'{self.name or self.short_id}'{where}"


@dataclass(frozen=True)
class Intake:
    cards: tuple[RequestedCard, ...] = ()
    # Lines of a decklist that could not be read at all.
    problems: tuple[Problem, ...] = ()
    # What a deck code carries besides its cards.
    format: str | None = None
    faction: str | None = None


def intake_cards(cards: Iterable[Mapping[str, Any]]) -> Intake:
    """A posted list: each item has a quantity and a card's `name` or short `id`."""
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


def intake_text(text: str, engine: GameEngine) -> Intake:
    lines, unreadable = parse_text(text, engine)
    return Intake(
        tuple(
            RequestedCard(x.quantity, x.name, None, x.zone, x.set_code, x.number, x.line)
            for x in lines
        ),
        tuple(
            Problem("unreadable_line", Severity.ERROR, f"Line {p.line}: {p.message}", line=p.line)
            for p in unreadable
        ),
    )


def intake_code(code: str, *, game_slug: str) -> Intake:
    try:
        decoded = decode_code(code.strip())
    except DeckCodeError as exc:
        raise InputError("code", f"That deck code cannot be used: {exc}.") from None
    if decoded["game"] != game_slug:
        raise InputError("code", f"The code is for {decoded['game']}, not {game_slug}.")
    entries: Any = decoded["entries"]
    return Intake(
        tuple(RequestedCard(q, None, s, z) for s, q, z in entries),
        format=str(decoded["format"]),
        faction=str(decoded["faction"]) if decoded["faction"] else None,
    )


def intake_pasted(pasted: str, engine: GameEngine) -> Intake:
    """A paste box that takes either a deck code or decklist text."""
    if pasted.strip().startswith(CODE_PREFIX + "."):
        return intake_code(pasted, game_slug=engine.slug)
    return intake_text(pasted, engine)


def intake_posted(data: Mapping[str, Any]) -> Intake:
    """A validated API body holding `cards`, `text` or `code` (and its `game`)."""
    engine = data["game"].engine
    if data.get("code"):
        return intake_code(data["code"], game_slug=engine.slug)
    if "text" in data:
        return intake_text(data["text"], engine)
    return intake_cards(data.get("cards", ()))


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
