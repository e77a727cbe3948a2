"""A playtest session of a deck: its game's table (engines.playtest) replayed from a seed and a
list of actions, as the API answers it and the playtest page draws it. One code path for both."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from decks.services.resolve import ResolvedDeck
from engines.base import GameEngine
from engines.errors import InputError
from engines.playtest import ActionError, card_json, playtest
from engines.rules import DeckCard
from engines.table import Table


def _card(card: DeckCard) -> dict[str, Any]:
    return {
        "id": card.key,
        "name": card.name,
        "type": card.card_type,
        "face": reverse("catalogue:card-face", args=[card.key]),
        "url": reverse("catalogue:card-bare", args=[card.key]),
    }


def table_json(table: Table) -> dict[str, Any]:
    """The table's declaration, for drawing it: zones in order, steps and counters."""
    return {
        "turn_name": table.turn_name,
        "opening": table.opening_name,
        "deck": table.deck,
        "hand": table.hand,
        "discard": table.discard,
        "zones": [
            {
                "slug": z.slug,
                "name": z.name,
                "kind": z.kind.value,
                "group": z.group,
                "exhaust": z.exhaust,
                "capacity": z.capacity,
                "limit": z.limit,
                "source": z.source,
            }
            for z in table.zones
        ],
        "steps": [{"name": s.name, "source": s.source} for s in table.steps],
        "counters": [
            {"slug": c.slug, "name": c.name, "minimum": c.minimum, "maximum": c.maximum}
            for c in table.counters
        ],
        "discard_name": table.discard_name,
        "exhaust_name": table.exhaust_name,
        "ready_name": table.ready_name,
    }


def playtest_table(engine: GameEngine) -> Table:
    if not isinstance(engine.table, Table):
        raise InputError("game", f"{engine.name} has no playtest table")
    return engine.table


def playtest_session(
    *, resolved: ResolvedDeck, seed: int, actions: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The deck's table after shuffling by `seed` and replaying `actions`, as JSON-ready data
    with the table's declaration. An action the rules refuse raises engines' ActionError."""
    table = playtest_table(resolved.snapshot.engine)
    result = playtest(table, resolved.deck_cards, seed=seed, actions=actions)
    return {**card_json(result, _card), "table": table_json(table), "seed": seed}


__all__ = ["ActionError", "playtest_session", "playtest_table", "table_json"]
