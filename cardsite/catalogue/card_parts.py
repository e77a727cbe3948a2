"""Parts other apps add to a card's page, below its body (the decks app: the public decks
using the card), without the catalogue knowing them.

A card page is the site's most read page, and each cache round trip costs about as much CPU
as the rest of a part: so each part names the cache keys it reads, and the page reads them all
with its own in one round trip (views.card_detail), then asks each part for its HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CardPagePart:
    # The cache keys the part reads for the card with this short id.
    keys: Callable[[str], list[str]]
    # Its HTML (escaped already), from what the cache held under those keys (missing keys are
    # absent); on a miss it may read the database and write the cache itself.
    html: Callable[[str, Mapping[str, Any]], str]


PARTS: list[CardPagePart] = []


def register(part: CardPagePart) -> None:
    if part not in PARTS:
        PARTS.append(part)
