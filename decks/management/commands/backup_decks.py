import gzip
import os
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from decks.backups.backup import write_backup


class Command(BaseCommand):
    help = (
        "Back up every user, API token and deck (with its cards, planned cards and history) to "
        "a JSON file; gzipped if the name ends in .gz. Cards are named by short id, so "
        "restore_decks can put the decks back into a fresh database once its catalogue is "
        "loaded."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("output", type=Path, help="The file to write, e.g. decks.json.gz.")

    def handle(self, *args: Any, output: Path, **options: Any) -> None:
        # Written beside the target and renamed into place, so that a backup that fails
        # half-way never leaves a short file under the name of a good one.
        partial = output.with_name(output.name + ".partial")
        try:
            opener = gzip.open if output.suffix == ".gz" else open
            with opener(partial, "wt", encoding="utf-8") as out:
                summary = write_backup(out)
            os.replace(partial, output)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from None
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        self.stdout.write(self.style.SUCCESS(f"Backed up {summary} to {output}."))
