"""Search benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_search.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_search.py --database postgres

It builds a database of its own (a SQLite file in /tmp, or the cardsite_bench database on the
local PostgreSQL), loads the fixtures plus a synthetic catalogue of 100,000 cards, then runs
20 representative queries through the API in-process and prints p50/p95 per query as a
Markdown table for docs/pages/benchmarks.md. Targets: p95 <= 50 ms on PostgreSQL, <= 150 ms
on SQLite.

Then it searches a collection: a user owning 10,000 of the synthetic printings (1 to 3 copies
each) asks `own` queries by token, beside a reference query of as many results measured in the
same run, both with the cache emptied before every request (a search of a collection is never
cached, so only that comparison is fair). `--only-own` skips the 20 queries; `--database-url`
uses another database than the default one.
"""

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATABASES = {
    "sqlite": "sqlite:////tmp/cardsite-bench.sqlite3",
    "postgres": "postgres://postgres@127.0.0.1:5432/cardsite_bench",
}
QUERIES = [
    ("name word", {"q": "sentinel"}),
    ("two name words", {"q": "kal warden"}),
    ("quoted name", {"q": '"bel oracle"'}),
    ("exact name", {"q": '!"Cloudglider"'}),
    ("fuzzy name", {"path": "named/", "fuzzy": "plated voyagr"}),
    (
        "fuzzy name, one game",
        {"path": "named/", "fuzzy": "korarx sentinl", "game": "conquest-of-orion"},
    ),
    ("stat range", {"q": "cq>=3 cq<=5", "game": "conquest-of-fates"}),
    ("two stats", {"q": "dmg>=4 hp>=5", "game": "conquest-of-orion"}),
    ("stat, ordered", {"q": "cp>=7 order:cp dir:desc", "game": "conquest-alpha-tactics"}),
    ("negation", {"q": "t:unit -is:sample -f:humans", "game": "conquest-of-orion"}),
    ("negated keyword", {"q": "-is:apex cq>=6", "game": "conquest-of-fates"}),
    ("or-group", {"q": "t:planet or t:satellite"}),
    (
        "nested or",
        {"q": "(f:elves or f:orcs) (atk>=3 or def>=3)", "game": "conquest-for-the-capital"},
    ),
    ("text word", {"q": "o:draw"}),
    ("text phrase", {"q": 'o:"draw a card"'}),
    ("text and type", {"q": "o:destroy t:unit"}),
    ("keyword", {"q": "is:guardian"}),
    ("rarity compare", {"q": "r>=silver", "game": "conquest-of-orion"}),
    ("faction and type", {"q": "f:romulan t:ship", "game": "conquest-alpha-tactics"}),
    ("set, ordered by set", {"q": "s:syn order:set", "game": "fate-foretold"}),
]


# The collection benchmark: how many printings the collector owns, their `own` queries and
# the reference (a query of about as many results that does not read a collection).
OWNED_PRINTINGS = 10_000
COLLECTOR = "bench-collector"
OWN_QUERIES = [
    ("reference: text word", {"q": "o:draw"}),
    ("own>=1", {"q": "own>=1"}),
    ("is:owned, one game", {"q": "is:owned", "game": "conquest-of-orion"}),
    ("own=0", {"q": "own=0"}),
    ("own>=2 and text", {"q": "own>=2 o:draw"}),
]


def collector_token() -> str:
    """The collector's API token, made with their collection on the first run."""
    from django.contrib.auth.models import User
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from cardsite.catalogue.models import Card
    from cardsite.collection.models import CollectionCard

    user, _ = User.objects.get_or_create(username=COLLECTOR)
    if CollectionCard.objects.filter(owner=user).count() != OWNED_PRINTINGS:
        CollectionCard.objects.filter(owner=user).delete()
        ids = list(
            Card.objects.filter(card_set__code="SYN").order_by("id").values_list("id", flat=True)
        )
        step = len(ids) // OWNED_PRINTINGS
        CollectionCard.objects.bulk_create(
            CollectionCard(owner=user, card_id=card_id, quantity=1 + i % 3)
            for i, card_id in enumerate(ids[::step][:OWNED_PRINTINGS])
        )
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE collection_collectioncard")
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def measure_own(runs: int) -> list[tuple[str, float, float, int]]:
    """(query, p50, p95, results) for the collector, the cache emptied before each request."""
    from django.core.cache import cache
    from django.test import Client

    client = Client(HTTP_AUTHORIZATION=f"Token {collector_token()}")
    rows = []
    for label, params in OWN_QUERIES:
        timings = []
        for _ in range(runs):
            cache.clear()
            start = time.perf_counter()
            response = client.get("/api/v1/cards/", params)
            timings.append((time.perf_counter() - start) * 1000)
            if response.status_code != 200 or response.json()["warnings"]:
                raise SystemExit(f"{label}: HTTP {response.status_code} {response.content[:300]!r}")
        count = response.json()["count"]
        rows.append((label, statistics.median(timings), _p95(timings), count))
    return rows


def prepare(database: str, cards: int) -> None:
    from django.core.management import call_command
    from django.db import connection

    from cardsite.catalogue.models import Card

    call_command("migrate", verbosity=0)
    if Card.objects.filter(card_set__code="SYN").count() < cards:
        call_command("load_games", verbosity=0, stdout=io.StringIO())
        call_command("synthetic_catalogue", cards=cards, stdout=io.StringIO())
    if connection.vendor == "postgresql":
        # As autovacuum would soon after a bulk import: merge the GIN indexes' pending lists
        # (searched linearly until then) and refresh the planner's statistics.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def _p95(timings: list[float]) -> float:
    timings = sorted(timings)
    return timings[max(0, round(0.95 * len(timings)) - 1)]


def measure(runs: int) -> list[tuple[str, float, float, float, int]]:
    """(query, warm p50, warm p95, cold p95, results): warm repeats the request, so the page's
    card records come from the cache; cold empties the cache before every request."""
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    rows = []
    for label, params in QUERIES:
        params = dict(params)
        path = "/api/v1/cards/" + params.pop("path", "")
        cold = []
        for _ in range(runs):
            cache.clear()
            start = time.perf_counter()
            client.get(path, params)
            cold.append((time.perf_counter() - start) * 1000)
        timings = []
        for i in range(runs + 2):
            start = time.perf_counter()
            response = client.get(path, params)
            elapsed = (time.perf_counter() - start) * 1000
            if response.status_code not in (200, 404):
                raise SystemExit(f"{label}: HTTP {response.status_code} {response.content[:200]!r}")
            if i >= 2:  # the first two warm caches
                timings.append(elapsed)
        count = response.json().get("count", 1) if response.status_code == 200 else 0
        rows.append((label, statistics.median(timings), _p95(timings), _p95(cold), count))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=sorted(DATABASES), default="sqlite")
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--only-own", action="store_true", help="only the collection queries")
    parser.add_argument("--database-url", help="instead of the default database")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    url = args.database_url or DATABASES[args.database]
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings.local")
    os.environ["DEBUG"] = "false"
    if args.database == "postgres":
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            name = url.rsplit("/", 1)[1]
            if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                c.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS.append("testserver")
    prepare(args.database, args.cards)
    from cardsite.catalogue.models import Card
    from cardsite.runtime import tune_garbage_collector

    tune_garbage_collector()  # as cardsite/wsgi.py does for the served site

    total = Card.objects.count()
    if not args.only_own:
        print_queries(args.database, total, measure(args.runs), args.runs)
    own = measure_own(args.runs)
    print(
        f"\n{args.database}: {total:,} cards, a collection of {OWNED_PRINTINGS:,} printings, "
        f"{args.runs} runs per query, cache emptied before each\n"
    )
    print("| query | results | p50 ms | p95 ms | p50 / reference p50 |")
    print("|---|---:|---:|---:|---:|")
    reference = own[0][1]
    for label, p50, p95, count in own:
        print(f"| {label} | {count:,} | {p50:.1f} | {p95:.1f} | {p50 / reference:.2f} |")


def print_queries(database: str, total: int, rows: list, runs: int) -> None:
    print(f"\n{database}: {total:,} cards, {runs} runs per query\n")
    print("| query | results | p50 ms | p95 ms | p95 ms, cold cache |")
    print("|---|---:|---:|---:|---:|")
    for label, p50, p95, cold, count in rows:
        print(f"| {label} | {count:,} | {p50:.1f} | {p95:.1f} | {cold:.1f} |")
    print(
        f"\nWorst p95: {max(r[2] for r in rows):.1f} ms; "
        f"with a cold cache: {max(r[3] for r in rows):.1f} ms"
    )


if __name__ == "__main__":
    main()
