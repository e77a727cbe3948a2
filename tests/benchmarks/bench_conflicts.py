"""Built-deck conflicts benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_conflicts.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_conflicts.py --database postgres

It builds a database of its own (a SQLite file in /tmp, or the cardsite_bench_conflicts database
on the local PostgreSQL) holding every game's fixtures, made-up cards (set SYN, as the search
benchmark makes them) and two pools of 12 members each. In both, the reading member holds 2
copies of each of 200 Conquest of Orion cards and has one built deck of 100 cards, 3 copies
each, so every card of it is short. In the first pool that is the only built deck; in the
second the members have 100 built decks between them (the reader's and 99 more of 100 cards
each, private, unlisted and public in turn), so 200 cards are short and each is wanted by about
half the decks. For every page and API answer that shows conflicts (the collection page, the
conflicts API, the deck page, the builder) it reports the median with 100 built decks against
the median with one, both timed in the same run, interleaved, with a trivial API request timed
beside them as a yardstick.
"""

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable

from django_bench import DATABASES, p95, setup_django

MEMBERS = 12
BUILT = 100
ENTRIES = 100
CARDS = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    setup_django("bench_conflicts", args.database)
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from cardsite.catalogue.models import Card, Game
    from cardsite.collection.models import CollectionCard, Pool, PoolMember
    from decks.models import Deck, DeckEntry
    from decks.services import Intake, RequestedCard, deck_create

    game = Game.objects.get(slug="conquest-of-orion")
    main_cards = Card.objects.filter(game=game, card_type__zone="main").order_by("id")
    if main_cards.count() < CARDS:  # the sample sets hold fewer: add made-up ones (set SYN)
        call_command("synthetic_catalogue", cards=10 * CARDS, stdout=io.StringIO())
    cards = list(main_cards[:CARDS])
    if len(cards) < CARDS:
        raise SystemExit(f"only {len(cards)} main-zone cards in {game.name}")
    zone = "main"
    rng = random.Random(100)

    def pool_with(tag: str, built: int) -> tuple[User, Deck]:
        User.objects.filter(username__startswith=f"bench-{tag}-").delete()
        Pool.objects.filter(name=f"bench {tag}").delete()
        users = [User.objects.create(username=f"bench-{tag}-{i}") for i in range(MEMBERS)]
        pool = Pool.objects.create(name=f"bench {tag}", created_by=users[0])
        PoolMember.objects.bulk_create(
            PoolMember(pool=pool, user=u, accepted_at=timezone.now()) for u in users
        )
        reader = users[0]
        CollectionCard.objects.bulk_create(
            CollectionCard(owner=reader, card=c, quantity=2) for c in cards
        )
        mine = deck_create(
            owner=reader,
            game=game,
            format_slug="constructed",
            name="The reader's deck",
            visibility="private",
            intake=Intake(tuple(RequestedCard(3, None, c.short_id) for c in cards[:ENTRIES])),
        )
        Deck.objects.filter(pk=mine.pk).update(built_at=timezone.now())
        visibilities = ("private", "unlisted", "public")
        others = Deck.objects.bulk_create(
            Deck(
                owner=users[i % MEMBERS],
                game=game,
                format="constructed",
                name=f"Built {i:03}",
                visibility=visibilities[i % 3],
                built_at=timezone.now(),
            )
            for i in range(built - 1)
        )
        DeckEntry.objects.bulk_create(
            DeckEntry(deck=deck, card=card, zone=zone, quantity=rng.randint(1, 3))
            for deck in others
            for card in rng.sample(cards, ENTRIES)
        )
        return reader, Deck.objects.get(pk=mine.pk)

    setups = {"one": pool_with("one", 1), "hundred": pool_with("hundred", BUILT)}
    if connection.vendor == "postgresql":
        # As autovacuum would soon after a bulk load: the planner's statistics, refreshed.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    clients = {}
    for tag, (reader, _) in setups.items():
        clients[tag] = Client()
        clients[tag].force_login(reader)
    anonymous = Client()

    def pages(tag: str) -> list[tuple[str, Callable[[], object]]]:
        client, deck = clients[tag], setups[tag][1]
        return [
            ("collection page (/collection/)", lambda: client.get("/collection/")),
            (
                "conflicts API (GET /api/v1/collection/conflicts/)",
                lambda: client.get("/api/v1/collection/conflicts/"),
            ),
            ("deck page", lambda: client.get(f"/decks/{deck.share_key}/")),
            ("builder", lambda: client.get(f"/decks/{deck.share_key}/edit/")),
        ]

    odds = {"deck_size": 50, "copies": 3, "draws": 7, "at_least": 1}

    def trivial() -> object:
        return anonymous.post("/api/v1/odds/", odds, content_type="application/json")

    def measure(call: Callable[[], object]) -> tuple[int, int]:
        for _ in range(3):  # warm caches and the snapshot
            response = call()
            if response.status_code != 200:  # type: ignore[attr-defined]
                raise SystemExit(f"HTTP {response.status_code}")  # type: ignore[attr-defined]
        queries: list[str] = []

        def counted(run: Callable[..., object], sql: str, *rest: object) -> object:
            queries.append(sql)
            return run(sql, *rest)

        with connection.execute_wrapper(counted):
            response = call()
        return len(queries), len(response.content)  # type: ignore[attr-defined]

    rows = []
    base: list[float] = []
    for (label, one), (_, hundred) in zip(pages("one"), pages("hundred"), strict=True):
        q_one, b_one = measure(one)
        q_hundred, b_hundred = measure(hundred)
        t_one, t_hundred = [], []
        for _ in range(args.runs):
            for call, timings in ((trivial, base), (one, t_one), (hundred, t_hundred)):
                begin = time.perf_counter()
                call()
                timings.append((time.perf_counter() - begin) * 1000)
        ratio = statistics.median(t_hundred) / statistics.median(t_one)
        rows.append((label, t_one, t_hundred, ratio, q_one, q_hundred, b_one, b_hundred))

    print(
        f"\n{args.database}: a pool of {MEMBERS}; {BUILT} built decks of {ENTRIES} cards against "
        f"one, {args.runs} runs each, interleaved\n"
    )
    print(
        "| page or answer | p50 ms, 1 built | p50 ms, 100 built | p95 ms, 100 built "
        "| 100 / 1 | queries (1 / 100) | bytes (1 / 100) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, t_one, t_hundred, ratio, q_one, q_hundred, b_one, b_hundred in rows:
        print(
            f"| {label} | {statistics.median(t_one):.1f} | {statistics.median(t_hundred):.1f} "
            f"| {p95(t_hundred):.1f} | {ratio:.2f} | {q_one} / {q_hundred} "
            f"| {b_one:,} / {b_hundred:,} |"
        )
    print(f"| trivial API request (POST /api/v1/odds/) | {statistics.median(base):.1f} | | | | | |")


if __name__ == "__main__":
    main()
