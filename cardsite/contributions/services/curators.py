"""Who curates which game: made by an admin, in the admin or with `manage.py curator`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from cardsite.catalogue.models import Game
from cardsite.contributions.models import Curator


def curator_add(*, user: User, game: Game, added_by: Any = None) -> Curator:
    curator, _ = Curator.objects.get_or_create(
        user=user, game=game, defaults={"added_by": added_by}
    )
    return curator


def curator_remove(*, user: User, game: Game) -> bool:
    deleted, _ = Curator.objects.filter(user=user, game=game).delete()
    return bool(deleted)
