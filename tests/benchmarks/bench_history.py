"""Deck history benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_history.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_history.py --database postgres

It builds a database of its own (a SQLite file in /tmp, or the cardsite_bench_history database
on the local PostgreSQL) holding every game's fixtures, saves a 60-card Conquest of Orion deck
and edits it 1,000 times one card at a time, as the builder's +/- does. It reports:
- storage: the bytes its history's JSON columns hold (as text; on PostgreSQL also as stored,
  `pg_column_size`), per version, against storing the whole list at every version;
- rebuilding a version (`state_at`): at a keyframe, and 49 versions past one (the most rows
  it ever reads), in-process;
- one builder +1 (the write and its version record) and a deck read through the API, through
  the real URLs, and the same write called in-process, without the page around it.
Each timing is a p50 and p95 and a ratio to a trivial API request timed in the same run,
interleaved with it, as the other benchmarks do, so a noisy machine moves both alike.
"""

import argparse
import json
import random
import time
from collections.abc import Callable

from django_bench import DATABASES, print_beside, queries_of, row_beside, setup_django

EDITS = 1000
DECK_SIZE = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()

    setup_django("bench_history", args.database)
    from django.contrib.auth.models import User
    from django.db import connection
    from django.db.models import Sum, TextField
    from django.db.models.functions import Cast, Length
    from django.test import Client

    from cardsite.catalogue.models import Card, Game
    from decks.models import DeckVersion
    from decks.services import Intake, RequestedCard, deck_create, deck_set_quantity
    from decks.services.history import KEYFRAME_EVERY, state_at

    game = Game.objects.get(slug="conquest-of-orion")
    cards = list(Card.objects.filter(game=game, card_type__zone="main").order_by("id")[:DECK_SIZE])
    owner, _ = User.objects.get_or_create(username="bench-history")
    owner.decks.all().delete()
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name="Bench history",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )

    # 1,000 one-card edits: a second copy of a random card in, then a random second copy out.
    rng = random.Random(60)
    doubled: list[str] = []
    start = time.perf_counter()
    for n in range(1, EDITS + 1):
        if n % 2:
            card = rng.choice([c.short_id for c in cards if c.short_id not in doubled])
            doubled.append(card)
        else:
            card = doubled.pop(rng.randrange(len(doubled)))
        deck_set_quantity(
            deck=deck, expected_version=n, card=card, step=1 if n % 2 else -1, author=owner
        )
    edit_seconds = time.perf_counter() - start

    versions = DeckVersion.objects.filter(deck=deck)
    columns = ("changes", "setting_changes", "snapshot")
    as_text = sum(
        v or 0
        for v in versions.aggregate(
            **{c: Sum(Length(Cast(c, TextField()))) for c in columns}
        ).values()
    )
    stored = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT SUM(pg_column_size(changes) + pg_column_size(setting_changes)"
                " + COALESCE(pg_column_size(snapshot), 0)) FROM decks_deckversion"
                " WHERE deck_id = %s",
                [deck.pk],
            )
            stored = cursor.fetchone()[0]
    whole = len(json.dumps(versions.get(number=1).snapshot))
    count = versions.count()
    keyframes = versions.filter(snapshot__isnull=False).count()

    anonymous, builder = Client(), Client()
    builder.force_login(owner)
    step = {"add": "remove", "remove": "add"}
    last = {"action": "remove"}

    def plus_minus() -> object:
        last["action"] = step[last["action"]]
        return builder.post(
            f"/decks/{deck.share_key}/edit/card/",
            {"card": cards[0].short_id, "action": last["action"]},
            HTTP_HX_REQUEST="true",
        )

    service_step = {"step": -1}

    def plus_minus_service() -> object:
        service_step["step"] = -service_step["step"]
        deck_set_quantity(
            deck=deck, expected_version=None, card=cards[1].short_id, step=service_step["step"]
        )
        return Ok()

    class Ok:
        status_code = 200

    def rebuild(number: int) -> Callable[[], object]:
        def call() -> object:
            state_at(deck, number)
            return Ok()

        return call

    far = (EDITS // KEYFRAME_EVERY) * KEYFRAME_EVERY - 1  # 49 rows past the keyframe before it
    odds = {"deck_size": 50, "copies": 3, "draws": 7, "at_least": 1}
    trivial = (
        "trivial API request (POST /api/v1/odds/)",
        lambda: anonymous.post("/api/v1/odds/", odds, content_type="application/json"),
    )
    cases: list[tuple[str, Callable[[], object]]] = [
        (f"rebuild version {KEYFRAME_EVERY * 10} (a keyframe, 1 row)", rebuild(500)),
        (f"rebuild version {far} ({KEYFRAME_EVERY} rows)", rebuild(far)),
        ("deck read (API)", lambda: anonymous.get(f"/api/v1/decks/{deck.share_key}/")),
        # The write alone first: the page's writes would leave `deck` behind.
        ("+/- one card in-process (deck_set_quantity, with its version)", plus_minus_service),
        ("the same through the builder (the write and its page)", plus_minus),
    ]
    rows = []
    base: list[float] = []
    for label, call in cases:
        for _ in range(3):  # warm caches and the snapshot
            response = call()
            if response.status_code != 200:  # type: ignore[attr-defined]
                raise SystemExit(f"{label}: HTTP {response.status_code}")  # type: ignore[attr-defined]
        queries = queries_of(call)
        row, reference = row_beside(label, call, trivial[1], args.runs, queries)
        base += reference
        rows.append(row)

    print(f"\n{args.database}: a {DECK_SIZE}-card deck edited {EDITS:,} times, one card each\n")
    print(f"versions: {count:,}, of which whole-deck keyframes: {keyframes}")
    print(f"history as JSON text: {as_text:,} bytes, {as_text / count:.0f} bytes per version")
    if stored is not None:
        print(f"history as stored (pg_column_size): {stored:,} bytes")
    print(
        f"the whole list at every version instead: {whole:,} x {count:,} = {whole * count:,} "
        f"bytes ({whole * count / as_text:.0f} times as much)"
    )
    print(f"{EDITS:,} edits through deck_set_quantity: {edit_seconds:.1f} s\n")
    print(f"{args.runs} runs each, interleaved with the trivial request\n")
    print_beside(trivial[0], base, rows, what="operation")


if __name__ == "__main__":
    main()
