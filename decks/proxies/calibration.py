"""Pages that check the printer: the 50 mm ruler that opens every sheet, and the duplex
calibration sheet that reads where the printer puts a page's back.

The calibration sheet is two pages for long-edge duplex, like the proxies' backs. Its front
has a cross at the page's centre with millimetre scales through it, numbered as a normal
ruler (right and up positive). Its back has the same cross and ticks in red, unnumbered. The
marks are symmetric about the centre, and a long-edge flip mirrors x about the centre line,
so a perfect printer lands the back's marks exactly on the front's; held to the light, the
red cross's centre reads the printer's back offset on the front's scales, the very numbers
SheetOptions.back_offset_x and back_offset_y take.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.colors import Color, HexColor, black
from reportlab.pdfgen.canvas import Canvas

from decks.proxies.drawing import register_fonts, wrap
from decks.proxies.layout import MM, PAPERS, Layout, SheetOptions

SCALE_MM = 15  # each scale runs from -SCALE_MM to +SCALE_MM
CROSS_MM = 22  # half the length of each arm of the cross
BACK_RED = HexColor("#D0202A")
RULER_MM = 50


def ruler(c: Canvas, x0: float, y: float) -> None:
    """A 50 mm ruler from (x0, y), in points, with its length written beside it."""
    c.setStrokeColor(black)
    c.setFillColor(black)
    c.setLineWidth(0.5)
    c.line(x0, y, x0 + RULER_MM * MM, y)
    for mm in range(RULER_MM + 1):
        tick = 6 if mm % 10 == 0 else 4 if mm % 5 == 0 else 2.5
        c.line(x0 + mm * MM, y, x0 + mm * MM, y + tick * MM)
        if mm % 10 == 0:
            c.setFont("Sans", 7)
            c.drawCentredString(x0 + mm * MM, y - 4 * MM, str(mm))
    c.setFont("Sans", 9)
    c.drawString(x0 + (RULER_MM + 2) * MM, y, f"{RULER_MM} mm")


def _signed(value: float) -> str:
    return f"{value:+.1f}".replace("-", "\N{MINUS SIGN}")


def calibration_page(c: Canvas, lay: Layout, options: SheetOptions, sheet_url: str) -> None:
    """The first page of every proxy sheet: print at 100%, and with backs, what they are
    shifted by and how the pages pair up on paper."""
    x0, y = 30 * MM, lay.page[1] * MM / 2
    c.setFillColor(black)
    c.setFont("Sans-Bold", 16)
    c.drawString(x0, y + 40 * MM, "Print at 100% / actual size")
    c.setFont("Sans", 9)
    c.drawString(
        x0,
        y + 32 * MM,
        "Turn off 'fit to page' and 'scale'. This ruler must measure exactly 50 mm.",
    )
    ruler(c, x0, y)
    if not options.backs:
        return
    x, y_offset = options.back_offset_x, options.back_offset_y
    if x or y_offset:
        said = (
            f"Backs are shifted to cancel a printer back offset of x {_signed(x)} mm, "
            f"y {_signed(y_offset)} mm."
        )
    else:
        said = "Backs are not shifted (back offset 0 mm across, 0 mm up)."
    c.setFont("Sans", 9)
    c.drawString(x0, y - 16 * MM, said)
    c.drawString(
        x0, y - 21 * MM, "Print double-sided, flipping on the long edge. This page's back is blank,"
    )
    c.drawString(
        x0, y - 26 * MM, "so that every later sheet holds a page of cards with their backs behind."
    )
    if sheet_url:
        c.drawString(x0, y - 31 * MM, f"Measure your printer's back offset: {sheet_url}")


def _cross(c: Canvas, cx: float, cy: float, colour: Color) -> None:
    """The cross and its 1 mm ticks, centred on (cx, cy) in points. Every mark is symmetric
    about the centre and each tick is centred on its axis, so the mirror image through a
    long-edge flip is the same drawing."""
    c.setStrokeColor(colour)
    c.setLineWidth(0.3)
    arm = CROSS_MM * MM
    c.line(cx - arm, cy, cx + arm, cy)
    c.line(cx, cy - arm, cx, cy + arm)
    c.setLineWidth(0.15)
    for mm in range(-SCALE_MM, SCALE_MM + 1):
        if mm == 0:
            continue
        half = (2.0 if mm % 5 == 0 else 1.0) * MM
        c.line(cx + mm * MM, cy - half, cx + mm * MM, cy + half)
        c.line(cx - half, cy + mm * MM, cx + half, cy + mm * MM)
    c.circle(cx, cy, 0.5 * MM, stroke=1, fill=0)


def _numbers(c: Canvas, cx: float, cy: float) -> None:
    """Every fifth tick numbered, as a normal ruler: x below its axis, y right of its axis,
    placed so that no number touches a tick or another number."""
    c.setFillColor(black)
    c.setFont("Sans", 5.5)
    for mm in range(-SCALE_MM, SCALE_MM + 1, 5):
        if mm == 0:
            continue
        label = f"{mm:+d}".replace("-", "\N{MINUS SIGN}")
        c.drawCentredString(cx + mm * MM, cy - 3.8 * MM, label)
        c.drawString(cx + 2.6 * MM, cy + (mm - 0.7) * MM, label)
    c.setFont("Sans-Bold", 7)
    c.drawString(cx + (CROSS_MM + 1.5) * MM, cy - 1 * MM, "x: right +")
    c.drawCentredString(cx, cy + (CROSS_MM + 1.5) * MM, "y: up +")


def _paragraphs(c: Canvas, lines: list[str], x: float, top: float, width: float) -> float:
    """Numbered steps wrapped to `width` from `top` down; where the text ends."""
    c.setFillColor(black)
    for number, line in enumerate(lines, start=1):
        c.setFont("Sans-Bold", 9.5)
        c.drawString(x, top, f"{number}.")
        c.setFont("Sans", 9.5)
        for part in wrap(line, "Sans", 9.5, width - 6 * MM):
            c.drawString(x + 6 * MM, top, part)
            top -= 12.5
        top -= 3
    return top


def _front(c: Canvas, page: tuple[float, float], printing_url: str) -> None:
    width, height = page[0] * MM, page[1] * MM
    cx, cy = width / 2, height / 2
    left = 22 * MM
    c.setFillColor(black)
    c.setFont("Sans-Bold", 16)
    c.drawString(left, height - 24 * MM, "Duplex calibration: where do your printer's backs land?")
    c.setFont("Sans", 9)
    c.drawString(
        left,
        height - 30 * MM,
        "Front side. This sheet never applies any saved offset: it shows the printer as it is.",
    )
    save = f", or save them once at {printing_url}" if printing_url else ""
    steps = [
        "Print both pages double-sided, flipping on the long edge, at 100% / actual size "
        "(turn off 'fit to page'). The ruler at the bottom must measure exactly 50 mm.",
        "Hold the sheet up to the light with this side facing you. The red cross is on the "
        "back of the page.",
        "Read where the red cross's centre falls on the black scales: x across (right +, "
        "left \N{MINUS SIGN}) and y up and down (up +, down \N{MINUS SIGN}), in millimetres. "
        "Example: 1.5 mm right of the black centre and 2 mm below it is x = 1.5, "
        "y = \N{MINUS SIGN}2.",
        f"Type those two numbers as back_offset_x and back_offset_y in the proxy form{save}. "
        "Every backs page is then shifted to cancel them.",
        "Offsets from \N{MINUS SIGN}5 to +5 mm can be cancelled. If the red text on the back "
        "reads at the top, the printer flipped on the short edge: choose long-edge binding.",
    ]
    _paragraphs(c, steps, left, height - 42 * MM, width - 2 * left)
    _cross(c, cx, cy, black)
    _numbers(c, cx, cy)
    ruler(c, left, 40 * MM)
    c.setFont("Sans", 7)
    c.setFillColor(HexColor("#555555"))
    c.drawString(left, 15 * MM, "cardsite proxies · duplex calibration sheet · front")


def _back(c: Canvas, page: tuple[float, float]) -> None:
    width, height = page[0] * MM, page[1] * MM
    _cross(c, width / 2, height / 2, BACK_RED)
    c.setFillColor(BACK_RED)
    c.setFont("Sans", 8)
    c.drawCentredString(
        width / 2,
        15 * MM,
        "Back of the duplex calibration sheet: read this red cross through the front.",
    )


# Drawn sheets by paper and link: the same for everyone, so each is drawn once per process.
_DRAWN: dict[tuple[str, str], bytes] = {}
_KEEP = 8


def calibration_sheet(
    paper: str, printing_url: str = "", *, before_drawing: Callable[[], None] = lambda: None
) -> bytes:
    """The two-page duplex calibration sheet for `paper` (a key of PAPERS), as PDF bytes.
    The same for everyone, so it is drawn once per paper and kept; `before_drawing` is
    called only when it must be drawn (and may refuse by raising)."""
    key = (paper, printing_url)
    drawn = _DRAWN.get(key)
    if drawn is None:
        before_drawing()
        drawn = _draw_sheet(paper, printing_url)
        if len(_DRAWN) < _KEEP:
            _DRAWN[key] = drawn
    return drawn


def _draw_sheet(paper: str, printing_url: str) -> bytes:
    register_fonts()
    page = PAPERS[paper]
    buffer = io.BytesIO()
    c = Canvas(
        buffer,
        pagesize=(page[0] * MM, page[1] * MM),
        pageCompression=1,
        initialFontName="Sans",
        initialFontSize=8,
    )
    c.setTitle("Duplex calibration sheet")
    c.setAuthor("cardsite")
    c.setSubject(f"{paper}; print double-sided, flip on the long edge")
    _front(c, page, printing_url)
    c.showPage()
    _back(c, page)
    c.showPage()
    c.save()
    return buffer.getvalue()
