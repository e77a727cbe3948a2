from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.models import Card, Game
from decks.decklist import parse_text
from decks.models import Deck
from decks.printing import deck_sheet, list_sheet
from decks.proxies import ProxyOptionError, parse_options
from decks.services import RequestedCard, deck_check


class Command(BaseCommand):
    help = "Write a PDF of proxies for a deck (by id) or a text decklist file."

    def add_arguments(self, parser: ArgumentParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--deck", help="A deck's id (its share key).")
        source.add_argument("--list", type=Path, help="A text decklist file.")
        parser.add_argument("--game", help="The list's game (with --list).")
        parser.add_argument("--output", "-o", type=Path, required=True)
        for option in ("paper", "size", "bleed", "gap", "backs"):
            parser.add_argument(f"--{option}")

    def handle(
        self,
        *args: Any,
        deck: str | None,
        list: Path | None,
        game: str | None,
        output: Path,
        **options: Any,
    ) -> None:
        params = {
            k: str(v)
            for k, v in options.items()
            if k in ("paper", "size", "bleed", "gap", "backs") and v is not None
        }
        try:
            sheet_options = parse_options(params)
        except ProxyOptionError as exc:
            raise CommandError(f"--{exc.option}: {exc.message}") from None
        if deck:
            found = Deck.objects.filter(share_key=deck).first()
            if found is None:
                raise CommandError(f"no deck with id {deck!r}")
            pdf = deck_sheet(found, sheet_options)
        else:
            pdf = self._from_list(list, game, sheet_options)
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
        lines, problems = parse_text(text, game.engine)
        fmt = game.engine.formats[0].slug
        result = deck_check(
            game=game,
            format_slug=fmt,
            requested=[RequestedCard.from_line(line) for line in lines],
            list_problems=problems,
        )
        unusable = [
            p
            for p in result.problems
            if p["code"] in {"unknown_card", "wrong_game", "unreadable_line"}
        ]
        if unusable:
            for p in unusable:
                self.stderr.write(f"{path}: {p['message']}")
            raise CommandError(f"{len(unusable)} line(s) of {path} name no card; nothing written")
        cards = Card.objects.in_bulk([e.card.id for e in result.entries])
        entries = [(cards[e.card.id], e.quantity) for e in result.entries]
        return list_sheet(path.stem, game.name, entries, options)
