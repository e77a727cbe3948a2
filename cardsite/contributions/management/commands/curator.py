from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.models import Game
from cardsite.contributions.models import Curator
from cardsite.contributions.services.curators import curator_add, curator_remove


class Command(BaseCommand):
    help = "Make a user a curator of a game, remove one, or list them."

    def add_arguments(self, parser: ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        for action in ("add", "remove"):
            one = sub.add_parser(action, help=f"{action} a curator")
            one.add_argument("username")
            one.add_argument("--game", required=True, help="the game's slug")
        listing = sub.add_parser("list", help="list curators")
        listing.add_argument("--game", help="only this game's")

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        if action == "list":
            curators = Curator.objects.select_related("user", "game")
            if options.get("game"):
                curators = curators.filter(game__slug=options["game"])
            for curator in curators:
                self.stdout.write(f"{curator.game.slug}\t{curator.user.get_username()}")
            return
        game = Game.objects.filter(slug=options["game"]).first()
        if game is None:
            known = ", ".join(Game.objects.values_list("slug", flat=True)) or "none loaded"
            raise CommandError(f"No game {options['game']!r}; games: {known}")
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"No user {options['username']!r}.")
        if action == "add":
            curator_add(user=user, game=game)
            self.stdout.write(f"{user.get_username()} curates {game.name}.")
        elif curator_remove(user=user, game=game):
            self.stdout.write(f"{user.get_username()} no longer curates {game.name}.")
        else:
            raise CommandError(f"{user.get_username()} does not curate {game.name}.")
