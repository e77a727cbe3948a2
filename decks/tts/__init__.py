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
from decks.tts.sheets import MAX_WAIT, SheetsNotReady, draw_sheets, kept_sheet

__all__ = [
    "DIGEST",
    "MAX_WAIT",
    "SheetFile",
    "SheetsNotReady",
    "link_is_valid",
    "tts_export",
    "tts_file_path",
    "tts_sheet",
]


def tts_export(
    *,
    deck: Deck,
    now: datetime,
    allow_faces: Allowance,
    before_drawing: Callable[[], None],
) -> dict[str, Any]:
    """The deck's saved object, its links (signed for a private deck) made at `now`, once
    every sheet it points at is drawn: TTS fetches them all the moment the save is loaded
    and never asks again. The sheets not drawn yet are drawn first, the request waiting at
    most MAX_WAIT seconds (SheetsNotReady past that); their faces are queued as `allow_faces`
    (the client's budget) grants, and `before_drawing` is called for each sheet drawn."""
    plan = tts_plan(deck)
    draw_sheets(
        share_key=deck.share_key,
        sheets=plan.sheets,
        current=len(plan.sheets),
        before_drawing=before_drawing,
        allow_faces=allow_faces,
    )
    return tts_save(deck=deck, plan=plan, now=now)


@dataclass(frozen=True)
class SheetFile:
    digest: str
    # The PNG: read, or drawn now (calling `before_drawing` first, which may refuse; the
    # faces it lacks granted by the allowance); SheetsNotReady if not drawn within MAX_WAIT.
    png: Callable[[Callable[[], None], Allowance], bytes]


def tts_sheet(*, deck: Deck, digest: str) -> SheetFile | None:
    """The deck's sheet with this digest: one of its sheets now, or one drawn for it before
    and still kept; None for any other digest."""
    kept = kept_sheet(share_key=deck.share_key, digest=digest)
    if kept is not None:
        return SheetFile(digest, lambda before_drawing, allow_faces: kept)
    plan = tts_plan(deck)
    sheet = plan.sheet(digest)
    if sheet is None:
        return None

    def drawn(before_drawing: Callable[[], None], allow_faces: Allowance) -> bytes:
        # A sheet not drawn with its save: one whose file was removed since, or asked for
        # without the save. Drawn as the save would, alone.
        draw_sheets(
            share_key=deck.share_key,
            sheets=[sheet],
            current=len(plan.sheets),
            before_drawing=before_drawing,
            allow_faces=allow_faces,
        )
        png = kept_sheet(share_key=deck.share_key, digest=digest)
        if png is None:  # removed at once by other requests keeping the newest
            raise SheetsNotReady(missing=1, sheets=1)
        return png

    return SheetFile(digest, drawn)
