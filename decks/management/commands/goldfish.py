import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from cardsite.catalogue.models import Game
from decks.models import Deck
from decks.services import goldfish_run, intake_deck, intake_text, resolve
from engines.errors import InputError


class Command(BaseCommand):
    help = "Goldfish a deck (by id) or a text decklist: simulate solo games, print JSON."

    def add_arguments(self, parser: ArgumentParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--deck", help="A deck's id.")
        source.add_argument("--list", type=Path, help="A text decklist file.")
        parser.add_argument("--game", help="The list's game (with --list).")
        parser.add_argument("--format", help="The list's format (default: the game's first).")
        parser.add_argument("--runs", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--policy",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="A policy option; values are read as JSON (3, true, ...).",
        )

    def handle(self, *args: Any, **o: Any) -> None:
        policy = {}
        for item in o["policy"]:
            key, _, raw = item.partition("=")
            try:
                policy[key] = json.loads(raw)
            except json.JSONDecodeError:
                policy[key] = raw
        if o["deck"]:
            deck = Deck.objects.filter(share_key=o["deck"], deleted_at__isnull=True).first()
            if deck is None:
                raise CommandError(f"no deck with id {o['deck']!r}")
            resolved = resolve(game=deck.game.slug, intake=intake_deck(deck))
        else:
            game = Game.objects.filter(slug=o["game"] or "").first()
            if game is None:
                raise CommandError("--list needs --game with a game's slug")
            text = o["list"].read_text(encoding="utf-8")
            resolved = resolve(game=game.slug, intake=intake_text(text, game.engine))
        with tqdm(total=o["runs"], unit="game", file=self.stderr._out, desc="Goldfish") as bar:
            try:
                result = goldfish_run(
                    resolved=resolved,
                    runs=o["runs"],
                    seed=o["seed"],
                    policy=policy,
                    progress=bar.update,
                )
            except InputError as exc:
                raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(result, indent=2))
