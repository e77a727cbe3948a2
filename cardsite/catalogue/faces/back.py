"""The back of a game's cards, as printed on proxies and shown in Tabletop Simulator.

Drawn from the engine's `FaceLayout.back` (our design, not the publisher's): the game's name,
its two colours and a QR code to the game's page. Kept under MEDIA_ROOT/backs/ in files
named after a hash of everything drawn, like the faces.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import uuid
from dataclasses import asdict
from pathlib import Path

import qrcode
from django.conf import settings
from django.urls import reverse
from PIL import Image, ImageDraw

from cardsite.catalogue.faces.palette import WHITE, hex_rgb
from cardsite.catalogue.faces.regions import LANDSCAPE, PORTRAIT
from cardsite.catalogue.faces.typesetting import Style, font
from engines import get_engine
from engines.base import GameEngine

# Bump whenever the drawing changes, so that every cached back is drawn again.
BACK_FORMAT = 1
PATTERNS = ("stars",)


def game_url(engine: GameEngine) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("catalogue:game", args=[engine.slug])


def back_version(engine: GameEngine, *, landscape: bool = False) -> str:
    """Changes whenever anything drawn on the game's back changes."""
    payload = {
        "format": BACK_FORMAT,
        "back": asdict(engine.face.back),
        "name": engine.name,
        "url": game_url(engine),
        "landscape": landscape,
    }
    encoded = json.dumps(payload, sort_keys=True).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def draw_back(engine: GameEngine, *, landscape: bool = False) -> Image.Image:
    size = LANDSCAPE if landscape else PORTRAIT
    field, accent = (hex_rgb(c) for c in engine.face.back.colours)
    image = Image.new("RGB", size, field)
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.rounded_rectangle((24, 24, width - 24, height - 24), 28, outline=accent, width=8)
    title = font(Style.BOLD, 44)
    draw.text((width / 2, height * 0.3), engine.name, font=title, fill=WHITE, anchor="mm")
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(game_url(engine))
    code.make(fit=True)
    qr = code.make_image(fill_color="black", back_color="white").get_image().convert("RGB")
    side = min(width, height) // 3
    qr = qr.resize((side, side), Image.Resampling.NEAREST)
    image.paste(qr, ((width - side) // 2, int(height * 0.55)))
    return image


def back_png(engine: GameEngine, *, landscape: bool = False) -> bytes:
    buffer = io.BytesIO()
    draw_back(engine, landscape=landscape).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def back_file(game_slug: str, *, landscape: bool = False) -> Path:
    """The game's card back as a cached PNG file, drawn only when its design has changed.
    Raises KeyError for an unknown game."""
    engine = get_engine(game_slug)
    folder = Path(settings.MEDIA_ROOT) / "backs"
    stem = f"{engine.slug}-landscape" if landscape else engine.slug
    path = folder / f"{stem}-{back_version(engine, landscape=landscape)}.png"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    png = back_png(engine, landscape=landscape)
    # Written aside and renamed, so a concurrent request never reads a half-written file.
    temporary = folder / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
    try:
        temporary.write_bytes(png)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    mine = re.compile(rf"{re.escape(stem)}-[0-9a-f]+\.png")
    for old in folder.iterdir():
        if old != path and mine.fullmatch(old.name):
            old.unlink(missing_ok=True)
    return path
