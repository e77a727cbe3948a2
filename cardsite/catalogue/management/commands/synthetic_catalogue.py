"""A large made-up catalogue for benchmarks and load tests, written through the normal import."""

import random
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from cardsite.catalogue.documents import Document, Record
from cardsite.catalogue.models import Faction, Keyword, Rarity
from cardsite.catalogue.services import catalogue_import, games_sync
from cardsite.catalogue.synthetic import synthetic_cards, synthetic_set
from engines import ENGINES


class Command(BaseCommand):
    help = "Make a synthetic catalogue (set SYN in every game) of N made-up cards, for benchmarks."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--cards", type=int, default=100_000)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, cards: int, seed: int, **options: Any) -> None:
        rng = random.Random(seed)
        games = {g.slug: g for g in games_sync()}
        per_game = cards // len(games)
        for index, (slug, game) in enumerate(sorted(games.items())):
            count = per_game + (cards - per_game * len(games) if index == 0 else 0)
            document = Document()
            document.sections["sets"] = [Record(None, synthetic_set())]
            document.sections["cards"] = [
                Record(line, card)
                for line, card in enumerate(
                    synthetic_cards(
                        ENGINES[slug],
                        count=count,
                        factions=list(
                            Faction.objects.filter(game=game).values_list("name", flat=True)
                        ),
                        keywords=list(
                            Keyword.objects.filter(game=game).values_list("name", flat=True)
                        ),
                        rarities=list(
                            Rarity.objects.filter(game=game).values_list("name", flat=True)
                        ),
                        rng=rng,
                    ),
                    start=1,
                )
            ]
            with tqdm(total=count, desc=slug, unit="card", file=self.stderr._out) as bar:
                summary = catalogue_import(game_slug=slug, document=document, progress=bar.update)
            self.stdout.write(str(summary))
