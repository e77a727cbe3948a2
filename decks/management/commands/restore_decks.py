from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.documents import DocumentError
from decks.backups.backup import read_backup, restore_backup


class Command(BaseCommand):
    help = (
        "Restore users, API tokens and decks from a backup_decks file (gzipped or not), all or "
        "nothing. Load the catalogue first: every card a deck holds must be in it."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("input", type=Path, help="A file backup_decks wrote.")

    def handle(self, *args: Any, input: Path, **options: Any) -> None:
        try:
            raw = input.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {input}: {exc.strerror}") from None
        try:
            summary = restore_backup(read_backup(raw))
        except DocumentError as exc:
            for problem in exc.problems:
                self.stderr.write(f"{input}: {problem}")
            raise CommandError(
                f"Nothing was restored: {len(exc.problems)} problem(s) in {input}."
            ) from None
        self.stdout.write(self.style.SUCCESS(f"Restored {summary} from {input}."))
