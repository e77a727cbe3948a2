"""A card file proposed whole, against the importer, run on demand (never part of the suite):

    .venv/bin/python tests/benchmarks/bench_file_proposal.py --database sqlite
    .venv/bin/python tests/benchmarks/bench_file_proposal.py --database postgres

It builds a database of its own holding every game's fixtures, writes the synthetic catalogue's
cards (cardsite/catalogue/synthetic.py, 100,000 by default) for one game as the importer's CSV,
and then, in turn, for each run:
(a) `catalogue_import` of the file into a set the game has no cards in;
(b) `file_propose` + `proposal_approve` (which calls `file_approve`) of the same file, by one
    curator and approved by another, into the same empty set.
Between runs the set's cards, and their history, are deleted (not timed). It reports the median
of each and the ratio (b)/(a).

A CSV cannot add a set, and a proposal goes only into an official set, so the file's set is
made here, as an official set of this throwaway database.
"""

import argparse
import datetime as dt
import random
import statistics
import time

from django_bench import DATABASES, setup_django

SET_CODE = "BENCHF"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--game", default="conquest-of-orion")
    args = parser.parse_args()

    setup_django("bench_file_proposal", args.database)
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    from cardsite.catalogue.documents import read_document, write_csv
    from cardsite.catalogue.models import Card, CardChange, CardSet, Faction, Game, Keyword, Rarity
    from cardsite.catalogue.services.write import catalogue_import
    from cardsite.catalogue.synthetic import synthetic_cards
    from cardsite.contributions.models import Curator, Proposal
    from cardsite.contributions.services.files import file_propose
    from cardsite.contributions.services.proposals import SourceInput, proposal_approve

    game = Game.objects.get(slug=args.game)
    engine = game.engine
    CardSet.objects.update_or_create(
        game=game,
        code=SET_CODE,
        defaults={"name": "File proposal benchmark", "is_official": True},
    )
    records = list(
        synthetic_cards(
            engine,
            count=args.cards,
            factions=list(Faction.objects.filter(game=game).values_list("name", flat=True)),
            keywords=list(Keyword.objects.filter(game=game).values_list("name", flat=True)),
            rarities=list(Rarity.objects.filter(game=game).values_list("name", flat=True)),
            rng=random.Random(1),
            set_code=SET_CODE,
        )
    )
    raw = write_csv(records, [s.key for s in engine.stats]).encode()
    print(f"{args.game}: {len(records):,} cards, a {len(raw) / 1e6:.1f} MB CSV, {args.database}")

    long_ago = timezone.now() - dt.timedelta(days=30)
    users = []
    for name in ("bench-file-a", "bench-file-b"):
        user, _ = User.objects.get_or_create(username=name)
        User.objects.filter(pk=user.pk).update(date_joined=long_ago)
        user.refresh_from_db()
        Curator.objects.get_or_create(user=user, game=game)
        users.append(user)
    proposer, reviewer = users

    def empty() -> None:
        cards = Card.objects.filter(game=game, card_set__code=SET_CODE)
        CardChange.objects.filter(card__in=cards).delete()
        cards.delete()
        Proposal.objects.filter(proposer=proposer).delete()

    def imported() -> None:
        catalogue_import(game_slug=game.slug, document=read_document(raw, "csv", engine.stats))

    def proposed_and_approved() -> None:
        proposal = file_propose(
            curator=proposer,
            game=game,
            upload=SimpleUploadedFile("cards.csv", raw, content_type="text/csv"),
            source=SourceInput(kind="publisher", url="https://example.com/cards"),
        )
        proposal_approve(proposal=proposal, reviewer=reviewer)

    timings: dict[str, list[float]] = {"import": [], "proposal": []}
    for _ in range(args.runs):
        for name, call in (("import", imported), ("proposal", proposed_and_approved)):
            empty()
            start = time.perf_counter()
            call()
            timings[name].append(time.perf_counter() - start)
            assert Card.objects.filter(game=game, card_set__code=SET_CODE).count() == args.cards
        print(
            f"  run: import {timings['import'][-1]:.1f} s, "
            f"propose + approve {timings['proposal'][-1]:.1f} s"
        )
    changes = CardChange.objects.filter(card__card_set__code=SET_CODE).count()
    a = statistics.median(timings["import"])
    b = statistics.median(timings["proposal"])
    print(f"(a) catalogue_import:            median {a:.1f} s over {args.runs} run(s)")
    print(f"(b) file_propose + file_approve: median {b:.1f} s ({changes:,} history rows)")
    print(f"(b)/(a) = {b / a:.2f}")
    empty()


if __name__ == "__main__":
    main()
