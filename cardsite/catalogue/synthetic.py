"""Made-up cards in the import format, for benchmarks, load tests and the bulk-import tests.

The `synthetic_catalogue` command imports them into every game; the tests write them to a
file first. The random draws are made in a fixed order, so a seed always gives the same
cards: benchmark queries are written against what seed 1 produces.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engines.base import GameEngine, StatKind

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


def synthetic_set(code: str = SET_CODE) -> dict[str, Any]:
    """The set record every synthetic card belongs to, labelled unofficial."""
    return {
        "code": code,
        "name": "Synthetic benchmark data",
        "official": False,
        "description": "Made up by synthetic_catalogue; not official.",
    }


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


def synthetic_cards(
    engine: GameEngine,
    *,
    count: int,
    factions: Sequence[str],
    keywords: Sequence[str],
    rarities: Sequence[str],
    rng: random.Random,
    set_code: str = SET_CODE,
) -> Iterator[dict[str, Any]]:
    """`count` card records numbered 1..count in `set_code`, valid for `engine`.

    Factions, keywords and rarities are names the game already has (the caller reads them
    from the database), so the cards import without a game file of their own.
    """
    types = [t.name for t in engine.card_types]
    for number in range(1, count + 1):
        stats: dict[str, object] = {}
        for spec in engine.stats:
            if rng.random() < 0.7:
                stats[spec.key] = (
                    rng.choice(spec.choices)
                    if spec.kind is StatKind.CHOICE
                    else rng.randint(spec.minimum or 0, spec.maximum or 9)
                )
        yield {
            "set": set_code,
            "number": str(number),
            "name": _name(rng),
            "type": rng.choice(types),
            "factions": rng.sample(factions, k=min(len(factions), rng.choice([0, 1, 1, 1, 2]))),
            "keywords": rng.sample(keywords, k=min(len(keywords), rng.choice([0, 0, 1, 2]))),
            "rarity": rng.choice(rarities) if rarities else None,
            "text": " ".join(_sentence(rng) for _ in range(rng.randint(1, 3))),
            "stats": stats,
        }
