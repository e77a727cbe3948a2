from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.documents import DocumentError, read_document
from cardsite.catalogue.services import catalogue_import, games_sync
from engines import ENGINES

# game.json declares the sets, factions and keywords that sample.json refers to.
FIXTURE_FILES = ("game.json", "sample.json")


class Command(BaseCommand):
    help = (
        "Load every game's fixtures (rulebook data, then the sample set). Safe to run again: "
        "cards the community has changed keep their reviewed values."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "games",
            nargs="*",
            metavar="GAME",
            help=f"Only these games (default: all of {', '.join(sorted(ENGINES))}).",
        )

    def handle(self, *args: Any, games: list[str], **options: Any) -> None:
        unknown = sorted(set(games) - set(ENGINES))
        if unknown:
            raise CommandError(
                f"unknown game(s) {', '.join(unknown)}; known: {', '.join(sorted(ENGINES))}"
            )
        games_sync()
        for slug in games or sorted(ENGINES):
            for name in FIXTURE_FILES:
                path = settings.FIXTURES_DIR / slug / name
                if not path.exists():
                    continue
                try:
                    document = read_document(path.read_bytes(), "json", ENGINES[slug].stats)
                    # Cards the community has changed keep their reviewed values.
                    summary = catalogue_import(
                        game_slug=slug, document=document, keep_community=True
                    )
                except DocumentError as exc:
                    for problem in exc.problems:
                        self.stderr.write(f"{path}: {problem}")
                    raise CommandError(
                        f"{path} did not load; nothing from it was written."
                    ) from None
                self.stdout.write(f"{path.relative_to(settings.BASE_DIR)}: {summary}")
