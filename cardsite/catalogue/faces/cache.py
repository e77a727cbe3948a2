"""Faces drawn to PNG bytes, and kept as files that are drawn again only when the card changes."""

from __future__ import annotations

import io
import os
import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from PIL import Image, ImageOps

from cardsite.catalogue.art import art_size_problem
from cardsite.catalogue.faces.data import _version, face_data
from cardsite.catalogue.faces.drawing import _Face
from engines import get_engine

if TYPE_CHECKING:
    from cardsite.catalogue.models import Card


def render_face(card: Card) -> bytes:
    """The card's face as PNG bytes."""
    data = face_data(card)
    return _png(_Face(data, get_engine(data.game_slug), art=_load_art(card)).draw())


def face_file(card: Card) -> Path:
    """The card's face as a cached PNG file, drawn only when the card has changed."""
    data = face_data(card)
    engine = get_engine(data.game_slug)
    folder = Path(settings.MEDIA_ROOT) / "faces"
    path = folder / f"{data.short_id}-{_version(data, engine)}.png"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    png = _png(_Face(data, engine, art=_load_art(card)).draw())
    # Written aside and renamed, so a concurrent request never reads a half-written file.
    temporary = folder / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
    try:
        temporary.write_bytes(png)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    mine = re.compile(rf"{re.escape(data.short_id)}-[0-9a-f]+\.png")
    for old in folder.iterdir():
        if old != path and mine.fullmatch(old.name):
            old.unlink(missing_ok=True)
    return path


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _load_art(card: Card) -> Image.Image | None:
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
