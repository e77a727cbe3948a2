"""What every in-process benchmark starts with: a database of its own, migrated and holding
every game's fixtures, Django set up as the served site is (no debug, rates out of the way,
its garbage-collector tuning), and the p95 it reports beside the median."""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATABASES = ("sqlite", "postgres")


def database_url(name: str, database: str) -> str:
    """The benchmark `name`'s own database: a SQLite file in /tmp, or cardsite_<name> on the
    local PostgreSQL."""
    if database == "sqlite":
        return f"sqlite:////tmp/cardsite-{name.replace('_', '-')}.sqlite3"
    return f"postgres://postgres@127.0.0.1:5432/cardsite_{name}"


def setup_django(name: str, database: str) -> None:
    """Django set up on the benchmark's database, migrated, every game loaded."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = database_url(name, database)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings.local")
    os.environ["DEBUG"] = "false"
    for scope in ("READ", "WRITE", "VALIDATE"):
        os.environ[f"THROTTLE_{scope}"] = "1000000/min"
    if database == "postgres":
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            if not c.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [f"cardsite_{name}"]
            ).fetchone():
                c.execute(f"CREATE DATABASE cardsite_{name}")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from cardsite.runtime import tune_garbage_collector

    settings.ALLOWED_HOSTS.append("testserver")
    call_command("migrate", verbosity=0)
    call_command("load_games", verbosity=0, stdout=io.StringIO())
    tune_garbage_collector()  # as cardsite/wsgi.py does for the served site


def p95(timings: list[float]) -> float:
    timings = sorted(timings)
    return timings[max(0, round(0.95 * len(timings)) - 1)]


def queries_of(call: Callable[[], object]) -> int:
    """How many queries one `call` makes, counted at the cursor: Django empties
    connection.queries at each request's start."""
    from django.db import connection

    queries: list[str] = []

    def counted(run: Callable[..., object], sql: str, *rest: object) -> object:
        queries.append(sql)
        return run(sql, *rest)

    with connection.execute_wrapper(counted):
        call()
    return len(queries)


def timed_beside(
    call: Callable[[], object], reference: Callable[[], object], runs: int
) -> tuple[list[float], list[float]]:
    """Milliseconds of `runs` calls of `call` and of `reference` (a trivial request),
    interleaved, so that a noisy machine moves both alike: (call's, reference's)."""
    timings: list[float] = []
    base: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        reference()
        base.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        call()
        timings.append((time.perf_counter() - start) * 1000)
    return timings, base


# A benchmark's row: its label, p50 and p95 ms, p50 over the trivial request's p50, queries.
Row = tuple[str, float, float, float, int]


def row_beside(
    label: str, call: Callable[[], object], reference: Callable[[], object], runs: int, queries: int
) -> tuple[Row, list[float]]:
    """One row of a table against a trivial request, and the reference timings it took."""
    timings, base = timed_beside(call, reference, runs)
    ratio = statistics.median(timings) / statistics.median(base)
    return (label, statistics.median(timings), p95(timings), ratio, queries), base


def print_beside(
    trivial: str,
    base: list[float],
    rows: list[Row],
    *,
    what: str = "request",
    queries: str = "queries",
) -> None:
    """The rows as a Markdown table, the trivial request's own row first."""
    print(f"| {what} | p50 ms | p95 ms | p50 / trivial p50 | {queries} |")
    print("|---|---:|---:|---:|---:|")
    print(f"| {trivial} | {statistics.median(base):.2f} | {p95(base):.2f} | 1.0 | — |")
    for label, p50, p95_ms, ratio, n in rows:
        print(f"| {label} | {p50:.2f} | {p95_ms:.2f} | {ratio:.1f} | {n} |")
