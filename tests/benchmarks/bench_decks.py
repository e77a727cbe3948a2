"""Deck pipeline benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_decks.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_decks.py --database postgres

It builds a database of its own (a SQLite file in /tmp, or the cardsite_bench_decks database on
the local PostgreSQL) holding every game's fixtures, saves a 50-card Conquest of Orion deck,
and times, in-process through the real URLs, what players do most: validating a 50-card deck
posted as ids and as text, reading a deck through the API, opening its page, and one +/- in
the builder. Each is reported as p50 and p95 and as a ratio to a trivial API request timed in
the same run, interleaved with it, so a noisy machine moves both alike. Target: validation p50
at most 4 times the trivial request, in at most 2 queries.
"""

import argparse
from collections.abc import Callable

from django_bench import DATABASES, print_beside, queries_of, row_beside, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()

    setup_django("bench_decks", args.database)
    from django.contrib.auth.models import User
    from django.test import Client

    from cardsite.catalogue.models import Card, Game
    from decks.services import Intake, RequestedCard, deck_create

    game = Game.objects.get(slug="conquest-of-orion")
    cards = list(Card.objects.filter(game=game, card_type__zone="main").order_by("id")[:50])
    owner, _ = User.objects.get_or_create(username="bench-decks")
    owner.set_password("bench-decks-pass-9")
    owner.save()
    owner.decks.all().delete()
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name="Bench",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    as_ids = {
        "game": game.slug,
        "format": "constructed",
        "cards": [{"id": c.short_id, "quantity": 1} for c in cards],
    }
    as_text = {
        "game": game.slug,
        "format": "constructed",
        "text": "\n".join(f"1 {c.name}" for c in cards),
    }
    anonymous, builder = Client(), Client()
    builder.force_login(owner)
    step = {"add": "remove", "remove": "add"}
    last = {"action": "remove"}

    def quantity_change() -> object:
        last["action"] = step[last["action"]]
        return builder.post(
            f"/decks/{deck.share_key}/edit/card/",
            {"card": cards[0].short_id, "action": last["action"]},
            HTTP_HX_REQUEST="true",
        )

    # A request that goes through the same DRF parsing, validation and rendering as a deck
    # check, but reads nothing: exact odds of drawing one of three copies in seven cards.
    odds = {"deck_size": 50, "copies": 3, "draws": 7, "at_least": 1}
    trivial = (
        "trivial API request (POST /api/v1/odds/)",
        lambda: anonymous.post("/api/v1/odds/", odds, content_type="application/json"),
    )
    cases: list[tuple[str, Callable[[], object]]] = [
        (
            "validate 50 cards, as ids",
            lambda: anonymous.post(
                "/api/v1/decks/validate/", as_ids, content_type="application/json"
            ),
        ),
        (
            "validate 50 cards, as text",
            lambda: anonymous.post(
                "/api/v1/decks/validate/", as_text, content_type="application/json"
            ),
        ),
        ("deck read (API)", lambda: anonymous.get(f"/api/v1/decks/{deck.share_key}/")),
        ("deck page", lambda: anonymous.get(deck.get_absolute_url())),
        ("builder +/- one card", quantity_change),
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
    print(f"\n{args.database}: {args.runs} runs each, interleaved with the trivial request\n")
    print_beside(trivial[0], base, rows)


if __name__ == "__main__":
    main()
