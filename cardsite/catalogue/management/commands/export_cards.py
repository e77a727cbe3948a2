import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.documents import write_csv, write_json
from cardsite.catalogue.models import Game
from cardsite.catalogue.selectors import catalogue_document
from engines import ENGINES


class Command(BaseCommand):
    help = (
        "Export one game's catalogue as JSON (everything) or CSV (cards), in import_cards' format."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--game", required=True, choices=sorted(ENGINES))
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--output", "-o", type=Path, help="Defaults to standard output.")

    def handle(
        self, *args: Any, game: str, format: str, output: Path | None, **options: Any
    ) -> None:
        row = Game.objects.filter(slug=game).first()
        if row is None:
            raise CommandError(f"{game} has no data yet; run load_games or import_cards first.")
        document = catalogue_document(game=row)
        if format == "json":
            text = write_json(document)
        else:
            text = write_csv(document["cards"], [s.key for s in row.engine.stats])
        if output:
            output.write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {len(document['cards'])} cards to {output}")
        else:
            sys.stdout.write(text)
