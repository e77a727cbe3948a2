"""Decks built in a test, as plain DeckCards, and checked by a game's own formats (no database)."""

from collections.abc import Iterable, Mapping
from typing import Any

from engines import get_engine
from engines.rules import Deck, DeckCard, Problem, Severity


def card(
    name: str,
    card_type: str = "Unit",
    zone: str = "main",
    quantity: int = 1,
    factions: Iterable[str] = (),
    keywords: Iterable[str] = (),
    **stats: object,
) -> DeckCard:
    return DeckCard(
        key=name,
        name=name,
        card_type=card_type,
        zone=zone,
        quantity=quantity,
        factions=tuple(factions),
        keywords=tuple(keywords),
        stats=stats,
    )


def cards(n: int, prefix: str = "Card", **kwargs: Any) -> list[DeckCard]:
    return [card(f"{prefix} {i}", **kwargs) for i in range(n)]


def problems(
    game: str,
    fmt: str,
    deck_cards: Iterable[DeckCard],
    faction: str | None = None,
    settings: Mapping[str, Any] | None = None,
) -> list[Problem]:
    found = get_engine(game).format(fmt)
    assert found is not None, f"{game} has no format {fmt}"
    return found.validate(Deck(tuple(deck_cards), faction), settings)


def codes(found: Iterable[Problem], severity: Severity = Severity.ERROR) -> list[str]:
    return sorted(p.code for p in found if p.severity == severity)
