"""Receivers that keep derived deck data true whichever way a deck is written: the services,
the admin, or a restore (loaddata sends pre_save with raw=True too)."""

from __future__ import annotations

from typing import Any

from decks.models import Deck
from engines.filters.text import fold


def fold_name(sender: type, instance: Deck, **kwargs: Any) -> None:
    instance.search_name = fold(instance.name)
