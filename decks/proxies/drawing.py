"""A proxy card drawn as vectors: its frame, text, art and QR code, and the sheet's crop marks."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import qrcode
from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from decks.proxies.layout import CROP_LENGTH, CROP_OFFSET, MM, Layout

FONT_DIR = Path(__file__).resolve().parents[2] / "cardsite" / "static" / "fonts"
_FONTS = {
    "Sans": "DejaVuSans.ttf",
    "Sans-Bold": "DejaVuSans-Bold.ttf",
    "Sans-Oblique": "DejaVuSans-Oblique.ttf",
}
TRIM_GREY = HexColor("#BBBBBB")


@dataclass(frozen=True)
class ProxyCard:
    name: str
    type_line: str
    colours: tuple[str, ...]
    stats: tuple[tuple[str, str], ...]
    keywords: tuple[str, ...]
    text: str
    short_url: str
    set_line: str
    sample: bool = False
    art: Path | None = None


def register_fonts() -> None:
    for name, file in _FONTS.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))


@lru_cache(maxsize=4096)
def qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    # A fixed mask: the spec allows any of the eight, and trying them all (qrcode's default)
    # costs more than drawing the whole page. Tests decode every code with a real reader.
    code = qrcode.QRCode(
        border=0, error_correction=qrcode.constants.ERROR_CORRECT_M, mask_pattern=2
    )
    code.add_data(url)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


@lru_cache(maxsize=256)
def link_qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The matrix of a page's link (the deck's), drawn at a fixed width: level L and version 3
    at least, so that a URL of up to 53 bytes is 29 modules, no more and no fewer (4 of them
    fit in layout.QR_QUIET), and one of up to 78 bytes 33."""
    code = qrcode.QRCode(
        version=3, border=0, error_correction=qrcode.constants.ERROR_CORRECT_L, mask_pattern=2
    )
    code.add_data(url)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw_qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """A QR code in the square (x, y, size), in points, with 2 modules of white around it
    inside that square: a card's code, which has more white around it on the card."""
    matrix = qr_matrix(url)
    quiet = 2
    module = size / (len(matrix) + 2 * quiet)
    _white(c, x, y, size, size)
    _modules(c, matrix, x + quiet * module, y + quiet * module, module)


def draw_qr_symbol(c: Canvas, url: str, x: float, y: float, width: float) -> None:
    """A page's link as a QR code (link_qr_matrix) whose symbol (its modules, without the
    quiet zone) is exactly `width` wide, from (x, y) in points, with a quiet zone of 4 modules
    of white around it."""
    matrix = link_qr_matrix(url)
    module = width / len(matrix)
    quiet = 4 * module
    _white(c, x - quiet, y - quiet, width + 2 * quiet, width + 2 * quiet)
    _modules(c, matrix, x, y, module)


def _white(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    c.setFillColor(white)
    c.rect(x, y, w, h, stroke=0, fill=1)


def _modules(
    c: Canvas, matrix: tuple[tuple[bool, ...], ...], x: float, y: float, module: float
) -> None:
    """The dark modules as filled rectangles (vectors), one run of a row at a time, the
    symbol's bottom-left corner at (x, y)."""
    n = len(matrix)
    c.setFillColor(black)
    path = c.beginPath()
    for row, cells in enumerate(matrix):
        column = 0
        while column < n:
            if cells[column]:
                start = column
                while column < n and cells[column]:
                    column += 1
                path.rect(
                    x + start * module,
                    y + (n - row - 1) * module,
                    (column - start) * module,
                    module,
                )
            column += 1
    c.drawPath(path, stroke=0, fill=1)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if stringWidth(candidate, font, size) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def _fit_text(c: Canvas, text: str, x: float, top: float, width: float, height: float) -> None:
    """Rules text wrapped into a box, shrinking the type until it fits."""
    size = 8.0
    while size > 4.5:
        lines = wrap(text, "Sans", size, width)
        if len(lines) * size * 1.2 <= height:
            break
        size -= 0.25
    lines = wrap(text, "Sans", size, width)
    c.setFillColor(black)
    c.setFont("Sans", size)
    for i, line in enumerate(lines):
        y = top - (i + 1) * size * 1.2
        if y < top - height:
            break
        c.drawString(x, y, line)


def _fit_name(name: str, width: float) -> float:
    size = 10.0
    while size > 6 and stringWidth(name, "Sans-Bold", size) > width:
        size -= 0.25
    return size


def _frame_colour(card: ProxyCard) -> Color:
    return HexColor(card.colours[0]) if card.colours else HexColor("#777777")


def trim_box(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The trim box, as one stroked rectangle of exactly the card's size (tests measure it)."""
    c.setStrokeColor(TRIM_GREY)
    c.setLineWidth(0.25)
    c.rect(x, y, w, h, stroke=1, fill=0)


def draw_card(
    c: Canvas, card: ProxyCard, x: float, y: float, lay: Layout, images: dict[Path, ImageReader]
) -> None:
    w, h = (v * MM for v in lay.card)
    b = lay.bleed * MM
    # The frame colour runs into the bleed so a slightly-off cut shows no white edge.
    c.setFillColor(_frame_colour(card))
    c.rect(x - b, y - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
    if len(card.colours) > 1:
        c.setFillColor(HexColor(card.colours[1]))
        c.rect(x + w / 2, y - b, w / 2 + b, h + 2 * b, stroke=0, fill=1)
    inset = 2.5 * MM
    c.setFillColor(white)
    c.roundRect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, 1.5 * MM, stroke=0, fill=1)
    trim_box(c, x, y, w, h)

    left, right = x + inset + 1.5 * MM, x + w - inset - 1.5 * MM
    top = y + h - inset - 1.5 * MM
    size = _fit_name(card.name, right - left)
    c.setFillColor(black)
    c.setFont("Sans-Bold", size)
    c.drawString(left, top - size, card.name)
    top -= size + 2.5
    c.setFont("Sans", 6.5)
    c.drawString(left, top - 6.5, card.type_line[:80])
    top -= 9
    if card.art is not None:
        reader = images.setdefault(card.art, ImageReader(str(card.art)))
        art_h = 24 * MM
        c.drawImage(
            reader, left, top - art_h, right - left, art_h, preserveAspectRatio=True, anchor="c"
        )
        top -= art_h + 2
    if card.stats:
        c.setFont("Sans-Bold", 7)
        line = "  ".join(f"{label} {value}" for label, value in card.stats)
        for part in wrap(line, "Sans-Bold", 7, right - left):
            c.drawString(left, top - 7, part)
            top -= 8.5
        top -= 1.5
    if card.keywords:
        c.setFont("Sans-Oblique", 6.5)
        c.drawString(left, top - 6.5, ", ".join(card.keywords)[:90])
        top -= 9
    qr = 16 * MM
    bottom = y + inset + 1.5 * MM
    _fit_text(c, card.text, left, top, right - left, top - (bottom + qr + 2))
    draw_qr(c, card.short_url, right - qr, bottom, qr)
    c.setFont("Sans", 5.5)
    c.setFillColor(HexColor("#555555"))
    c.drawString(left, bottom + 6, card.set_line[:40])
    c.drawString(left, bottom, card.short_url.split("//")[-1][:40])
    if card.sample:
        c.setFillColor(HexColor("#B3541E"))
        c.setFont("Sans-Bold", 6.5)
        c.drawString(left, bottom + 13, "UNOFFICIAL SAMPLE")


def crop_marks(c: Canvas, lay: Layout) -> None:
    x0, y0, x1, y1 = (v * MM for v in lay.grid)
    off, length = CROP_OFFSET * MM, CROP_LENGTH * MM
    xs = sorted({round(x, 4) for cx, _ in lay.cells for x in (cx, cx + lay.card[0])})
    ys = sorted({round(y, 4) for _, cy in lay.cells for y in (cy, cy + lay.card[1])})
    b = lay.bleed * MM
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    for x in xs:
        c.line(x * MM, y1 + b + off, x * MM, y1 + b + off + length)
        c.line(x * MM, y0 - b - off, x * MM, y0 - b - off - length)
    for y in ys:
        c.line(x0 - b - off, y * MM, x0 - b - off - length, y * MM)
        c.line(x1 + b + off, y * MM, x1 + b + off + length, y * MM)
