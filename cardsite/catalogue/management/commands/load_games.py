from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cardsite.catalogue import live_games
from cardsite.catalogue.documents import DocumentError, read_document
from cardsite.catalogue.services import catalogue_import, game_definition_store
from engines import ENGINES, game_engine
from engines.base import GameEngine
from engines.gamefile import ENGINE_FILE, GameFileError, read_game_folder

# game.json declares the sets, factions and keywords that sample.json refers to.
FIXTURE_FILES = ("game.json", "sample.json")


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(settings.BASE_DIR))
    except ValueError:
        return str(path)


class Command(BaseCommand):
    help = (
        "Load every game's folder under the fixtures folder: its engine.toml (checked first; a "
        "broken one is refused and nothing is written), then its rulebook data and sample set. "
        "Safe to run again: cards the community has changed keep their reviewed values."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "games",
            nargs="*",
            metavar="GAME",
            help="Only these games (folders of the fixtures folder; default: all).",
        )

    def handle(self, *args: Any, games: list[str], **options: Any) -> None:
        root = Path(settings.FIXTURES_DIR)
        available = sorted(path.parent.name for path in root.glob(f"*/{ENGINE_FILE}"))
        if unknown := sorted(set(games) - set(available)):
            raise CommandError(
                f"unknown game(s) {', '.join(unknown)}; known: {', '.join(available)}"
            )
        checked = [self._checked(root / slug) for slug in games or available]
        before = ENGINES.definitions()
        try:
            with transaction.atomic():
                self._load(checked)
        except BaseException:
            # Nothing was written: serve the games as they were.
            ENGINES.use(before)
            raise
        live_games.announce()

    def _checked(self, folder: Path) -> tuple[Path, dict[str, Any], GameEngine]:
        """The folder's definition, checked: a broken file stops the command before any write."""
        path = folder / ENGINE_FILE
        try:
            definition = read_game_folder(folder)
            engine = game_engine(definition, file=_shown(path))
            if engine.slug != folder.name:
                reason = f"{engine.slug!r} is not the name of the game's folder, {folder.name!r}"
                raise GameFileError(_shown(path), "slug", reason)
        except GameFileError as exc:
            self.stderr.write(str(exc))
            raise CommandError(f"{_shown(path)} was refused; nothing was written.") from None
        return folder, definition, engine

    def _load(self, checked: list[tuple[Path, dict[str, Any], GameEngine]]) -> None:
        stored = ENGINES.definitions()
        for _folder, definition, engine in checked:
            game = game_definition_store(definition=definition, engine=engine)
            stored[game.slug] = (game.definition_hash, definition)
        # The imports below check cards against the games as just stored.
        ENGINES.use(stored)
        for folder, _, _ in checked:
            for name in FIXTURE_FILES:
                self._import(folder.name, folder / name)

    def _import(self, slug: str, path: Path) -> None:
        if not path.exists():
            return
        try:
            document = read_document(path.read_bytes(), "json", ENGINES[slug].stats)
            # Cards the community has changed keep their reviewed values.
            summary = catalogue_import(game_slug=slug, document=document, keep_community=True)
        except DocumentError as exc:
            for problem in exc.problems:
                self.stderr.write(f"{path}: {problem}")
            raise CommandError(f"{path} did not load; nothing was written.") from None
        self.stdout.write(f"{_shown(path)}: {summary}")
