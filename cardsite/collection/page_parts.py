"""What other apps add to your own collection page (the decks app: the cards your built
decks together are short of), without the collection app knowing them: the decks app sits
above this one and registers its part when it starts (decks/apps.py).

Each part is a context name and what it is for the page's owner; the collection template
shows it under that name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PARTS: dict[str, Callable[[Any], object]] = {}


def register(name: str, part: Callable[[Any], object]) -> None:
    PARTS[name] = part


def own_page_parts(owner: Any) -> dict[str, object]:
    return {name: part(owner) for name, part in PARTS.items()}
