from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from cardsite.catalogue.documents import DocumentError, read_document
from cardsite.catalogue.services import catalogue_import
from engines import ENGINES

# Below this, a bar would flash by and only clutter the output.
PROGRESS_FROM = 1000


class Command(BaseCommand):
    help = (
        "Import cards (CSV or JSON) into one game, all or nothing. "
        "Columns: see docs/pages/game-data.md."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--game", required=True, choices=sorted(ENGINES))
        parser.add_argument(
            "--format", choices=["json", "csv"], help="Defaults to the file's extension."
        )

    def handle(self, *args: Any, file: Path, game: str, format: str | None, **options: Any) -> None:
        fmt = format or file.suffix.lower().lstrip(".")
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        try:
            document = read_document(raw, fmt, ENGINES[game].stats)
            total = len(document.cards)
            # The raw stream: Django's OutputWrapper would add a newline to every redraw.
            with tqdm(
                total=total,
                unit="card",
                disable=total < PROGRESS_FROM,
                desc=f"Importing {file.name}",
                file=self.stderr._out,
            ) as bar:
                summary = catalogue_import(game_slug=game, document=document, progress=bar.update)
        except DocumentError as exc:
            for problem in exc.problems:
                self.stderr.write(f"{file}: {problem}")
            raise CommandError(
                f"Nothing was imported: {len(exc.problems)} problem(s) in {file}."
            ) from None
        self.stdout.write(self.style.SUCCESS(str(summary)))
