"""A proposal's photo: bounded as card art is, re-encoded so that nothing but its pixels is
kept (no EXIF: a phone's photo carries where and when it was taken), and stored privately."""

from __future__ import annotations

import io
import uuid
from typing import IO

from django.core.files.base import ContentFile
from PIL import Image, ImageOps

from cardsite.catalogue.art import UNREADABLE, check_art
from cardsite.contributions.limits import MAX_PHOTO_BYTES
from engines.errors import InputError


def clean_photo(upload: IO[bytes], size: int | None) -> ContentFile:
    """The upload as a fresh JPEG or PNG holding only its pixels, turned upright as its EXIF
    said; InputError("photo", ...) naming the limit it passes or saying it is no image."""
    if size is not None and size > MAX_PHOTO_BYTES:
        raise InputError(
            "photo",
            f"a photo may be at most {MAX_PHOTO_BYTES // (1024 * 1024)} MB; "
            f"this one is {size / (1024 * 1024):.1f} MB",
        )
    try:
        check_art(upload)
    except InputError as exc:
        raise InputError("photo", exc.message.replace("art may be", "a photo may be")) from None
    try:
        with Image.open(upload) as opened:
            kind = "PNG" if opened.format == "PNG" else "JPEG"
            image = ImageOps.exif_transpose(opened)
            image.load()
    except UNREADABLE:
        raise InputError(
            "photo", "is not an image this site can read (JPEG, PNG or WebP)"
        ) from None
    if kind == "JPEG" and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    image.info = {}
    out = io.BytesIO()
    # Saved without info: no EXIF, XMP, ICC or text chunks travel to the new file.
    image.save(out, kind, quality=90) if kind == "JPEG" else image.save(out, kind)
    extension = "jpg" if kind == "JPEG" else "png"
    return ContentFile(out.getvalue(), name=f"{uuid.uuid4().hex}.{extension}")
