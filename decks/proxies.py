"""Print-ready proxy sheets: nine true-size cards a page, crop marks, QR codes back to the site.

Everything is drawn as vectors with reportlab: text in the embedded DejaVu fonts, QR codes as
filled modules from the `qrcode` matrix, so each proxy carries exactly one QR code. Uploaded art
is the only raster, and reportlab embeds each distinct image once however often it is drawn.
The layout is computed (`layout`), so tests and callers can know where every card sits.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import qrcode
from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from engines.errors import InputError

MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
SIZES = {"63x88": (63.0, 88.0), "2.5x3.5": (63.5, 88.9)}
COLUMNS = ROWS = 3
CROP_OFFSET, CROP_LENGTH = 1.0, 3.0  # mm: marks start this far outside the grid
MAX_BLEED, MAX_GAP = 3.0, 10.0
MAX_BACK_OFFSET = 5.0
# Cards in one sheet, counting every copy: 67 pages, a few seconds of drawing. A playset of
# the largest deck any game allows is far smaller; more is a 400 before anything is drawn.
MAX_SHEET_CARDS = 600
FONT_DIR = Path(__file__).resolve().parent.parent / "cardsite" / "static" / "fonts"
_FONTS = {
    "Sans": "DejaVuSans.ttf",
    "Sans-Bold": "DejaVuSans-Bold.ttf",
    "Sans-Oblique": "DejaVuSans-Oblique.ttf",
}


@dataclass(frozen=True)
class SheetOptions:
    paper: str = "a4"
    size: str = "63x88"
    bleed: float = 0.0
    gap: float = 0.0
    backs: bool = False
    # The printer's back offset in mm (MAX_BACK_OFFSET either way), as read on the
    # calibration sheet: where its backs land, seen from the front, right and up positive.
    # Backs pages are shifted to cancel it: in the backs page's own coordinates (the long
    # edge flip mirrors x) by (+back_offset_x, -back_offset_y).
    back_offset_x: float = 0.0
    back_offset_y: float = 0.0


def _number(params: Mapping[str, str], name: str, top: float) -> float:
    raw = params.get(name, "0")
    try:
        value = float(raw)
    except ValueError:
        raise InputError(name, f"must be a number of millimetres, got {raw!r}") from None
    if not 0 <= value <= top:
        raise InputError(name, f"must be between 0 and {top:g} mm, got {raw}")
    return value


def parse_options(params: Mapping[str, str]) -> SheetOptions:
    """Sheet options from query parameters; a bad one raises InputError naming it."""
    known = {"paper", "size", "bleed", "gap", "backs"}
    for name in params:
        if name not in known:
            raise InputError(name, f"unknown option; options are {', '.join(sorted(known))}")
    paper = params.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise InputError("paper", f"must be a4 or letter, got {paper!r}")
    size = params.get("size", "63x88").lower()
    if size not in SIZES:
        raise InputError("size", f"must be 63x88 or 2.5x3.5, got {size!r}")
    backs = params.get("backs", "0")
    if backs not in ("0", "1", "true", "false"):
        raise InputError("backs", f"must be 1 or 0, got {backs!r}")
    options = SheetOptions(
        paper,
        size,
        _number(params, "bleed", MAX_BLEED),
        _number(params, "gap", MAX_GAP),
        backs in ("1", "true"),
    )
    layout(options)  # refuses a gap the page cannot hold
    return options


@dataclass(frozen=True)
class Layout:
    """Where things go on a page, in millimetres from the bottom-left corner."""

    page: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    gap: float
    cells: tuple[tuple[float, float], ...]  # bottom-left of each card's trim box, row by row
    grid: tuple[float, float, float, float]  # x0, y0, x1, y1 of the trim boxes
    footer: tuple[float, float, float, str]  # x, y, QR size, "bottom" or "side"

    def mirrored(self, index: int) -> tuple[float, float]:
        """The cell a card's back goes in for long-edge duplex: columns swap left to right."""
        row, column = divmod(index, COLUMNS)
        return self.cells[row * COLUMNS + (COLUMNS - 1 - column)]


def layout(options: SheetOptions) -> Layout:
    """Place the 3 x 3 grid, its bleed, crop marks and footer on the page.

    Bleed is given only where it fits: at most half the gap (or a card's bleed would cover
    its neighbour) and never pushing crop marks off the paper. The footer (deck QR code and
    title) goes under the grid, or beside it when the page has no room below (2.5 x 3.5 in
    cards on Letter leave 12.7 mm of height in all).
    """
    page_w, page_h = PAPERS[options.paper]
    card_w, card_h = SIZES[options.size]
    crop = CROP_OFFSET + CROP_LENGTH
    gap = options.gap
    grid_w = COLUMNS * card_w + (COLUMNS - 1) * gap
    grid_h = ROWS * card_h + (ROWS - 1) * gap
    room_w = (page_w - grid_w) / 2 - crop
    room_h = (page_h - grid_h) / 2 - crop
    if room_w < 0 or room_h < 0:
        raise InputError(
            "gap",
            f"{gap:g} mm between cards leaves no room on {options.paper} for {options.size} cards",
        )
    bleed = max(0.0, min(options.bleed, gap / 2, room_w, room_h))
    below = page_h - grid_h - 2 * (crop + bleed) - 1.5  # height left for a footer under it
    if below >= 8:
        qr = min(14.0, below)
        slack = below - qr
        y0 = 1.5 + qr + crop + bleed + slack / 2
        footer = (1.0 + crop, 1.0, qr, "bottom")
    else:
        qr = max(6.0, min(12.0, room_w - bleed - 1))
        y0 = (page_h - grid_h) / 2
        footer = (page_w - qr - 0.5, y0, qr, "side")
    x0 = (page_w - grid_w) / 2
    cells = tuple(
        (x0 + column * (card_w + gap), y0 + (ROWS - 1 - row) * (card_h + gap))
        for row in range(ROWS)
        for column in range(COLUMNS)
    )
    return Layout(
        (page_w, page_h),
        (card_w, card_h),
        bleed,
        gap,
        cells,
        (x0, y0, x0 + grid_w, y0 + grid_h),
        footer,
    )


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


@dataclass
class Sheet:
    title: str
    game: str
    deck_url: str
    cards: Sequence[ProxyCard]
    options: SheetOptions = field(default_factory=SheetOptions)


def _register_fonts() -> None:
    for name, file in _FONTS.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))


@lru_cache(maxsize=4096)
def _qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    # A fixed mask: the spec allows any of the eight, and trying them all (qrcode's default)
    # costs more than drawing the whole page. Tests decode every code with a real reader.
    code = qrcode.QRCode(
        border=0, error_correction=qrcode.constants.ERROR_CORRECT_M, mask_pattern=2
    )
    code.add_data(url)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def _qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """A QR code as filled rectangles (vectors), one run of dark modules at a time."""
    matrix = _qr_matrix(url)
    n = len(matrix)
    quiet = 2  # modules of white around it, inside `size`
    module = size / (n + 2 * quiet)
    c.setFillColor(white)
    c.rect(x, y, size, size, stroke=0, fill=1)
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
                    x + (quiet + start) * module,
                    y + size - (quiet + row + 1) * module,
                    (column - start) * module,
                    module,
                )
            column += 1
    c.drawPath(path, stroke=0, fill=1)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
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
        lines = _wrap(text, "Sans", size, width)
        if len(lines) * size * 1.2 <= height:
            break
        size -= 0.25
    lines = _wrap(text, "Sans", size, width)
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


def _draw_card(
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
    # The trim box, as one rectangle of exactly the card's size (tests measure it).
    c.setStrokeColor(HexColor("#BBBBBB"))
    c.setLineWidth(0.25)
    c.rect(x, y, w, h, stroke=1, fill=0)

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
        for part in _wrap(line, "Sans-Bold", 7, right - left):
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
    _qr(c, card.short_url, right - qr, bottom, qr)
    c.setFont("Sans", 5.5)
    c.setFillColor(HexColor("#555555"))
    c.drawString(left, bottom + 6, card.set_line[:40])
    c.drawString(left, bottom, card.short_url.split("//")[-1][:40])
    if card.sample:
        c.setFillColor(HexColor("#B3541E"))
        c.setFont("Sans-Bold", 6.5)
        c.drawString(left, bottom + 13, "UNOFFICIAL SAMPLE")


def _crop_marks(c: Canvas, lay: Layout) -> None:
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


def _footer(c: Canvas, sheet: Sheet, lay: Layout, page: int, pages: int) -> None:
    fx, fy, qr, where = lay.footer
    _qr(c, sheet.deck_url, fx * MM, fy * MM, qr * MM)
    c.setFillColor(black)
    c.setFont("Sans", 7)
    text = f"{sheet.title} · {sheet.game} · page {page} of {pages} · print at 100%"
    if where == "bottom":
        c.drawString((fx + qr + 2) * MM, (fy + qr / 2 - 1) * MM, text)
    else:
        c.saveState()
        c.translate((fx + qr / 2) * MM, (fy + qr + 3) * MM)
        c.rotate(90)
        c.drawString(0, -3, text)
        c.restoreState()


def _backs(c: Canvas, sheet: Sheet, lay: Layout, count: int) -> None:
    w, h = (v * MM for v in lay.card)
    b = lay.bleed * MM
    for index in range(count):
        x, y = (v * MM for v in lay.mirrored(index))
        c.setFillColor(HexColor("#1D2330"))
        c.rect(x - b, y - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        c.setStrokeColor(HexColor("#BBBBBB"))
        c.setLineWidth(0.25)
        c.rect(x, y, w, h, stroke=1, fill=0)
        c.setFillColor(white)
        c.setFont("Sans-Bold", 9)
        c.drawCentredString(x + w / 2, y + h / 2, sheet.game[:34])
        c.setFont("Sans", 6)
        c.drawCentredString(x + w / 2, y + h / 2 - 10, "proxy · cardsite")
    _crop_marks(c, lay)


def _calibration(c: Canvas, lay: Layout) -> None:
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
    c.setLineWidth(0.5)
    c.line(x0, y, x0 + 50 * MM, y)
    for mm in range(51):
        tick = 6 if mm % 10 == 0 else 4 if mm % 5 == 0 else 2.5
        c.line(x0 + mm * MM, y, x0 + mm * MM, y + tick * MM)
        if mm % 10 == 0:
            c.setFont("Sans", 7)
            c.drawCentredString(x0 + mm * MM, y - 4 * MM, str(mm))
    c.drawString(x0 + 52 * MM, y, "50 mm")


def check_sheet_size(cards: int) -> None:
    """Raise InputError("cards", ...) for a sheet of more cards than MAX_SHEET_CARDS."""
    if cards > MAX_SHEET_CARDS:
        raise InputError(
            "cards",
            f"a proxy sheet may hold at most {MAX_SHEET_CARDS} cards; this one has {cards:,}",
        )


def pages_for(cards: int) -> int:
    """How many pages of cards render_sheet draws for this many (not counting calibration
    and backs)."""
    return -(-cards // (COLUMNS * ROWS))


def render_sheet(
    sheet: Sheet,
    progress: Callable[[int], None] | None = None,
    *,
    page_total: int | None = None,
    calibration: bool = True,
    first_page: int = 1,
) -> bytes:
    """The PDF: a calibration page, then card pages (each followed by its backs if asked).
    `progress`, if given, hears of each page of cards as it is drawn. `page_total` is the
    number of pages the footers count, when `sheet` is only part of a longer one, and
    `first_page` the number its first page of cards has there. Without `calibration`, the
    PDF starts with the cards (one page of a sheet cut from it, drawn on its own)."""
    _register_fonts()
    lay = layout(sheet.options)
    buffer = io.BytesIO()
    # initialFontName: otherwise every page names Helvetica, a font that is not embedded.
    c = Canvas(
        buffer,
        pagesize=(lay.page[0] * MM, lay.page[1] * MM),
        pageCompression=1,
        initialFontName="Sans",
        initialFontSize=8,
    )
    c.setTitle(f"{sheet.title}: proxies")
    c.setAuthor("cardsite")
    c.setSubject(f"{sheet.game}; bleed {lay.bleed:.2f} mm; gap {lay.gap:g} mm")
    if calibration:
        _calibration(c, lay)
        c.showPage()
    per_page = COLUMNS * ROWS
    chunks = [sheet.cards[i : i + per_page] for i in range(0, len(sheet.cards), per_page)]
    images: dict[Path, ImageReader] = {}
    for number, chunk in enumerate(chunks, start=first_page):
        for card, (cx, cy) in zip(chunk, lay.cells, strict=False):
            _draw_card(c, card, cx * MM, cy * MM, lay, images)
        _crop_marks(c, lay)
        _footer(c, sheet, lay, number, page_total or first_page - 1 + len(chunks))
        c.showPage()
        if sheet.options.backs:
            _backs(c, sheet, lay, len(chunk))
            c.showPage()
        if progress is not None:
            progress(1)
    c.save()
    return buffer.getvalue()


def expand(entries: Iterable[tuple[ProxyCard, int]]) -> list[ProxyCard]:
    """One proxy per copy."""
    return [card for card, quantity in entries for _ in range(quantity)]
