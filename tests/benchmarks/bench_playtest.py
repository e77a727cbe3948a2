"""Playtest move benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_playtest.py --database sqlite

For each game, a saved deck of its sample cards and a 50-action session chosen at random
among the legal actions (as tests/engines/playtest_replays records them). It reports the
server's handling of the 50th move through the real URL: as the page's script asks for it (the
table's fragment, `HX-Request`), and as a browser without JavaScript loads it (the whole page),
each beside a trivial API request timed in the same run, interleaved with it, as the other
benchmarks do. Target: at most 30 ms for the fragment.
"""

import argparse
import random
from typing import Any

from django_bench import DATABASES, print_beside, queries_of, row_beside, setup_django

ACTIONS = 50


def session(slug: str, resolved: Any, seed: int) -> list[dict[str, Any]]:
    """50 legal actions picked at random, each checked by replaying the session."""
    from decks.public.presenters import playtest_card
    from decks.services.playtest import ActionError, playtest_session
    from engines import get_engine
    from engines.playtest import playtest
    from tests.engines.playtest_replays import _concrete

    rng = random.Random(f"bench:{slug}")
    hand = get_engine(slug).table.hand
    actions: list[dict[str, Any]] = []
    result = playtest(get_engine(slug), resolved.deck_cards, seed=seed)
    while len(actions) < ACTIONS:
        candidates = [a for a in result.legal_actions if "blocked" not in a]
        onward = [a for a in candidates if a.get("do") == "next"]
        template = onward[0] if onward and rng.random() < 0.25 else rng.choice(candidates)
        action = _concrete(template, result, rng, hand)
        try:
            result = playtest(
                get_engine(slug), resolved.deck_cards, seed=seed, actions=[*actions, action]
            )
        except ActionError:
            continue
        actions.append(action)
    # The service agrees with the engine on the whole session.
    playtest_session(resolved=resolved, seed=seed, actions=actions, describe=playtest_card)
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()

    setup_django("bench_playtest", args.database)
    from django.contrib.auth.models import User
    from django.test import Client

    from cardsite.catalogue.models import Card, Faction, Game
    from decks.services import Intake, RequestedCard, deck_create, intake_deck, resolve
    from decks.services.playtest import encode_actions
    from engines import ENGINES

    owner, _ = User.objects.get_or_create(username="bench-playtest")
    owner.decks.all().delete()
    client = Client()
    trivial = ("trivial API request (GET /api/v1/)", lambda: client.get("/api/v1/"))
    rows = []
    base: list[float] = []
    seed = 7
    for slug in sorted(ENGINES):
        game = Game.objects.get(slug=slug)
        sample = Card.objects.filter(game=game, card_set__is_official=False).order_by("number_sort")
        cards: list[Card] = []
        for faction in Faction.objects.filter(game=game).order_by("name"):
            cards = list(sample.filter(factions=faction)[:40])
            if len(cards) >= 10:
                break
        cards = cards or list(sample[:40])
        deck = deck_create(
            owner=owner,
            game=game,
            format_slug=game.engine.formats[0].slug,
            name=f"Bench {slug}",
            visibility="public",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
        )
        actions = session(slug, resolve(game=slug, intake=intake_deck(deck)), seed)
        url = f"/decks/{deck.share_key}/playtest/?seed={seed}&a={encode_actions(actions)}"
        cases = [
            (f"{game.name}: a move, its fragment", {"HTTP_HX_REQUEST": "true"}),
            (f"{game.name}: a move, the whole page (no JavaScript)", {}),
        ]
        for label, headers in cases:

            def call(url: str = url, headers: dict[str, str] = headers) -> Any:
                return client.get(url, **headers)

            for _ in range(3):  # warm the snapshot and the caches
                response = call()
                if response.status_code != 200:
                    raise SystemExit(f"{label}: HTTP {response.status_code}")
            row, reference = row_beside(label, call, trivial[1], args.runs, queries_of(call))
            base += reference
            rows.append(row)
    print(f"\n{args.database}: the {ACTIONS}th move of a {ACTIONS}-action session, per game")
    print(f"{args.runs} runs each, interleaved with the trivial request\n")
    print_beside(trivial[0], base, rows, what="request")


if __name__ == "__main__":
    main()
