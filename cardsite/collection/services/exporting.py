"""A collection written back in the formats import reads, so export then import is exact."""

from __future__ import annotations

import csv
import io
from typing import Any, Literal

from django.contrib.auth.models import User

from cardsite.catalogue.documents import neutralise_formula
from cardsite.collection.models import CollectionCard
from engines import ENGINES
from engines.errors import InputError

As = Literal["text", "csv"]


def collection_export(*, owner: User, as_: As = "text", game: str | None = None) -> str:
    """`owner`'s own copies (not their pool's), one line per printing, in set and collector
    order. Text is the decklist format, one `# Game` comment above each game's lines (import
    reads one game at a time); CSV has a `game` column unless one game was asked for."""
    if as_ not in ("text", "csv"):
        raise InputError("as", "Export as text or csv.")
    if game is not None and game not in ENGINES:
        raise InputError("game", f"No game {game[:40]!r}; games are {', '.join(sorted(ENGINES))}.")
    rows = CollectionCard.objects.filter(owner=owner)
    if game is not None:
        rows = rows.filter(card__game__slug=game)
    values = rows.order_by(
        "card__game__name", "card__card_set__code", "card__number_sort", "card__number"
    ).values_list(
        "card__game__slug",
        "card__game__name",
        "card__card_set__code",
        "card__number",
        "card__name",
        "quantity",
    )
    if as_ == "csv":
        return _csv(values, with_game=game is None)
    out: list[str] = []
    shown = None
    for slug, game_name, set_code, number, name, quantity in values:
        if slug != shown:
            if out:
                out.append("")
            out.append(f"# {game_name}")
            shown = slug
        out.append(f"{quantity} {name} ({set_code}) {number}")
    return "\n".join(out) + "\n" if out else ""


def _csv(values: Any, *, with_game: bool) -> str:
    columns = ["game", "set", "number", "name", "quantity"][0 if with_game else 1 :]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for slug, _, set_code, number, name, quantity in values:
        cells = [set_code, number, name]
        row = [neutralise_formula(c) for c in ([slug, *cells] if with_game else cells)]
        writer.writerow([*row, str(quantity)])
    return out.getvalue()
