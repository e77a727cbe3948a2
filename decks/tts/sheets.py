"""A Tabletop Simulator image sheet: the card pages' own faces, each scaled into its cell.

Sheets are PNG. A full sheet of drawn faces came to 4.1 MB as PNG against 5.2 MB as JPEG at
quality 90 with full-resolution colour (4.2 MB with the usual halved colour, which blurs the
coloured rules text): the faces are flat colour and type, which PNG keeps smaller, and
losslessly, so a sheet's cell is exactly the card page's face scaled. TTS turns every image
into a compressed texture itself anyway.

Sheets are kept per deck under its pictures folder (decks/images.py, never served as media
files), named by their digest: the current plan's sheets and the newest few before them.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable

from PIL import Image

from cardsite.catalogue.faces import face_data, face_file
from cardsite.catalogue.faces.ahead import (
    MAX_INLINE_FACES,
    Allowance,
    draw_ahead,
    inline_cost,
    per_request,
    seconds_to_wait,
)
from cardsite.catalogue.faces.cache import SCALE_FILTER, scaled_face_file
from decks.images import cached_image, kept_image
from decks.tts.plan import Sheet

KIND = "tts"
# One filter for every cell, so a test can scale a face the same way and compare.
RESAMPLE = SCALE_FILTER
# Sheets kept per deck beyond the current plan's, for a save loaded before the deck changed.
KEEP_OLDER = 8
# What shows in a grid's unused cells (never dealt: no CardID points there).
EMPTY_CELL = (40, 44, 52)


def sheet_png(
    *,
    share_key: str,
    sheet: Sheet,
    current: int,
    before_drawing: Callable[[], None] = lambda: None,
    allow_faces: Allowance = lambda wanted: wanted,
) -> bytes:
    """The sheet as PNG bytes, drawn once per digest; `current` is the number of sheets in
    the deck's plan now, all of which are kept. `before_drawing` is called only when the
    sheet must be drawn (and may refuse by raising); `allow_faces` grants the faces queued
    to be drawn ahead when too many are missing (see draw_ahead)."""

    def draw() -> bytes:
        missing = inline_cost(sheet.cards, sheet.cell)
        if missing > MAX_INLINE_FACES:
            waiting = draw_ahead(sheet.cards, sheet.cell, per_request(allow_faces))
            raise SheetNotReady(faces=math.ceil(missing), waiting=waiting)
        before_drawing()
        return draw_sheet(sheet)

    return cached_image(
        share_key=share_key,
        kind=KIND,
        inputs=sheet.inputs,
        draw=draw,
        keep=current + KEEP_OLDER,
    )


def kept_sheet(*, share_key: str, digest: str) -> bytes | None:
    """A sheet drawn for the deck before, if its file is still kept."""
    return kept_image(share_key=share_key, kind=KIND, digest=digest)


class SheetNotReady(Exception):
    """Too many of the sheet's faces are still to be drawn for one request: they are being
    drawn in the background, and the client should ask again in `retry_after` seconds."""

    def __init__(self, *, faces: int, waiting: int) -> None:
        self.faces = faces
        self.retry_after = seconds_to_wait()
        super().__init__(
            f"{faces} of this sheet's card faces are still being drawn ({waiting} waiting in "
            f"all; a request draws at most {MAX_INLINE_FACES:g} itself): ask again in about "
            f"{self.retry_after} s"
        )


def draw_ahead_for(sheets: Iterable[Sheet], allow_faces: Allowance = lambda wanted: wanted) -> None:
    """Start drawing, in the background, the faces these sheets still lack: a save's sheets
    are fetched moments after the save, and should find their faces drawn. As many as
    `allow_faces` grants, at most MAX_AHEAD_PER_REQUEST in all."""
    allow = per_request(allow_faces)
    for sheet in sheets:
        draw_ahead(sheet.cards, sheet.cell, allow)


def draw_sheet(sheet: Sheet) -> bytes:
    width, height = sheet.cell
    image = Image.new("RGB", sheet.size, EMPTY_CELL)
    for position, card in enumerate(sheet.cards):
        row, column = divmod(position, sheet.columns)
        data = face_data(card)
        path = scaled_face_file(data, sheet.cell)
        if path is None:  # the face itself not drawn yet: one of the few drawn inline
            face_file(card)
            path = scaled_face_file(data, sheet.cell)
        assert path is not None
        with Image.open(path) as cell:
            image.paste(cell.convert("RGB"), (column * width, row * height))
    buffer = io.BytesIO()
    # Pillow's default compression: `optimize` saves a few per cent for several times the cost.
    image.save(buffer, format="PNG")
    return buffer.getvalue()
