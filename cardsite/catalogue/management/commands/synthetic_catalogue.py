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
# Rules text from a small grammar, so that words and phrases are about as common as in real
# card text (a handful of sentences repeated 100,000 times would make every word a hit).
TRIGGERS = [
    "",
    "",
    "Upon deployment: ",
    "When this is destroyed: ",
    "At the end of battle: ",
    "When you play this, ",
    "Throughout the battle: ",
    "At the beginning of your turn, ",
]
EFFECTS = [
    "draw {n} card{s}",
    "discard {n} card{s}",
    "destroy a unit with {n} or less {stat}",
    "deal {n} damage to a nearby {target}",
    "gain {n} {resource}",
    "remove {n} units prior to battle",
    "bury a card on your field",
    "return a {target} to its owner's hand",
    "look at the top {n} cards",
    "each opponent loses {n} {stat}",
    "shuffle your discard pile into your deck",
    "move a {target} to an adjacent location",
    "your {target}s get +{n} {stat}",
    "search your deck for a {target}",
    "mute a {target}",
    "plague a {target}",
    "heal {n} damage",
    "exhaust a {target}",
    "ready a {target}",
    "copy the effect of the card above",
]
CONDITIONS = [
    "",
    "",
    "",
    " if you control a planet",
    " unless an opponent passed",
    " while you are at Tier {n} or above",
    " for each other card in this row",
    " if this row has a weapon",
    " this turn",
]
TARGETS = ["unit", "ship", "planet", "satellite", "weapon", "troop", "sigil", "card", "tower"]
STATS = ["CQ", "attack", "defence", "health", "combat power", "shields"]
RESOURCES = ["blue", "gold", "red", "resources of your choice"]


def _sentence(rng: random.Random) -> str:
    n = rng.randint(1, 4)
    effect = rng.choice(EFFECTS).format(
        n=n,
        s="" if n == 1 else "s",
        stat=rng.choice(STATS),
        target=rng.choice(TARGETS),
        resource=rng.choice(RESOURCES),
    )
    condition = rng.choice(CONDITIONS).format(n=rng.randint(2, 4))
    trigger = rng.choice(TRIGGERS)
    text = f"{trigger}{effect}{condition}."
    return text[0].upper() + text[1:]


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
                            "text": " ".join(_sentence(rng) for _ in range(rng.randint(1, 3))),
                            "stats": stats,
                        },
                    )
                )
            with tqdm(total=count, desc=slug, unit="card", file=self.stderr._out) as bar:
                summary = catalogue_import(game_slug=slug, document=document, progress=bar.update)
            self.stdout.write(str(summary))
