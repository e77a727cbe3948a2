from argparse import ArgumentParser
from pathlib import Path
from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.models import Game
from decks.exports.printing import deck_sheet, list_sheet
from decks.models import Deck
from decks.proxies import MAX_SHEET_CARDS, OPTION_NAMES, parse_options
from decks.services import DeckContentError, intake_text, resolve
from engines.errors import InputError


class Command(BaseCommand):
    help = "Write a PDF of proxies for a deck (by id) or a text decklist file."

    def add_arguments(self, parser: ArgumentParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--deck", help="A deck's id (its share key).")
        source.add_argument("--list", type=Path, help="A text decklist file.")
        parser.add_argument("--game", help="The list's game (with --list).")
        parser.add_argument("--output", "-o", type=Path, required=True)
        for option in OPTION_NAMES:
            parser.add_argument(f"--{option.replace('_', '-')}", dest=option)

    def handle(
        self,
        *args: Any,
        deck: str | None,
        list: Path | None,
        game: str | None,
        output: Path,
        **options: Any,
    ) -> None:
        params = {k: str(v) for k, v in options.items() if k in OPTION_NAMES and v is not None}
        try:
            sheet_options = parse_options(params)
        except InputError as exc:
            raise CommandError(f"--{exc.field.replace('_', '-')}: {exc.message}") from None
        try:
            if deck:
                found = Deck.objects.filter(share_key=deck, deleted_at__isnull=True).first()
                if found is None:
                    raise CommandError(f"no deck with id {deck!r}")
                pdf = deck_sheet(found, sheet_options)
            else:
                # argparse gives --deck or --list, never neither.
                pdf = self._from_list(cast(Path, list), game, sheet_options)
        except InputError as exc:
            raise CommandError(f"{exc.field}: {exc.message}; nothing written") from None
        output.write_bytes(pdf)
        self.stdout.write(f"Wrote {output} ({len(pdf):,} bytes)")

    def _from_list(self, path: Path, game_slug: str | None, options: Any) -> bytes:
        game = Game.objects.filter(slug=game_slug or "").first()
        if game is None:
            raise CommandError("--list needs --game with a game's slug")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        try:
            intake = intake_text(text, game.engine, most=MAX_SHEET_CARDS * 99)
            resolved = resolve(game=game.slug, intake=intake).known()
        except DeckContentError as exc:
            for p in exc.problems:
                self.stderr.write(f"{path}: {p.message}")
            n = len(exc.problems)
            raise CommandError(f"{n} line(s) of {path} name no card; nothing written") from None
        entries = [(e.card.pk, e.quantity) for e in resolved.entries]
        return list_sheet(path.stem, game.name, entries, options, game_slug=game.slug)
