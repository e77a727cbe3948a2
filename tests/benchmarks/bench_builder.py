"""The builder's +/- against a trivial request, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_builder.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_builder.py --database postgres

It builds a database of its own, saves a 40-card Conquest of Orion deck for a signed-in user,
and times, through Django's test Client in-process (no network), a builder + and a - as
htmx sends them (POST decks:edit-card with HX-Request: the answer is the changed rows and the
panel's head, out of band) beside a trivial GET /api/v1/, interleaved, medians over --runs.
Each +/- alternates on one card so the deck stays the same size; the edits fold into one
version (closed every KEYFRAME_EVERY versions), as a player's clicks do. Issue 28's bound: at
most 4x the trivial request, and 6 queries.
"""

import argparse
import re

from django_bench import DATABASES, print_beside, queries_of, row_beside, setup_django

DECK_SIZE = 40
VERSION = re.compile(r'id="deck-meta"[^>]*data-version="(\d+)"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()

    setup_django("bench_builder", args.database)
    from django.contrib.auth.models import User
    from django.test import Client

    from cardsite.catalogue.models import Card, Game
    from decks.services import Intake, RequestedCard, deck_create

    game = Game.objects.get(slug="conquest-of-orion")
    cards = list(Card.objects.filter(game=game, card_type__zone="main").order_by("id")[:DECK_SIZE])
    User.objects.filter(username="bench-builder").delete()
    user = User.objects.create_user("bench-builder", password="x-Long-bench-9")
    deck = deck_create(
        owner=user,
        game=game,
        format_slug="constructed",
        name="Bench",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    client = Client()
    client.force_login(user)
    url = f"/decks/{deck.share_key}/edit/card/"
    card = cards[3].short_id
    state = {"add": True, "version": deck.version}

    def plus_or_minus() -> None:
        action = "add" if state["add"] else "remove"
        state["add"] = not state["add"]
        response = client.post(
            url,
            {"card": card, "zone": "main", "action": action, "version": state["version"]},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200, response.status_code
        # The version the page goes on with, as builder.js reads it from #deck-meta.
        found = VERSION.search(response.content.decode())
        assert found is not None
        state["version"] = int(found[1])

    def trivial() -> None:
        assert client.get("/api/v1/").status_code == 200

    # The version read above is the benchmark's, not the request's: counted apart.
    for _ in range(20):
        plus_or_minus()
        trivial()
    version = state["version"]

    def counted() -> None:
        client.post(
            url,
            {"card": card, "zone": "main", "action": "add", "version": version},
            HTTP_HX_REQUEST="true",
        )

    queries = queries_of(counted)
    client.post(
        url,
        {"card": card, "zone": "main", "action": "remove", "version": version + 1},
        HTTP_HX_REQUEST="true",
    )
    state["version"] = version + 2
    row, base = row_beside("builder +/- (htmx)", plus_or_minus, trivial, args.runs, queries)
    print(f"{args.database}, {DECK_SIZE}-card deck, {args.runs} runs each, interleaved")
    print_beside("GET /api/v1/", base, [row])


if __name__ == "__main__":
    main()
