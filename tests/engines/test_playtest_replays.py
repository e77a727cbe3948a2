"""Recorded playtest sessions replay to the same table: a shared playtest URL (deck, seed and
actions) opens as it did when it was shared, whatever is rebuilt beneath it."""

import pytest

from engines import ENGINES
from tests.engines.playtest_replays import ACTIONS, SESSIONS, digest, recorded, replay


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_recorded_session_of_the_game_replays_to_the_table_it_recorded(slug):
    sessions = recorded(slug)
    assert len(sessions) == SESSIONS
    for session in sessions:
        assert len(session["actions"]) == ACTIONS
        result = replay(slug, session["seed"], session["actions"])
        assert digest(result) == session["digest"], (slug, session["seed"], result.log[-5:])


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_the_recorded_sessions_of_the_game_reach_a_later_turn(slug):
    turns = [replay(slug, s["seed"], s["actions"]).state.turn for s in recorded(slug)]
    assert max(turns) >= 2, turns
