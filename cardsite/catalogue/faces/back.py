"""The back of a game's cards, as printed on proxies and shown in Tabletop Simulator.

Drawn from the engine's `FaceLayout.back`, the site's own design and never the publisher's:
the game's name on a plate above a QR code to the game's page, over a motif in the game's
two colours, with a line saying it is this site's proxy back. The top half is turned round
for the bottom, so a back lies the same whichever way up. Kept under MEDIA_ROOT/backs/ in
files named after a hash of everything drawn, like the faces.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import qrcode
from django.conf import settings
from django.urls import reverse
from PIL import Image, ImageDraw

from cardsite.catalogue.faces.back_patterns import PATTERNS, Drawer
from cardsite.catalogue.faces.palette import BLACK, RGB, WHITE, deep, hex_rgb, mix
from cardsite.catalogue.faces.regions import LANDSCAPE, PORTRAIT
from cardsite.catalogue.faces.typesetting import Run, Style, font, wrap
from cardsite.files import write_atomically
from cardsite.seo import absolute
from engines import get_engine
from engines.base import GameEngine

__all__ = ["BACK_FORMAT", "PATTERNS", "back_file", "back_png", "back_version", "draw_back"]

# Bump whenever the drawing changes, so that every cached back is drawn again.
BACK_FORMAT = 2

PROXY_LINE = "cardsite proxy back"
# 3 mm at 300 dpi: no text this close to the edge, where the cut may stray.
MARGIN = 36
# The accent frame's distance from the edge; the title plate keeps clear of it.
FRAME = 46
# The white square holding the code and its four modules of quiet zone: 24 mm printed, so a
# phone reads it from a card of 63 x 88 mm.
QR_PANEL = 288
# How strongly the motif shows through the field colour.
PATTERN_OPACITY = 0.24
# Masks are drawn this many times larger and scaled down, for smooth curves.
SUPERSAMPLE = 2
TITLE_LARGEST, TITLE_SMALLEST, TITLE_LINES = 84, 24, 3
PROXY_LINE_SIZE = 24
PLATE_PADDING = 18


def game_url(engine: GameEngine) -> str:
    return absolute(reverse("catalogue:game", args=[engine.slug]))


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
    width, height = size
    back = engine.face.back
    field, accent = (hex_rgb(c) for c in back.colours)
    image = Image.new("RGB", size, field)
    motif = _mask(size, PATTERNS[back.pattern])
    image.paste(accent, (0, 0, width, height), motif.point(lambda v: round(v * PATTERN_OPACITY)))
    image.paste(accent, (0, 0, width, height), _mask(size, _frame))
    _draw_title(image, engine.name, field, accent)
    # The bottom half is the top half turned round: the card reads the same either way up.
    half = height // 2
    image.paste(image.crop((0, 0, width, half)).rotate(180), (0, height - half))
    _draw_qr(image, game_url(engine), accent)
    return image


def _mask(size: tuple[int, int], drawer: Drawer) -> Image.Image:
    large = (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE)
    mask = Image.new("L", large, 0)
    drawer(ImageDraw.Draw(mask), large, SUPERSAMPLE)
    return mask.resize(size, Image.Resampling.LANCZOS)


def _frame(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    # Ending at size - 1 - inset, so that the frame is its own half turn (see back_patterns).
    width, height = size
    for inset, radius, line in ((FRAME, 30, 5), (FRAME + 10, 22, 2)):
        near = inset * unit
        box = (near, near, width - 1 - near, height - 1 - near)
        draw.rounded_rectangle(box, radius * unit, outline=255, width=line * unit)


def _title_lines(name: str, width: int, height: int) -> tuple[int, list[str]]:
    """The largest size at which the name fits the box in at most three lines, and its lines,
    as evenly long as that many lines allow."""
    below = round(PROXY_LINE_SIZE * 1.6)
    for size in range(TITLE_LARGEST, TITLE_SMALLEST - 1, -2):
        lines = _wrapped(name, size, width)
        if len(lines) <= TITLE_LINES and len(lines) * _leading(size) + below <= height:
            return size, _balanced(name, size, width, len(lines))
    # A name too long for three lines at the smallest size is cut short rather than spill.
    lines = _wrapped(name, TITLE_SMALLEST, width)[:TITLE_LINES]
    return TITLE_SMALLEST, [*lines[:-1], _ellipsized(lines[-1], TITLE_SMALLEST, width)]


def _wrapped(text: str, size: int, width: int) -> list[str]:
    return [
        "".join(piece for piece, _ in line) for line in wrap([Run(text, Style.BOLD)], size, width)
    ]


def _balanced(text: str, size: int, width: int, count: int) -> list[str]:
    # The narrowest box that still takes `count` lines: two lines of about equal length
    # rather than a long line and a lone word.
    low, high = width // count, width
    while low < high:
        middle = (low + high) // 2
        if len(_wrapped(text, size, middle)) <= count:
            high = middle
        else:
            low = middle + 1
    return _wrapped(text, size, high)


def _ellipsized(line: str, size: int, width: int) -> str:
    typeface = font(Style.BOLD, size)
    while line and typeface.getlength(line + "…") > width:
        line = line[:-1]
    return line.rstrip() + "…"


def _leading(size: int) -> int:
    return round(size * 1.15)


def _draw_title(image: Image.Image, name: str, field: RGB, accent: RGB) -> None:
    """The name and the proxy line on a plate, centred between the frame and the QR panel."""
    width, height = image.size
    left, right = FRAME + 26, width - FRAME - 26
    top, bottom = FRAME + 22, height // 2 - QR_PANEL // 2 - 26
    inner = right - left - 2 * PLATE_PADDING
    size, lines = _title_lines(name, inner, bottom - top - 2 * PLATE_PADDING)
    typeface = font(Style.BOLD, size)
    small = font(Style.REGULAR, PROXY_LINE_SIZE)
    gap = round(PROXY_LINE_SIZE * 0.6)
    block = len(lines) * _leading(size) + gap + PROXY_LINE_SIZE
    widest = max((typeface.getlength(line) for line in lines), default=0.0)
    plate_width = min(right - left, max(widest, small.getlength(PROXY_LINE)) + 4 * PLATE_PADDING)
    middle = width / 2
    y = (top + bottom) / 2 - block / 2
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (
            middle - plate_width / 2,
            y - PLATE_PADDING,
            middle + plate_width / 2,
            y + block + PLATE_PADDING,
        ),
        18,
        fill=mix(deep(field), BLACK, 0.35),
        outline=accent,
        width=2,
    )
    for line in lines:
        draw.text((middle, y), line, font=typeface, fill=WHITE, anchor="ma")
        y += _leading(size)
    draw.text((middle, y + gap), PROXY_LINE, font=small, fill=mix(accent, WHITE, 0.3), anchor="ma")


def _draw_qr(image: Image.Image, url: str, accent: RGB) -> None:
    width, height = image.size
    left, top = (width - QR_PANEL) // 2, (height - QR_PANEL) // 2
    draw = ImageDraw.Draw(image)
    ring = 6
    draw.rounded_rectangle(
        (left - ring, top - ring, left + QR_PANEL + ring, top + QR_PANEL + ring), 20, fill=accent
    )
    draw.rounded_rectangle((left, top, left + QR_PANEL, top + QR_PANEL), 14, fill=WHITE)
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(url)
    code.make(fit=True)
    modules = code.modules_count
    # Four modules of quiet zone on every side, as the QR specification asks for.
    box = max(QR_PANEL // (modules + 8), 1)
    symbol = Image.new("L", (modules, modules), 255)
    symbol.putdata([0 if dark else 255 for row in code.get_matrix() for dark in row])
    symbol = symbol.resize((modules * box, modules * box), Image.Resampling.NEAREST)
    offset = (QR_PANEL - symbol.width) // 2
    image.paste(symbol.convert("RGB"), (left + offset, top + offset))


def back_png(engine: GameEngine, *, landscape: bool = False) -> bytes:
    buffer = io.BytesIO()
    draw_back(engine, landscape=landscape).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def back_file(
    game_slug: str, *, landscape: bool = False, before_drawing: Callable[[], None] = lambda: None
) -> Path:
    """The game's card back as a cached PNG file, drawn only when its design has changed;
    `before_drawing` is called only then (and may refuse by raising). Raises KeyError for an
    unknown game."""
    engine = get_engine(game_slug)
    folder = Path(settings.MEDIA_ROOT) / "backs"
    stem = f"{engine.slug}-landscape" if landscape else engine.slug
    path = folder / f"{stem}-{back_version(engine, landscape=landscape)}.png"
    if path.exists():
        return path
    before_drawing()
    write_atomically(path, back_png(engine, landscape=landscape))
    mine = re.compile(rf"{re.escape(stem)}-[0-9a-f]+\.png")
    for old in folder.iterdir():
        if old != path and mine.fullmatch(old.name):
            old.unlink(missing_ok=True)
    return path
