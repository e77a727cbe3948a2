"""A Tabletop Simulator image sheet: the card pages' own faces, each scaled into its cell.

Sheets are PNG. A full sheet of drawn faces came to 4.1 MB as PNG against 5.2 MB as JPEG at
quality 90 with full-resolution colour (4.2 MB with the usual halved colour, which blurs the
coloured rules text): the faces are flat colour and type, which PNG keeps smaller, and
losslessly, so a sheet's cell is exactly the card page's face scaled. TTS turns every image
into a compressed texture itself anyway.

Sheets are drawn before the save that points at them is handed out (`draw_sheets`): TTS
fetches every image of a save at once, moments after it is loaded, shows a failed image for
any answer but the image and never asks again, so a sheet URL in a save must already be a
file. The drawing is the faces drawer's (cardsite/catalogue/faces/ahead.py: one thread per
process), the request only waits for it, at most a few seconds. Sheets are kept per deck
under its pictures folder (decks/exports/images.py, never served as media files), named by their
digest: the current plan's sheets and the newest few before them.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from PIL import Image

from cardsite.catalogue.faces import face_data
from cardsite.catalogue.faces.ahead import (
    Allowance,
    draw_ahead,
    is_waiting,
    per_request,
    queue_job,
    seconds_to_wait,
    wait_for,
)
from cardsite.catalogue.faces.cache import SCALE_FILTER, face_path, scale_face, scaled_path
from cardsite.files import write_atomically
from decks.exports.images import image_path, keep_newest, kept_image
from decks.tts.plan import Sheet

log = logging.getLogger(__name__)

KIND = "tts"
# One filter for every cell, so a test can scale a face the same way and compare.
RESAMPLE = SCALE_FILTER
# Sheets kept per deck beyond the current plan's, for a save loaded before the deck changed.
KEEP_OLDER = 8
# What shows in a grid's unused cells (never dealt: no CardID points there).
EMPTY_CELL = (40, 44, 52)
# The longest a request waits for its sheets: long enough for a fresh 33-card deck's faces
# on an idle drawer (about 5 s), short enough that a web worker is soon free again. Past it,
# the save is a 503 with Retry-After for the person who clicked (decks/views/tts.py), and
# what is being drawn goes on being drawn.
MAX_WAIT = 6.0


class SheetsNotReady(Exception):
    """Some of the sheets are still being drawn after the request's wait (or could not be
    queued): ask again in `retry_after` seconds."""

    def __init__(self, *, missing: int, sheets: int) -> None:
        self.missing = missing
        self.sheets = sheets
        self.retry_after = seconds_to_wait()
        super().__init__(
            f"{missing} of the {sheets} card image sheet{'s' if sheets != 1 else ''} "
            f"{'are' if missing != 1 else 'is'} still being drawn (a request waits at most "
            f"{MAX_WAIT:g} s for them; the drawing goes on): ask again in about "
            f"{self.retry_after} s"
        )


def sheet_path(share_key: str, sheet: Sheet) -> Path:
    return image_path(share_key, KIND, sheet.digest)


def kept_sheet(*, share_key: str, digest: str) -> bytes | None:
    """A sheet drawn for the deck before, if its file is still kept."""
    return kept_image(share_key=share_key, kind=KIND, digest=digest)


def draw_sheets(
    *,
    share_key: str,
    sheets: Sequence[Sheet],
    current: int,
    before_drawing: Callable[[], None],
    allow_faces: Allowance,
) -> None:
    """Have every one of `sheets` drawn and kept, waiting at most MAX_WAIT seconds; raises
    SheetsNotReady if some are not yet. `current` is the number of sheets in the deck's plan
    now, all of which are kept. The faces the sheets lack are queued as `allow_faces` grants
    (it may refuse by raising, while nothing is granted); `before_drawing` is called once for
    each sheet queued to be drawn (and may refuse by raising). Nothing is ever half-written."""
    missing = [sheet for sheet in sheets if not _used(sheet_path(share_key, sheet))]
    if not missing:
        return
    # Each face once, however many sheets ask: a budget refusal only while nothing is granted.
    allow = per_request(allow_faces, sum(len(sheet.cards) for sheet in missing))
    cells = [_cells(sheet) for sheet in missing]
    keep = current + KEEP_OLDER
    keys: list[Path] = []
    for sheet, files in zip(missing, cells, strict=True):
        draw_ahead(sheet.cards, sheet.cell, allow)
        keys += [scaled for _, scaled in files]
    for sheet, files in zip(missing, cells, strict=True):
        path = sheet_path(share_key, sheet)
        if not is_waiting(path) and _faces_on_their_way(files):
            job = partial(_draw_and_keep, files, sheet.cell, sheet.columns, sheet.size, path, keep)
            queue_job(path, job, pay=before_drawing)
        keys.append(path)
    wait_for(keys, timeout=MAX_WAIT)
    # All of them, not only those drawn now: the save must hand out no URL without its file.
    still = sum(1 for sheet in sheets if not sheet_path(share_key, sheet).exists())
    if still:
        raise SheetsNotReady(missing=still, sheets=len(sheets))


def _used(path: Path) -> bool:
    """Whether the sheet is kept; if so it is marked as just used, so that drawing its deck's
    other sheets (which keeps only the newest few) never removes it."""
    try:
        os.utime(path)
    except FileNotFoundError:
        return False
    return True


def _cells(sheet: Sheet) -> list[tuple[Path, Path]]:
    """Each cell's face file and its scaled copy (what the drawer waits on), worked out once
    per sheet in the request: the sheet's drawing in the drawer thread then reads no
    database, and MEDIA_ROOT as it is now."""
    files = []
    for card in sheet.cards:
        data = face_data(card)
        files.append((face_path(data), scaled_path(data, sheet.cell)))
    return files


def _faces_on_their_way(files: list[tuple[Path, Path]]) -> bool:
    """Whether every face the sheet needs is drawn or waiting to be (not refused by a budget
    or a full queue): only then is the sheet itself queued, after them."""
    return all(scaled.exists() or face.exists() or is_waiting(scaled) for face, scaled in files)


def _draw_and_keep(
    cells: list[tuple[Path, Path]],
    cell: tuple[int, int],
    columns: int,
    size: tuple[int, int],
    path: Path,
    keep: int,
) -> None:
    png = compose(cells, cell, columns, size)
    if png is None:
        log.warning("a face of sheet %s was not drawn: the sheet is left for the next ask", path)
        return
    write_atomically(path, png)
    keep_newest(path.parent, KIND, keep)


def compose(
    cells: list[tuple[Path, Path]], cell: tuple[int, int], columns: int, size: tuple[int, int]
) -> bytes | None:
    """The sheet as PNG bytes from its faces' files (face, scaled copy), row by row; None if
    a face is not drawn."""
    width, height = cell
    image = Image.new("RGB", size, EMPTY_CELL)
    for position, (face, scaled) in enumerate(cells):
        row, column = divmod(position, columns)
        if not scaled.exists() and scale_face(face, scaled, cell) is None:
            return None
        with Image.open(scaled) as drawn:
            image.paste(drawn.convert("RGB"), (column * width, row * height))
    buffer = io.BytesIO()
    # Pillow's default compression: `optimize` saves a few per cent for several times the cost.
    image.save(buffer, format="PNG")
    return buffer.getvalue()
