"""The CPU a card page costs, in-process, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_card_page.py [--database NAME] [--redis URL]

Under the production settings, on PostgreSQL (a database of its own, cardsite_bench_card by
default, created if missing) and Redis (DB 14 by default, which must be empty: it is flushed
afterwards), it loads every game's fixtures, saves public decks that use the measured cards,
and requests 40 card pages spread over every game, round robin, through the test client. Each
request's CPU is `time.process_time()` around it (this process only: the ORM, templates and
the cache client; PostgreSQL's and Redis's own CPU are not counted; static files are
collected into a temporary directory). It reports the median and
p95 of warm requests, after one pass that fills the caches, and the same with the public-decks
version bumped before every request (every deck list rebuilt).

The load test (load_test.py) measures gunicorn too, its HTTP parsing included, so its figure is
this one plus a little; this one needs no wrk and keeps to one core.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _pct(values: list[float], share: float) -> float:
    values = sorted(values)
    return values[max(0, round(share * len(values)) - 1)]


def _report(what: str, costs: list[float]) -> str:
    # Other work on a shared machine only ever adds to a request's CPU time (VM steal time,
    # shared caches), so the low percentile is the steadier figure when it is busy.
    return (
        f"{what}: median {statistics.median(costs):.2f} ms CPU, p10 {_pct(costs, 0.1):.2f}, "
        f"p95 {_pct(costs, 0.95):.2f} ({len(costs)} requests)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="cardsite_bench_card")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--passes", type=int, default=25, help="over the 40 pages, measured")
    parser.add_argument("--decks", type=int, default=30, help="public decks to save")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 40 too")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    static = Path(tempfile.mkdtemp(prefix="bench-card-static-"))
    os.environ.update(
        STATIC_ROOT=str(static),
        DJANGO_SETTINGS_MODULE="cardsite.settings.production",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.database}",
        REDIS_URL=args.redis,
        ALLOWED_HOSTS="testserver",
        SITE_URL="http://testserver",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        SECRET_KEY="bench-card-page-" + "x" * 50,
    )
    import psycopg
    import redis

    store = redis.Redis.from_url(args.redis)
    if store.dbsize():
        raise SystemExit(f"{args.redis} is not empty; name an unused Redis database (--redis).")
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        found = c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [args.database])
        if not found.fetchone():
            c.execute(f'CREATE DATABASE "{args.database}"')

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from cardsite.catalogue.models import Card
    from decks.models import Deck
    from decks.services import Intake, RequestedCard, deck_create, deck_delete

    try:
        call_command("migrate", verbosity=0)
        call_command("load_games", verbosity=0, stdout=io.StringIO())
        call_command("collectstatic", interactive=False, verbosity=0)
        cards = list(Card.objects.exclude(card_set__code="SYN").select_related("game"))
        cards.sort(key=lambda c: c.id)
        measured = cards[:: max(1, len(cards) // 40)][:40]
        owner, _ = get_user_model().objects.get_or_create(username="bench-card-page")
        for old in Deck.objects.filter(owner=owner):
            deck_delete(deck=old)
        for n in range(args.decks):
            card = measured[n % len(measured)]
            fmt = card.game.engine.formats[0].slug
            deck_create(
                owner=owner,
                game=card.game,
                format_slug=fmt,
                name=f"Bench deck {n}",
                visibility=Deck.Visibility.PUBLIC,
                intake=Intake((RequestedCard(quantity=1, short_id=card.short_id),)),
            )
        client = Client()
        urls = [c.get_absolute_url() for c in measured]
        for url in urls:  # fill the caches
            assert client.get(url).status_code == 200, url

        def run(before: object = None) -> list[float]:
            costs = []
            for _ in range(args.passes):
                for url in urls:
                    if callable(before):
                        before()
                    start = time.process_time()
                    response = client.get(url)
                    costs.append((time.process_time() - start) * 1000)
                    assert response.status_code == 200, url
            return costs

        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.runcall(run)
            stats = pstats.Stats(profiler)
            stats.sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(40)
            # Python function calls do not depend on how busy the machine is, so they compare
            # runs on a shared machine better than CPU time does.
            calls = stats.total_calls / (args.passes * len(urls))  # type: ignore[attr-defined]
            print(f"card page, warm: {calls:,.0f} Python function calls a request")
        print(_report(f"card page, warm, {len(urls)} cards", run()))
        try:
            from decks.public.versioning import bump_public_decks_version
        except ImportError:
            return
        print(_report("card page, deck list rebuilt each time", run(bump_public_decks_version)))
    finally:
        store.flushdb()
        shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    main()
