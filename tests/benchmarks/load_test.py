"""Load test of the site under the production settings, run on demand (never part of the test
suite):

    .venv/bin/python tests/benchmarks/load_test.py        (or: make loadtest)

The stack is `make serve-prod`'s: gunicorn serving cardsite.wsgi with the production settings,
PostgreSQL and Redis on loopback, whitenoise for static files. It uses a database and a Redis
database of its own (cardsite_load on the local PostgreSQL, created if missing; Redis DB 3,
flushed before and after; LOADTEST_DATABASE and LOADTEST_REDIS_DB name others) and collects
static files into a temporary directory, so nothing else on the machine is touched. It
migrates, loads every game's fixtures (`load_games`) and makes, through decks.services, a user
and a public 50-card deck to read.

Then wrk (Debian package `wrk`) drives each endpoint from 64 connections, after a warm-up:
the card page, the search page, the search API, a public deck through the API, and deck
validation (a POST of a real decklist). The API's rate limits would answer 429 to a single
client on loopback, so they are raised for the gunicorn started here (and said so); the test
measures the application, not the throttle. It prints requests/s, p50 and p99 latency and
errors per endpoint as a Markdown table for the docs, and exits non-zero if any request
failed: a socket error (connect, read, write), a timeout (no answer within 2 s, wrk's default;
--timeout to change), or a status other than 2xx/3xx. Latency percentiles cover every answer
within 10 s, timed out or not. gunicorn is stopped however the run ends, and the whole run is
bounded (--time-limit).

Beside latency it reports the CPU each request cost gunicorn and PostgreSQL, and how much of
the machine other processes took meanwhile: on a shared machine req/s and p99 say as much
about the neighbours as about the site, CPU per request much less so.

gunicorn runs as `make serve-prod` runs it: 3 sync workers (--workers, --worker-class,
--threads to try others). The costly requests here are CPU-bound Python (ORM, templates,
rules checks), so on 2 CPUs shared with PostgreSQL, Redis and wrk three processes keep both
CPUs busy while one waits on the database; more only add switching. A sync worker takes one
connection at a time from the kernel's queue, so requests are served in order of arrival and
the slowest wait little longer than the median. Measured on an idle machine: 5 sync workers
cost ~20% more CPU a request than 3 and let some validations pass 2 s; 3 gthread workers of
4 threads served the cached card page faster (646 against 554 requests/s) but spent 30-70%
more CPU a request on the costly endpoints (threads of a process contend for its GIL), so a
deck read fell from 52 to 30 requests/s and three endpoints went past 2 s.

--hostile-mix (make loadtest-hostile) measures, instead of each endpoint alone, their mix
from 64 connections: first ordinary requests only, then the same mix with 10% of the requests
(--hostile-share) the worst ones the documented limits allow, --rounds times each, and
reports the ordinary requests' p50 and p99 in both, and the hostile requests' own latency and
answers. See load_mix.py (how) and load_hostile.py (which requests).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import load_hostile
import load_mix
from load_server import (
    DATABASE,
    ROOT,
    Result,
    Server,
    drain,
    ensure_wrk,
    free_port,
    log_tail,
    measured,
    run_wrk,
    say,
    start_gunicorn,
    stop_gunicorn,
    table,
)

DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
REDIS_URL = f"redis://127.0.0.1:6379/{os.environ.get('LOADTEST_REDIS_DB', '3')}"
# Per client and scope, and every request here comes from one address: high enough that no
# request of the run is refused. A per-second window keeps each throttle's history of request
# times (read and written in Redis on every API request) no longer than a busy real client's.
THROTTLES = {
    "THROTTLE_READ": "1000000/s",
    "THROTTLE_SEARCH": "1000000/s",
    "THROTTLE_VALIDATE": "1000000/s",
}
USERNAME = "loadtest"
DECK_NAME = "Load test: Humans constructed"
# Searches a visitor would type, each matching cards of the loaded fixtures.
SEARCHES = [
    ("t:unit", None),
    ("o:draw", None),
    ("f:humans t:unit", "conquest-of-orion"),
    ("cq>=3", "conquest-of-fates"),
    ("f:elves", "conquest-for-the-capital"),
    ("t:ship", "conquest-alpha-tactics"),
    ("angel", None),
    ("is:guardian", None),
]


@dataclass
class Target:
    name: str
    paths: list[str]
    body: bytes | None = None  # POSTed as JSON when given
    shown: str = ""  # the path as the table shows it


class TimeLimit(Exception):
    pass


def production_env(static_root: Path) -> dict[str, str]:
    """`make serve-prod`'s environment (the Makefile's PROD_ENV), on this run's own database,
    Redis database and static directory; no Celery broker, since nothing here queues a job."""
    return {
        "DJANGO_SETTINGS_MODULE": "cardsite.settings.production",
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": "http://127.0.0.1:8000",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "STATIC_ROOT": str(static_root),
        **THROTTLES,
    }


def ensure_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone():
            say(f"creating database {DATABASE}")
            c.execute(f"CREATE DATABASE {DATABASE}")


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def prepare(args: argparse.Namespace) -> tuple[list[Target], list[load_mix.Kind]]:
    """Migrate, load the games, collect static files, and make the deck to read; in this
    process, under the same settings the server will have. Returns what to measure: the
    endpoints, and for --hostile-mix the hostile requests."""
    import io

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from cardsite.catalogue.models import Card, Game
    from decks.models import Deck
    from decks.services import Intake, RequestedCard, deck_create, deck_delete

    say("migrating, loading the games, collecting static files")
    call_command("migrate", verbosity=0)
    call_command("load_games", verbosity=0, stdout=io.StringIO())
    call_command("collectstatic", interactive=False, verbosity=0)

    # A legal Conquest of Orion constructed deck (as in tests/decks/test_validate_api.py): 36
    # Humans and 14 cards of no race, from the sample set.
    def sample(**filters: Any) -> Any:
        return Card.objects.filter(
            game__slug="conquest-of-orion", card_set__is_official=False, **filters
        ).order_by("number_sort")

    cards = list(sample(factions__name="Humans")[:36])
    cards += list(sample(factions__isnull=True).exclude(card_type__name="Planet")[:14])
    game = Game.objects.get(slug="conquest-of-orion")
    owner, _ = get_user_model().objects.get_or_create(username=USERNAME)
    for old in Deck.objects.filter(owner=owner):
        deck_delete(deck=old)
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name=DECK_NAME,
        description="Made by tests/benchmarks/load_test.py.",
        visibility=Deck.Visibility.PUBLIC,
        intake=Intake(tuple([RequestedCard(quantity=1, short_id=c.short_id) for c in cards])),
    )
    decklist = {
        "game": "conquest-of-orion",
        "format": "constructed",
        "cards": [{"id": c.short_id, "quantity": 1} for c in cards],
    }

    # Card pages: a spread of cards over every game (each page is cached once rendered).
    pages = [
        c.get_absolute_url() for c in Card.objects.exclude(card_set__code="SYN").order_by("id")
    ]
    pages = pages[:: max(1, len(pages) // 40)][:40]

    def query(text: str, game_slug: str | None) -> str:
        return urlencode({"q": text, **({"game": game_slug} if game_slug else {})})

    searches = [query(text, g) for text, g in SEARCHES]
    hostile = []
    if args.hostile_mix:
        hostile = load_hostile.hostile_kinds(
            owner=owner, decklist=decklist, goldfish=args.hostile_goldfish
        )
    connection.close()
    targets = [
        Target("card page", pages, shown=f"GET /cards/<id>/<slug>/ ({len(pages)} cards)"),
        Target(
            "search page",
            [f"/search/?{q}" for q in searches],
            shown=f"GET /search/?q=… ({len(searches)} queries)",
        ),
        Target(
            "search API",
            [f"/api/v1/cards/?{q}" for q in searches],
            shown=f"GET /api/v1/cards/?q=… ({len(searches)} queries)",
        ),
        Target(
            "deck read",
            [f"/api/v1/decks/{deck.share_key}/"],
            shown="GET /api/v1/decks/<id>/ (public, 50 cards)",
        ),
        Target(
            "validation",
            ["/api/v1/decks/validate/"],
            body=json.dumps(decklist).encode(),
            shown="POST /api/v1/decks/validate/ (50-card decklist)",
        ),
    ]
    return targets, hostile


# --- measuring ---------------------------------------------------------------------------------


def check_target(base: str, target: Target) -> None:
    """One request to each path before loading it: a 200 (not a redirect or an error page),
    and for validation a legal deck, so the run measures the pages it says it does."""
    for path in target.paths:
        request = urllib.request.Request(
            base + path,
            data=target.body,
            headers={"Content-Type": "application/json"} if target.body else {},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, body = exc.code, exc.read()
        if status != 200:
            raise SystemExit(f"{target.name}: {path} answered {status}: {body[:300]!r}")
        if target.name == "validation" and not json.loads(body)["legal"]:
            raise SystemExit(f"validation: the decklist is not legal: {body[:500]!r}")
        if target.name == "search API" and json.loads(body)["count"] == 0:
            raise SystemExit(f"search API: {path} found no cards")


# --- main --------------------------------------------------------------------------------------


def measure_endpoints(
    wrk: str, base: str, targets: list[Target], args: argparse.Namespace, work: Path, server: Server
) -> list[Result]:
    results = []
    for target in targets:
        say(f"{target.name}: warming up {args.warmup:g} s, measuring {args.duration:g} s")
        warmup = run_wrk(wrk, base, target, args.warmup, args, work)
        drain(base)
        run, (app, db, other) = measured(
            server, lambda t=target: run_wrk(wrk, base, t, args.duration, args, work)
        )
        results.append(Result(target, warmup, run, app, db, other))
        drain(base)
    return results


def other_cpu(cpu: float, seconds: float) -> str:
    return (
        f"\nWhile measuring, other processes on the machine (not gunicorn, PostgreSQL for "
        f"{DATABASE} or wrk) used {max(0.0, cpu) / seconds:.2f} of its {os.cpu_count()} CPUs."
    )


def report_endpoints(results: list[Result], args: argparse.Namespace) -> int:
    print(table(results, args.connections, args.timeout))
    seconds = sum(r.run["duration_us"] for r in results) / 1e6
    if seconds:
        print(other_cpu(sum(r.other_cpu for r in results), seconds))
    total = sum(Result.errors(r.run) for r in results)
    warm = sum(Result.errors(r.warmup) for r in results)
    if warm:
        print(f"\nErrors during the warm-ups: {warm}")
    if total or warm:
        print(f"\nFAILED: {total + warm} requests failed (socket errors, timeouts, non-2xx/3xx).")
        return 1
    print(f"\n0 errors at {args.connections} connections.")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--duration", type=float, default=10, help="seconds measured, each")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up, each")
    parser.add_argument(
        "--timeout",
        type=float,
        default=2,
        help="seconds: a request answered later counts as failed (wrk's default timeout)",
    )
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--worker-class", choices=["sync", "gthread"], default="sync")
    parser.add_argument("--threads", type=int, default=4, help="per gthread worker")
    parser.add_argument(
        "--only", action="append", help="measure only these endpoints (by name; repeatable)"
    )
    parser.add_argument("--time-limit", type=int, default=300, help="for the whole run, s")
    mix = parser.add_argument_group("hostile mix (tests/benchmarks/load_mix.py)")
    mix.add_argument(
        "--hostile-mix",
        action="store_true",
        help="instead of each endpoint alone, their mix, without and with hostile requests",
    )
    mix.add_argument("--hostile-share", type=float, default=0.1, help="of all requests")
    mix.add_argument("--rounds", type=int, default=3, help="pairs of runs; medians are shown")
    mix.add_argument(
        "--hostile-goldfish",
        action="store_true",
        help="put the largest inline goldfish in the mix too (by default it is only sent alone)",
    )
    args = parser.parse_args()

    def out_of_time(signum: int, frame: Any) -> None:
        raise TimeLimit(f"the run took longer than --time-limit {args.time_limit} s")

    def terminated(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, terminated)
    signal.alarm(args.time_limit)

    sys.path.insert(0, str(ROOT))
    load = os.getloadavg()
    wrk = ensure_wrk()
    server = Server()
    work = Path(tempfile.mkdtemp(prefix="cardsite-load-"))
    results: list[Result] = []
    mixed, failed, other = "", 0, (0.0, 1.0)
    try:
        env = production_env(work / "static")
        os.environ.update(env)
        ensure_database()
        flush_redis()
        targets, hostile = prepare(args)
        if args.only:
            targets = [t for t in targets if t.name in args.only]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        start_gunicorn(server, env, port, args, work)
        for target in targets:
            check_target(base, target)
        if args.hostile_mix:
            kinds = load_mix.ordinary_kinds(targets) + hostile
            mixed, failed, other = load_mix.run(
                wrk, base, kinds, args, work, lambda fn: measured(server, fn), drain
            )
        else:
            results = measure_endpoints(wrk, base, targets, args, work, server)
    except TimeLimit as exc:
        say(f"stopped: {exc}")
        return 2
    finally:
        signal.alarm(0)
        stop_gunicorn(server)
        if server.process is not None and (server.process.returncode or 0) not in (0, -15):
            say(f"gunicorn exited with {server.process.returncode}:\n{log_tail(server)}")
        try:
            flush_redis()
        except Exception as exc:
            say(f"could not flush {REDIS_URL}: {exc}")
        shutil.rmtree(work, ignore_errors=True)

    workers = f"gunicorn {args.workers} {args.worker_class} workers" + (
        f" x {args.threads} threads" if args.worker_class == "gthread" else ""
    )
    if args.hostile_mix:
        wrk_setup = (
            f"wrk -t{args.connections} -c{args.connections} (one connection a thread), "
            f"{args.rounds} rounds of {args.duration:g} s ordinary only and {args.duration:g} s "
            f"with {args.hostile_share:.0%} hostile requests, after a {args.warmup:g} s warm-up"
        )
    else:
        wrk_setup = (
            f"wrk -t{args.wrk_threads} -c{args.connections} -d{args.duration:g}s after a "
            f"{args.warmup:g} s warm-up"
        )
    print(
        f"\nProduction settings, PostgreSQL and Redis on loopback; {workers}, {os.cpu_count()} "
        f"CPUs; {wrk_setup}; requests failed if slower than {args.timeout:g} s."
    )
    print("gunicorn: " + "; ".join(server.notes))
    print(
        "API throttles raised for this gunicorn only (one client on loopback): "
        + ", ".join(f"{k}={v}" for k, v in THROTTLES.items())
        + ("; the others (write, goldfish) as in production" if args.hostile_mix else "")
    )
    print(f"Load average before the run: {load[0]:.2f}.\n")
    if not args.hostile_mix:
        return report_endpoints(results, args)
    print(mixed)
    print(other_cpu(*other))
    if failed:
        print(
            f"\nFAILED: {failed} requests failed (ordinary: not a 2xx/3xx within "
            f"{args.timeout:g} s; hostile: a 5xx or no answer)."
        )
        return 1
    print("\nNo request failed: every ordinary one answered in time, no hostile one had a 5xx.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
