"""A deck for Tabletop Simulator: a saved object (save.py) whose cards lie on image sheets of
the card pages' faces (plan.py decides the sheets, sheets.py draws them), with signed,
expiring links for a private deck (links.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardsite.catalogue.faces.ahead import Allowance
from decks.models import Deck
from decks.tts.links import link_is_valid
from decks.tts.plan import DIGEST, tts_plan
from decks.tts.save import tts_file_path, tts_save
from decks.tts.sheets import SheetNotReady, draw_ahead_for, kept_sheet, sheet_png

__all__ = [
    "DIGEST",
    "SheetFile",
    "SheetNotReady",
    "link_is_valid",
    "tts_export",
    "tts_file_path",
    "tts_sheet",
]


def tts_export(
    *, deck: Deck, now: datetime, allow_faces: Allowance = lambda wanted: wanted
) -> dict[str, Any]:
    """The deck's saved object; its links (signed for a private deck) made at `now`. The
    faces its sheets still lack start being drawn in the background, so that TTS, which
    fetches the sheets moments later, finds them ready: as many as `allow_faces` (the
    client's face budget) grants, and no more than a request may queue."""
    plan = tts_plan(deck)
    draw_ahead_for(plan.sheets, allow_faces)
    return tts_save(deck=deck, plan=plan, now=now)


@dataclass(frozen=True)
class SheetFile:
    digest: str
    # The PNG: read, or drawn now (calling `before_drawing` first, which may refuse); faces
    # queued to be drawn ahead are granted by the allowance.
    png: Callable[[Callable[[], None], Allowance], bytes]


def tts_sheet(*, deck: Deck, digest: str) -> SheetFile | None:
    """The deck's sheet with this digest: one of its sheets now, or one drawn for it before
    and still kept; None for any other digest."""
    plan = tts_plan(deck)
    sheet = plan.sheet(digest)
    if sheet is not None:
        current = len(plan.sheets)
        return SheetFile(
            digest,
            lambda before_drawing, allow_faces: sheet_png(
                share_key=deck.share_key,
                sheet=sheet,
                current=current,
                before_drawing=before_drawing,
                allow_faces=allow_faces,
            ),
        )
    kept = kept_sheet(share_key=deck.share_key, digest=digest)
    if kept is None:
        return None
    return SheetFile(digest, lambda before_drawing, allow_faces: kept)
