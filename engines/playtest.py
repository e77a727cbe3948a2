"""Playtesting by hand: a game's Table (engines.table) played forward from a list of actions.

The state is a pure function of (cards, seed, actions): the cards are shuffled by `seed`, the
opening is dealt, then each action is replayed in order. So a session lives in a URL, the API
and the page share one code path, and undo is dropping the last action. An action the rules do
not allow at that point raises ActionError naming it and its index.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.playtest_moves import apply, legal_actions
from engines.playtest_session import (
    ACTIONS,
    MAX_ACTIONS,
    MAX_AMOUNT,
    MAX_SEED,
    ActionError,
    CardView,
    PlayResult,
    PlayState,
    _Session,
)
from engines.rules import DeckCard
from engines.table import (
    Choice,
    Clear,
    Counter,
    Deal,
    SecondDeck,
    Starting,
    Table,
    TableZone,
    Tally,
    TurnStep,
    ZoneKind,
)

__all__ = [
    "ACTIONS",
    "MAX_ACTIONS",
    "MAX_AMOUNT",
    "MAX_SEED",
    "ActionError",
    "CardView",
    "Choice",
    "Clear",
    "Counter",
    "Deal",
    "PlayResult",
    "PlayState",
    "SecondDeck",
    "Starting",
    "Table",
    "TableZone",
    "Tally",
    "TurnStep",
    "ZoneKind",
    "playtest",
]


def playtest(
    table_or_engine: Any,
    cards: Sequence[DeckCard],
    *,
    seed: int,
    actions: Sequence[Mapping[str, Any]] = (),
    outside: Mapping[str, DeckCard] | None = None,
    second: Sequence[DeckCard] = (),
) -> PlayResult:
    """The table after shuffling `cards` by `seed`, dealing the opening and replaying
    `actions` in order. `table_or_engine` is a Table or an engine whose `table` is one.
    `outside` holds, by name, the catalogue's cards the table starts with from outside the
    deck (Table.starting); `second`, the cards of the second deck the table's `second_deck`
    zone is filled from."""
    table = table_or_engine if isinstance(table_or_engine, Table) else table_or_engine.table
    if not isinstance(table, Table):
        raise ValueError("this game declares no playtest table")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ActionError(-1, f"seed must be a whole number from 0 to {MAX_SEED}")
    if len(actions) > MAX_ACTIONS:
        raise ActionError(MAX_ACTIONS, f"at most {MAX_ACTIONS} actions, got {len(actions)}")
    session = _Session(table, cards, seed, outside, second)
    for index, action in enumerate(actions):
        apply(session, index, action)
    return PlayResult(session.state(), tuple(legal_actions(session)), tuple(session.log))


def card_json(result: PlayResult, card: Callable[[DeckCard], dict[str, Any]]) -> dict[str, Any]:
    """The result as JSON-ready data, each visible card described by `card`."""
    state = result.state
    return {
        "state": {
            "turn": state.turn,
            "step": state.step,
            "step_index": state.step_index,
            "pending": state.pending,
            "zones": {
                slug: [
                    {
                        "id": v.id,
                        "card": None if v.card is None else card(v.card),
                        "face_up": v.face_up,
                        "exhausted": v.exhausted,
                    }
                    for v in views
                ]
                for slug, views in state.zones.items()
            },
            "counters": dict(state.counters),
        },
        "legal_actions": list(result.legal_actions),
        "log": list(result.log),
    }
