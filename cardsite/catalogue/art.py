"""Uploaded card art: how large it may be, and the one small copy that proxy sheets print.

An upload is judged by the size its header declares (Image.open reads only the header), so an
image that would take gigabytes to decode is refused for the cost of reading a few bytes.
Pillow's own decompression-bomb guard is set from the same limit (see apps.py), so code that
opens an image without asking first still raises rather than allocates.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from pathlib import Path
from typing import IO

from django.conf import settings
from PIL import Image, ImageOps

from cardsite.files import write_atomically
from engines.errors import InputError

# Beyond these an upload is refused: 16 megapixels of RGB is 48 MB decoded, and no printer
# or screen the site serves needs more for a card.
MAX_ART_SIDE = 4096
MAX_ART_PIXELS = 16_000_000
# The side of the copy a proxy prints: the art box is about 55 x 24 mm, so 1,024 px is over
# 400 dpi across it.
PRINT_ART_SIDE = 1024
PRINT_ART_FOLDER = "print-art"
ART_LIMITS = (
    f"at most {MAX_ART_SIDE:,} px on a side and {MAX_ART_PIXELS:,} pixels "
    f"({MAX_ART_PIXELS / 1_000_000:g} megapixels)"
)

# The exceptions Pillow raises for a file that is not an image it can read, or is too large.
UNREADABLE = (OSError, ValueError, SyntaxError, Image.DecompressionBombError)


def art_size_problem(width: int, height: int) -> str:
    """Why an image of this size cannot be card art, or ""."""
    if max(width, height) > MAX_ART_SIDE or width * height > MAX_ART_PIXELS:
        return f"art may be {ART_LIMITS}; this image is {width:,} x {height:,} px"
    return ""


def check_art(upload: IO[bytes]) -> None:
    """Raise InputError("art", ...) if the image's header declares more than the limits allow.

    Reads only the header and leaves the file where it was; a file that is not an image at all
    is left to the form's own check, which says so in its words.
    """
    start = upload.tell()
    try:
        with Image.open(upload) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        # Pillow refused before we could ask: it declares over twice MAX_IMAGE_PIXELS.
        raise InputError("art", f"art may be {ART_LIMITS}; this image declares far more") from None
    except (OSError, ValueError, SyntaxError):
        return
    finally:
        upload.seek(start)
    if problem := art_size_problem(width, height):
        raise InputError("art", problem)


def print_art(source: Path) -> Path | None:
    """A JPEG of the art at most PRINT_ART_SIDE px a side, made once per distinct content and
    kept under media/print-art/, so a sheet never decodes a full-size image. None when the
    file is missing, unreadable or over the limits: a broken upload costs the proxy its
    picture, not the sheet."""
    try:
        key = _content_key(source)
    except OSError:
        return None
    folder = Path(settings.MEDIA_ROOT) / PRINT_ART_FOLDER
    target = folder / f"{key}-{PRINT_ART_SIDE}.jpg"
    if target.exists():
        return target
    try:
        with Image.open(source) as image:
            if art_size_problem(*image.size):
                return None  # stored before the limits existed; never decoded
            # JPEG decodes straight to a fraction of its size; other formats ignore this.
            image.draft("RGB", (PRINT_ART_SIDE, PRINT_ART_SIDE))
            image.thumbnail((PRINT_ART_SIDE, PRINT_ART_SIDE), Image.Resampling.LANCZOS)
            small = _flattened(ImageOps.exif_transpose(image))
    except UNREADABLE:
        return None
    encoded = io.BytesIO()
    small.save(encoded, format="JPEG", quality=90)
    write_atomically(target, encoded.getvalue())
    return target


def _flattened(image: Image.Image) -> Image.Image:
    """RGB for JPEG: transparent parts become white, as on the printed card."""
    if image.mode in ("RGBA", "LA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGB", rgba.size, "white")
        white.paste(rgba, mask=rgba.getchannel("A"))
        return white
    return image.convert("RGB")


def _content_key(source: Path) -> str:
    stat = source.stat()
    return _file_digest(str(source), stat.st_size, stat.st_mtime_ns)


# Keyed by size and modification time too, so a replaced file is hashed afresh; otherwise
# each sheet would read every art file in full just to find its copy.
@lru_cache(maxsize=1024)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:32]
