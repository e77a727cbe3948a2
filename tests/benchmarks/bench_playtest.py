"""Playtest move benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_playtest.py --database sqlite

For each game, a saved deck of its sample cards and a 50-action session chosen at random
among the legal actions (as tests/engines/playtest_replays records them). It reports the
server's handling of the 50th move through the real URL: as the page's script asks for it (the
table's fragment, `HX-Request`), and as a browser without JavaScript loads it (the whole page),
each beside a trivial API request timed in the same run, interleaved with it, as the other
benchmarks do. Target: at most 30 ms for the fragment. Sizes: the answer's bytes, and what is
sent to a browser that takes gzip (the fragment is compressed; the page is not).

The machine these run on is shared (a load average of 8 on two cores is common), which
stretches every wall-clock figure alike: so the table gives, beside the wall-clock medians,
the median CPU time the request's thread used (`time.thread_time`), which waiting for a core
does not inflate.
"""

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django_bench import DATABASES, p95, queries_of, setup_django

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


def timed(call: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and thread CPU milliseconds of one call."""
    wall, cpu = time.perf_counter(), time.thread_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()

    setup_django("bench_playtest", args.database)
    from django.contrib.auth.models import User
    from django.test import Client

    from cardsite.catalogue.models import Game
    from decks.services import Intake, RequestedCard, deck_create, intake_deck, resolve
    from decks.services.playtest import encode_actions
    from engines import ENGINES
    from tests.browser.test_every_page import _deck_cards  # the decks the browser tests play

    owner, _ = User.objects.get_or_create(username="bench-playtest")
    owner.decks.all().delete()
    client = Client()
    trivial = ("trivial API request (GET /api/v1/)", lambda: client.get("/api/v1/"))
    rows = []
    base: list[tuple[float, float]] = []
    seed = 7
    for slug in sorted(ENGINES):
        game = Game.objects.get(slug=slug)
        deck = deck_create(
            owner=owner,
            game=game,
            format_slug=game.engine.formats[0].slug,
            name=f"Bench {slug}",
            visibility="public",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in _deck_cards(game))),
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
            pairs = []
            for _ in range(args.runs):  # interleaved, so a busy moment weighs on both alike
                base.append(timed(trivial[1]))
                pairs.append(timed(call))
            sent = len(client.get(url, HTTP_ACCEPT_ENCODING="gzip", **headers).content)
            rows.append((label, pairs, queries_of(call), len(call().content), sent))
    print(f"\n{args.database}: the {ACTIONS}th move of a {ACTIONS}-action session, per game")
    print(f"{args.runs} runs each, interleaved with the trivial request\n")
    print(
        "| request | p50 ms | p95 ms | CPU p50 ms | p50 / trivial p50 | queries | bytes "
        "| bytes sent (gzip taken) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    walls = [w for w, _ in base]
    cpus = [c for _, c in base]
    trivial_p50 = statistics.median(walls)
    print(
        f"| {trivial[0]} | {trivial_p50:.2f} | {p95(walls):.2f} "
        f"| {statistics.median(cpus):.2f} | 1.0 | — | — | — |"
    )
    for label, pairs, queries, size, sent in rows:
        wall = [w for w, _ in pairs]
        cpu = statistics.median(c for _, c in pairs)
        ratio = statistics.median(wall) / trivial_p50
        print(
            f"| {label} | {statistics.median(wall):.2f} | {p95(wall):.2f} | {cpu:.2f} "
            f"| {ratio:.1f} | {queries} | {size:,} | {sent:,} |"
        )


if __name__ == "__main__":
    main()
