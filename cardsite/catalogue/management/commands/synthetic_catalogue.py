"""A large made-up catalogue for benchmarks and load tests, written through the normal import."""

import random
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from cardsite.catalogue.documents import Document, Record
from cardsite.catalogue.models import Faction, Keyword, Rarity
from cardsite.catalogue.services import catalogue_import, games_sync
from engines import ENGINES
from engines.base import StatKind

SET_CODE = "SYN"
SYLLABLES = [
    "ar",
    "bel",
    "cor",
    "dra",
    "en",
    "fal",
    "gor",
    "hel",
    "ix",
    "jun",
    "kal",
    "lor",
    "mir",
    "nox",
    "or",
    "pra",
    "quel",
    "ros",
    "sar",
    "tor",
    "ul",
    "vex",
    "wyn",
    "zan",
]
NOUNS = [
    "Sentinel",
    "Raider",
    "Oracle",
    "Nebula",
    "Warden",
    "Comet",
    "Legion",
    "Seer",
    "Bastion",
    "Harbinger",
    "Drifter",
    "Colossus",
    "Envoy",
    "Spire",
    "Tide",
    "Herald",
    "Forge",
    "Veil",
]
TEXT = [
    "Upon deployment, draw a card.",
    "Destroy a unit with 2 or less CQ.",
    "Each opponent discards a card.",
    "Deal 3 damage to a nearby unit.",
    "Gain one resource of your choice.",
    "Remove 2 units prior to battle.",
    "All players draw back up to four cards.",
    "Bury a card on your field.",
    "This gets +2 while you control a planet.",
    "Shuffle your discard pile into your deck.",
]


def _name(rng: random.Random) -> str:
    word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    return f"{word} {rng.choice(NOUNS)}"


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
            engine = ENGINES[slug]
            count = per_game + (cards - per_game * len(games) if index == 0 else 0)
            factions = list(Faction.objects.filter(game=game).values_list("name", flat=True))
            keywords = list(Keyword.objects.filter(game=game).values_list("name", flat=True))
            rarities = list(Rarity.objects.filter(game=game).values_list("name", flat=True))
            types = [t.name for t in engine.card_types]
            document = Document()
            document.sections["sets"] = [
                Record(
                    None,
                    {
                        "code": SET_CODE,
                        "name": "Synthetic benchmark data",
                        "official": False,
                        "description": "Made up by synthetic_catalogue; not official.",
                    },
                )
            ]
            for number in range(1, count + 1):
                stats: dict[str, object] = {}
                for spec in engine.stats:
                    if rng.random() < 0.7:
                        stats[spec.key] = (
                            rng.choice(spec.choices)
                            if spec.kind is StatKind.CHOICE
                            else rng.randint(spec.minimum or 0, spec.maximum or 9)
                        )
                document.sections["cards"].append(
                    Record(
                        number,
                        {
                            "set": SET_CODE,
                            "number": str(number),
                            "name": _name(rng),
                            "type": rng.choice(types),
                            "factions": rng.sample(
                                factions, k=min(len(factions), rng.choice([0, 1, 1, 1, 2]))
                            ),
                            "keywords": rng.sample(
                                keywords, k=min(len(keywords), rng.choice([0, 0, 1, 2]))
                            ),
                            "rarity": rng.choice(rarities) if rarities else None,
                            "text": " ".join(rng.sample(TEXT, k=2)),
                            "stats": stats,
                        },
                    )
                )
            with tqdm(total=count, desc=slug, unit="card", file=self.stderr._out) as bar:
                summary = catalogue_import(game_slug=slug, document=document, progress=bar.update)
            self.stdout.write(str(summary))
