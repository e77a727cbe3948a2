from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from cardsite.catalogue.faces import face_file
from cardsite.catalogue.faces.cache import face_path
from cardsite.catalogue.faces.data import face_data
from cardsite.catalogue.models import Card


class Command(BaseCommand):
    help = (
        "Draw every card face not drawn yet, so that pages of many faces (the builder's pool, "
        "the search grid, deck lists) are served from files rather than drawn under the "
        "per-visitor limit of faces drawn a minute. Safe to run again, and beside the server: "
        "a face already drawn is skipped and each file is written atomically."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("games", nargs="*", metavar="GAME", help="Only these games' cards.")
        parser.add_argument("--limit", type=int, default=None, help="Draw at most this many.")

    def handle(self, *args: Any, **options: Any) -> None:
        cards = Card.objects.select_related("game").order_by("game__slug", "pk")
        if options["games"]:
            cards = cards.filter(game__slug__in=options["games"])
        drawn = 0
        for card in cards.iterator(chunk_size=200):
            if options["limit"] is not None and drawn >= options["limit"]:
                break
            if face_path(face_data(card)).exists():
                continue
            face_file(card)
            drawn += 1
        self.stdout.write(f"{drawn} card face{'' if drawn == 1 else 's'} drawn.")
