"""Recorded playtest sessions: each game's table, a seed and a list of actions, with a digest of
where they lead. They pin what a session replays to, so that rebuilding the engines (games as
data) cannot change a shared playtest URL's table.

The actions were chosen at random among the legal ones when recorded; the test replays the
stored actions, so it does not depend on how legal actions are listed.

Regenerate only for a deliberate change to how a game plays, and say why in the commit:

    .venv/bin/python -m tests.engines.playtest_replays --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from engines import ENGINES, get_engine
from engines.playtest import ActionError, PlayResult, card_json, playtest
from tests.engines.test_playtest import DECKS

FOLDER = Path(__file__).resolve().parent / "replays"
SESSIONS = 12
ACTIONS = 50


def replay(slug: str, seed: int, actions: list[dict[str, Any]]) -> PlayResult:
    return playtest(get_engine(slug), DECKS[slug](), seed=seed, actions=actions)


def digest(result: PlayResult) -> str:
    document = card_json(result, lambda card: {"name": card.name, "zone": card.zone})
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _concrete(
    template: dict[str, Any], result: PlayResult, rng: random.Random, hand_zone: str
) -> dict[str, Any]:
    """One action made from a legal action's description: its card, zone or cards picked."""
    zones = result.state.zones
    kind = template.get("do")
    if kind is None:  # a card's moves
        move = rng.choice(template["moves"])
        action = {"do": move, "card": template["card"]}
        if move == "move":
            action["to"] = rng.choice(template["to"])
        return action
    if kind == "next":
        return {"do": "next"}
    if kind == "draw":
        return {"do": "draw", "n": rng.randint(1, 3)}
    if kind == "mulligan":
        if not template["pick"]:
            return {"do": "mulligan"}
        hand = [v.id for v in zones[hand_zone]]
        return {"do": "mulligan", "cards": rng.sample(hand, rng.randint(0, len(hand)))}
    if kind == "choose":
        pool = [v.id for v in zones[template["zone"]]]
        return {"do": "choose", "cards": rng.sample(pool, min(template["keep"], len(pool)))}
    if kind == "count":
        return {"do": "count", "counter": template["counter"], "by": rng.choice([-2, -1, 1, 3])}
    return {k: v for k, v in template.items()}


def record(slug: str, seed: int) -> dict[str, Any]:
    rng = random.Random(f"{slug}:{seed}")
    actions: list[dict[str, Any]] = []
    result = replay(slug, seed, actions)
    while len(actions) < ACTIONS:
        candidates = [a for a in result.legal_actions if "blocked" not in a]
        # A step on a quarter of the time, so that sessions reach later turns and their steps.
        onward = [a for a in candidates if a.get("do") == "next"]
        template = onward[0] if onward and rng.random() < 0.25 else rng.choice(candidates)
        action = _concrete(template, result, rng, get_engine(slug).table.hand)
        try:
            result = replay(slug, seed, [*actions, action])
        except ActionError:
            continue  # refused here: a refusal is no step of the session
        actions.append(action)
    return {"seed": seed, "actions": actions, "digest": digest(result)}


def recorded(slug: str) -> list[dict[str, Any]]:
    return json.loads((FOLDER / f"{slug}.json").read_text(encoding="utf-8"))["sessions"]


def write() -> None:
    FOLDER.mkdir(exist_ok=True)
    for slug in sorted(ENGINES):
        sessions = [record(slug, seed) for seed in range(1, SESSIONS + 1)]
        # A session a line: the file stays small and a changed session is one line of diff.
        lines = ",\n".join(json.dumps(s, sort_keys=True) for s in sessions)
        text = f'{{"game": "{slug}", "sessions": [\n{lines}\n]}}\n'
        (FOLDER / f"{slug}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    write()
