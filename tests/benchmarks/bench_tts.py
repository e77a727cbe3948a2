"""Tabletop Simulator first-load benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_tts.py --database sqlite [--runs 3]

It builds a database of its own (a SQLite file in /tmp, or cardsite_bench_tts on the local
PostgreSQL) holding every game's fixtures, starts a threaded live server in-process, and times
what a player and Tabletop Simulator do with a cold cache (an empty media folder: no face,
scaled face or sheet drawn yet, and every per-client budget unspent), at the site's own rates:

- the player downloads the save (`tts.json`), coming back after `Retry-After` when it answers
  503 (the page's own refresh does that);
- TTS then fetches every sheet URL in it at once. TTS does not retry a failed image: how many
  of those first answers are not a 200 image is the count that matters. To show how long the
  old behaviour took, a sheet that answered 429 is asked again after its `Retry-After`, and
  the time until every sheet is a 200 image is reported too.

Scenarios: one fresh 33-card deck; three decks of three games downloaded together (one client,
three threads). Each run starts cold; the median of `--runs` runs is reported, with a ratio to
a trivial API request timed in the same run (POST /api/v1/odds/), so a noisy machine moves both
alike. Target: every sheet a 200 image at TTS's first request, within 10 s of the download.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

from django_bench import DATABASES, setup_django

DECK_CARDS = 33
# A human gives up well before this; so does the benchmark, and says so.
PATIENCE = 180.0


@dataclass
class Outcome:
    save_seconds: float = 0.0  # from the click to the save in hand
    save_503s: int = 0
    first_failures: int = 0  # sheets whose first answer was not a 200 image (TTS: a failed image)
    sheets: int = 0
    first_answer_seconds: float = 0.0  # from the save in hand until every first answer is in
    all_ready_seconds: float = 0.0  # from the click until every sheet is a 200 image


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def is_image(status: int, headers: dict[str, str], body: bytes) -> bool:
    kind = headers.get("Content-Type", "")
    return status == 200 and kind in ("image/png", "image/jpeg") and len(body) > 100


def load(server: str, share_key: str) -> Outcome:
    """One player's download of one deck, then TTS's fetch of its sheets."""
    outcome = Outcome()
    click = time.perf_counter()
    while True:
        status, headers, body = get(f"{server}/decks/{share_key}/tts.json")
        if status == 200:
            break
        if status not in (429, 503) or time.perf_counter() - click > PATIENCE:
            raise SystemExit(f"the save answered {status}: {body[:300]!r}")
        outcome.save_503s += 1
        time.sleep(int(headers.get("Retry-After", "1")))
    outcome.save_seconds = time.perf_counter() - click
    save = json.loads(body)
    urls = sorted(
        {custom["FaceURL"] for obj in save["ObjectStates"] for custom in obj["CustomDeck"].values()}
    )
    outcome.sheets = len(urls)
    got = time.perf_counter()

    def fetch(url: str) -> tuple[bool, float]:
        parts = urlsplit(url)
        local = server + parts.path + (f"?{parts.query}" if parts.query else "")
        status, headers, body = get(local)
        answered = time.perf_counter() - got
        first_ok = is_image(status, headers, body)
        while not is_image(status, headers, body):
            if status != 429 or time.perf_counter() - click > PATIENCE:
                raise SystemExit(f"a sheet answered {status}: {body[:300]!r}")
            time.sleep(int(headers.get("Retry-After", "1")))
            status, headers, body = get(local)
        return first_ok, answered

    with ThreadPoolExecutor(max_workers=len(urls)) as pool:
        results = list(pool.map(fetch, urls))
    outcome.all_ready_seconds = time.perf_counter() - click
    outcome.first_answer_seconds = max(answered for _, answered in results)
    outcome.first_failures = sum(1 for ok, _ in results if not ok)
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    setup_django("bench_tts", args.database)
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.cache import cache

    from cardsite.catalogue.faces.ahead import settle
    from cardsite.catalogue.models import Card, Game
    from decks.services import Intake, RequestedCard, deck_create
    from tests.live_server import start_live_server

    if settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        raise SystemExit("unset REDIS_URL: the benchmark clears its own (in-process) cache")
    settings.ALLOWED_HOSTS.append("127.0.0.1")
    owner, _ = User.objects.get_or_create(username="bench-tts")
    owner.decks.all().delete()

    def deck(slug: str, fmt: str, zone: str, skip: int) -> str:
        game = Game.objects.get(slug=slug)
        cards = list(
            Card.objects.filter(game=game, card_type__zone=zone).order_by("id")[
                skip : skip + DECK_CARDS
            ]
        )
        assert len(cards) == DECK_CARDS, (slug, len(cards))
        made = deck_create(
            owner=owner,
            game=game,
            format_slug=fmt,
            name=f"Bench {slug} {skip}",
            visibility="public",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
        )
        return made.share_key

    one = deck("conquest-alpha-tactics", "faction-deck", "main", 0)
    three = [
        deck("conquest-alpha-tactics", "faction-deck", "main", DECK_CARDS),
        deck("conquest-of-orion", "constructed", "main", 0),
        deck("fate-foretold", "nest", "nest", 0),
    ]

    server_thread, server = start_live_server()

    media: list[str] = []

    def cold() -> None:
        settle()
        if media:  # only the benchmark's own folders, never the project's media/
            shutil.rmtree(media.pop(), ignore_errors=True)
        media.append(tempfile.mkdtemp(prefix="bench-tts-media-"))
        settings.MEDIA_ROOT = media[-1]
        cache.clear()  # every per-client budget unspent, as for a new visitor

    def trivial() -> float:
        """A trivial API request (POST /api/v1/odds/), as the other benchmarks' reference."""
        body = json.dumps({"deck_size": 50, "copies": 3, "draws": 7, "at_least": 1}).encode()
        timings = []
        for _ in range(20):
            request = urllib.request.Request(
                f"{server}/api/v1/odds/", body, {"Content-Type": "application/json"}
            )
            begin = time.perf_counter()
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
            timings.append(time.perf_counter() - begin)
        return statistics.median(timings)

    scenarios: dict[str, Callable[[], list[Outcome]]] = {
        f"one fresh {DECK_CARDS}-card deck": lambda: [load(server, one)],
        f"three {DECK_CARDS}-card decks of three games, together": lambda: together(server, three),
    }
    rows = []
    references = []
    for label, run in scenarios.items():
        outcomes: list[list[Outcome]] = []
        for _ in range(args.runs):
            cold()
            outcomes.append(run())
            references.append(trivial())
            print(f"  {label}: {[vars(o) for o in outcomes[-1]]}", file=sys.stderr)
        rows.append((label, outcomes))
    settle()
    shutil.rmtree(media.pop(), ignore_errors=True)
    reference = statistics.median(references)

    def median(outcomes: list[list[Outcome]], pick: Callable[[Outcome], float]) -> float:
        return statistics.median(max(pick(o) for o in run) for run in outcomes)

    print(f"\n{args.database}, {args.runs} cold runs each (median; the slowest deck of a run)\n")
    print(f"reference: a trivial API request (POST /api/v1/odds/), {reference * 1000:.1f} ms\n")
    print(
        "| scenario | sheets | save in hand s | save 503s | sheets failed at TTS's first "
        "request | every sheet's first answer s | every sheet a 200 image s | / reference |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, outcomes in rows:
        sheets = sum(o.sheets for o in outcomes[0])
        failures = statistics.median(sum(o.first_failures for o in run) for run in outcomes)
        ready = median(outcomes, lambda o: o.all_ready_seconds)
        print(
            f"| {label} | {sheets} | {median(outcomes, lambda o: o.save_seconds):.1f} | "
            f"{statistics.median(sum(o.save_503s for o in run) for run in outcomes):g} | "
            f"{failures:g} of {sheets} | "
            f"{median(outcomes, lambda o: o.first_answer_seconds):.2f} | {ready:.1f} | "
            f"{ready / reference:,.0f} |"
        )
    server_thread.terminate()


def together(server: str, share_keys: list[str]) -> list[Outcome]:
    """The decks downloaded at once by one client, each then fetching its sheets at once."""
    results: list[Outcome] = []
    lock = threading.Lock()

    def one(share_key: str) -> None:
        outcome = load(server, share_key)
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=one, args=(key,)) for key in share_keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len(results) != len(share_keys):
        raise SystemExit("a deck's load failed (see above)")
    return results


if __name__ == "__main__":
    main()
