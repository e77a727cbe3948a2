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
from collections.abc import Callable

from PIL import Image

from cardsite.catalogue.faces import face_file
from decks.images import cached_image, kept_image
from decks.tts.plan import Sheet

KIND = "tts"
# One filter for every cell, so a test can scale a face the same way and compare.
RESAMPLE = Image.Resampling.LANCZOS
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
) -> bytes:
    """The sheet as PNG bytes, drawn once per digest; `current` is the number of sheets in
    the deck's plan now, all of which are kept. `before_drawing` is called only when the
    sheet must be drawn (and may refuse by raising)."""

    def draw() -> bytes:
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


def draw_sheet(sheet: Sheet) -> bytes:
    width, height = sheet.cell
    image = Image.new("RGB", sheet.size, EMPTY_CELL)
    for position, card in enumerate(sheet.cards):
        row, column = divmod(position, sheet.columns)
        with Image.open(face_file(card)) as face:
            cell = face.convert("RGB").resize((width, height), RESAMPLE)
        image.paste(cell, (column * width, row * height))
    buffer = io.BytesIO()
    # Pillow's default compression: `optimize` saves a few per cent for several times the cost.
    image.save(buffer, format="PNG")
    return buffer.getvalue()
