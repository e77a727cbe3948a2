"""Faces drawn to PNG bytes, and kept as files that are drawn again only when the card changes.

Beside each face file, scaled copies (`<short id>-<version>@<w>x<h>.png`) serve pictures made of
many faces (Tabletop Simulator's sheets): a sheet then pastes small files instead of decoding
and scaling seventy full faces. A new version of a card's face removes every file of the old.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from PIL import Image, ImageOps

from cardsite.catalogue.art import art_size_problem
from cardsite.catalogue.faces.data import FaceData, _version, face_data
from cardsite.catalogue.faces.drawing import _Face
from cardsite.files import write_atomically
from engines import get_engine

if TYPE_CHECKING:
    from cardsite.catalogue.models import Card

# One filter for every scaled copy, so a test can scale a face the same way and compare.
SCALE_FILTER = Image.Resampling.LANCZOS


def render_face(card: Card) -> bytes:
    """The card's face as PNG bytes."""
    data = face_data(card)
    return _png(_Face(data, get_engine(data.game_slug), art=load_art(card)).draw())


def _folder() -> Path:
    return Path(settings.MEDIA_ROOT) / "faces"


def face_path(data: FaceData) -> Path:
    """Where the face of this version of the card is kept (whether drawn yet or not)."""
    return _folder() / f"{data.short_id}-{_version(data, get_engine(data.game_slug))}.png"


def scaled_path(data: FaceData, size: tuple[int, int]) -> Path:
    face = face_path(data)
    return face.with_name(f"{face.stem}@{size[0]}x{size[1]}.png")


def face_file(card: Card, *, before_drawing: Callable[[], None] = lambda: None) -> Path:
    """The card's face as a cached PNG file, drawn only when the card has changed;
    `before_drawing` is called only then (and may refuse by raising)."""
    data = face_data(card)
    path = face_path(data)
    if path.exists():
        return path
    before_drawing()
    return write_face(data, art=load_art(card))


def write_face(
    data: FaceData, *, art: Image.Image | None, path: Path | None = None, optimize: bool = True
) -> Path:
    """Draw the face and keep it (at `path`, face_path's answer when the drawing was asked
    for), removing the files of the card's older versions. Needs no database: `data` and
    `art` are read beforehand, as a background drawer does. `optimize` (PNG's smallest
    encoding) costs about 105 ms of a face's 145 for 6 % fewer bytes (60 KB against 64)."""
    path = path or face_path(data)
    face = _Face(data, get_engine(data.game_slug), art=art).draw()
    write_atomically(path, _png(face, optimize=optimize))
    version = path.stem.rsplit("-", 1)[-1]
    mine = re.compile(rf"{re.escape(data.short_id)}-([0-9a-f]+)(?:@\d+x\d+)?\.png")
    for old in path.parent.iterdir():
        match = mine.fullmatch(old.name)
        if match and match.group(1) != version:
            old.unlink(missing_ok=True)
    return path


def scaled_face_file(data: FaceData, size: tuple[int, int]) -> Path | None:
    """The face scaled to `size`, made from the drawn face the first time it is asked for;
    None while the face itself is not drawn yet."""
    path = scaled_path(data, size)
    if path.exists():
        return path
    return scale_face(face_path(data), path, size)


def scale_face(face: Path, path: Path, size: tuple[int, int]) -> Path | None:
    """Keep the face file `face` scaled to `size` at `path`; None if `face` is not drawn."""
    try:
        with Image.open(face) as drawn:
            scaled = drawn.convert("RGB").resize(size, SCALE_FILTER)
    except FileNotFoundError:
        return None
    write_atomically(path, _png(scaled, optimize=False))
    return path


def _png(image: Image.Image, *, optimize: bool = True) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=optimize)
    return buffer.getvalue()


def load_art(card: Card) -> Image.Image | None:
    """The card's uploaded art, decoded, or None (none, missing, broken or too large)."""
    if not card.art:
        return None
    try:
        with card.art.open("rb") as handle:
            art = Image.open(handle)
            if art_size_problem(*art.size):
                return None  # stored before the limits existed: never decoded
            art.load()
    except (OSError, ValueError, Image.DecompressionBombError):
        # A missing or broken upload should cost the card its picture, not its face.
        return None
    return ImageOps.exif_transpose(art).convert("RGB")
