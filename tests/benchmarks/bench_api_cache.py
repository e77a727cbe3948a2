"""The API's catalogue reads against the pages', run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_api_cache.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_api_cache.py --database postgres

It builds a database of its own (a SQLite file in /tmp, or the cardsite_bench_api_cache database
on the local PostgreSQL) holding every game's fixtures and times, in-process through the real
URLs and warm (each request made once before), what a bot or a generated client asks most
beside what a browser asks: a card through `GET /api/v1/cards/{id}/` and its page, the same
card asked again with the ETag it was given (a 304), a search through the API and the search
page, and a page of the card list. Cards and searches are taken round robin (40 cards over
every game, the load test's 8 searches). Each is reported as p50 and p95, the most queries one
request of it made, and the ratio of its p50 to a trivial API request's, timed in the same run
and interleaved with it, so a noisy machine moves both alike. Targets: a card read in at most
3 queries and 3 times the trivial request, a search at most 3 times.
"""

import argparse
import os
from collections.abc import Callable
from itertools import cycle
from urllib.parse import urlencode

from django_bench import DATABASES, print_beside, queries_of, row_beside, setup_django
from load_test import SEARCHES  # the load test's searches, so the figures compare

CARDS = 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=400)
    args = parser.parse_args()

    # Searches have a stricter budget than the other reads (django_bench raises those).
    os.environ["THROTTLE_SEARCH"] = "1000000/min"
    setup_django("bench_api_cache", args.database)
    from django.test import Client

    from cardsite.catalogue.models import Card

    cards = list(Card.objects.exclude(card_set__code="SYN").order_by("id"))
    cards = cards[:: max(1, len(cards) // CARDS)][:CARDS]
    searches = [urlencode({"q": q, **({"game": g} if g else {})}) for q, g in SEARCHES]
    client = Client()

    def round_robin(urls: list[str], **headers: str) -> Callable[[], object]:
        turn = cycle(urls)
        return lambda: client.get(next(turn), **headers)

    # The ETag each card was last given, sent back as a client holding it would.
    etags: dict[str, str] = {}

    def conditional() -> Callable[[], object]:
        turn = cycle(cards)

        def call() -> object:
            card = next(turn)
            url = f"/api/v1/cards/{card.short_id}/"
            if card.short_id not in etags:
                etags[card.short_id] = client.get(url)["ETag"]
            return client.get(url, HTTP_IF_NONE_MATCH=etags[card.short_id])

        return call

    odds = {"deck_size": 50, "copies": 3, "draws": 7, "at_least": 1}
    trivial = (
        "trivial API request (POST /api/v1/odds/)",
        lambda: client.post("/api/v1/odds/", odds, content_type="application/json"),
    )
    cases: list[tuple[str, Callable[[], object], int]] = [
        ("card page", round_robin([c.get_absolute_url() for c in cards]), 200),
        (
            "card read (GET /api/v1/cards/{id}/)",
            round_robin([f"/api/v1/cards/{c.short_id}/" for c in cards]),
            200,
        ),
        ("card read with its ETag (If-None-Match)", conditional(), 304),
        ("search page", round_robin([f"/search/?{q}" for q in searches]), 200),
        (
            "search (GET /api/v1/cards/?q=)",
            round_robin([f"/api/v1/cards/?{q}" for q in searches]),
            200,
        ),
        (
            "card list (GET /api/v1/cards/?game=)",
            round_robin(
                [f"/api/v1/cards/?game={g}" for g in sorted({g for _, g in SEARCHES if g})]
            ),
            200,
        ),
    ]
    rows = []
    base: list[float] = []
    for label, call, status in cases:
        for _ in range(2 * CARDS):  # every card and search once at least: caches warm
            response = call()
            if response.status_code != status:  # type: ignore[attr-defined]
                raise SystemExit(f"{label}: HTTP {response.status_code}")  # type: ignore[attr-defined]
        most = max(queries_of(call) for _ in range(CARDS))
        row, reference = row_beside(label, call, trivial[1], args.runs, most)
        base += reference
        rows.append(row)
    print(f"\n{args.database}: {args.runs} runs each, interleaved with the trivial request, warm\n")
    print_beside(trivial[0], base, rows, queries="queries (most)")


if __name__ == "__main__":
    main()
