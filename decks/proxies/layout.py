"""The sheet's options, read from a query string, and where everything goes on its pages."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

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
OPTION_NAMES = ("paper", "size", "bleed", "gap", "backs", "back_offset_x", "back_offset_y")
# ASCII only: float() also reads "٣" or "1_0", and "nan", "inf" and "1e309" (infinite),
# none of which anyone means as millimetres.
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?", re.ASCII)


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


def millimetres(raw: str, name: str, low: float, high: float) -> float:
    """A finite number of millimetres from low to high; anything else raises InputError
    naming `name`."""
    text = raw.strip()
    value = float(text) if _DECIMAL.fullmatch(text) else math.nan
    if not math.isfinite(value):
        raise InputError(name, f"must be a number of millimetres, got {raw[:20]!r}")
    if not low <= value <= high:
        raise InputError(name, f"must be between {low:g} and {high:g} mm, got {raw[:20]}")
    return value


def back_offset(raw: str, name: str) -> float:
    """A back offset option: -MAX_BACK_OFFSET to MAX_BACK_OFFSET mm, to 0.1 mm."""
    value = millimetres(raw, name, -MAX_BACK_OFFSET, MAX_BACK_OFFSET)
    # +0.0 turns a rounded -0.0 into 0, which reads better everywhere it is shown.
    return round(value, 1) + 0.0


def parse_options(
    params: Mapping[str, str], *, back_offsets: tuple[float, float] = (0.0, 0.0)
) -> SheetOptions:
    """Sheet options from query parameters; a bad one raises InputError naming it.
    `back_offsets` (x, y) are used where the parameters do not give them: a user's saved
    ones (decks.exports.printing.options_for)."""
    for name in params:
        if name not in OPTION_NAMES:
            raise InputError(name, f"unknown option; options are {', '.join(OPTION_NAMES)}")
    paper = params.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise InputError("paper", f"must be a4 or letter, got {paper[:20]!r}")
    size = params.get("size", "63x88").lower()
    if size not in SIZES:
        raise InputError("size", f"must be 63x88 or 2.5x3.5, got {size[:20]!r}")
    backs = params.get("backs", "0")
    if backs not in ("0", "1", "true", "false"):
        raise InputError("backs", f"must be 1 or 0, got {backs[:20]!r}")
    saved_x, saved_y = back_offsets
    options = SheetOptions(
        paper,
        size,
        millimetres(params.get("bleed", "0"), "bleed", 0, MAX_BLEED),
        millimetres(params.get("gap", "0"), "gap", 0, MAX_GAP),
        backs in ("1", "true"),
        back_offset(params["back_offset_x"], "back_offset_x")
        if "back_offset_x" in params
        else saved_x,
        back_offset(params["back_offset_y"], "back_offset_y")
        if "back_offset_y" in params
        else saved_y,
    )
    layout(options)  # refuses a gap the page cannot hold
    return options


# Every QR code on a sheet has its symbol (the modules, not counting the quiet zone) at least
# 12 mm wide and at least EDGE from every paper edge, outside most printers' unprintable
# margin. The deck's code on a page of cards is QR_WIDTH wide: its URL of up to 53 bytes
# (drawing.link_qr_matrix: 29 modules) then has modules of 0.48 mm, 2.9 pixels at 150 dpi,
# which zbar reads on a whole page; at 12 mm (2.4 pixels) it missed some, and up to 78 bytes
# (QR_MOST_MODULES, 2.5 pixels) it still reads them. A longer URL (SITE_URL over 54
# characters) is left to the first page's larger code. Its quiet zone of 4 modules (1.93 mm
# at most) lies within QR_QUIET, which the layout keeps clear of ink all round, the width of
# the trim boxes' lines included.
QR_WIDTH, QR_QUIET, EDGE = 14.0, 2.1, 5.0
QR_MOST_MODULES = 33
# The footer's text: its size in points, and the height it takes in mm, from 1 mm under the
# baseline (DejaVu's descenders) to its ascenders.
FOOTER_TEXT_SIZE, FOOTER_TEXT_BAND = 7.0, 3.5


@dataclass(frozen=True)
class Footer:
    """The deck's footer on a page of cards, in millimetres from the page's bottom-left."""

    # The bottom-left corner of the deck's QR symbol (QR_WIDTH wide); None where the page has
    # no room for one EDGE from the paper's edges: the sheet's first page carries it instead.
    qr: tuple[float, float] | None
    text: tuple[float, float]  # where the text's baseline starts
    rotated: bool  # the text runs up the right margin, beside the bottom row
    text_room: float  # how far the text may run


@dataclass(frozen=True)
class Layout:
    """Where things go on a page, in millimetres from the bottom-left corner."""

    page: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    gap: float
    cells: tuple[tuple[float, float], ...]  # bottom-left of each card's trim box, row by row
    grid: tuple[float, float, float, float]  # x0, y0, x1, y1 of the trim boxes
    footer: Footer

    def mirrored(self, index: int) -> tuple[float, float]:
        """The cell a card's back goes in for long-edge duplex: columns swap left to right."""
        row, column = divmod(index, COLUMNS)
        return self.cells[row * COLUMNS + (COLUMNS - 1 - column)]


def layout(options: SheetOptions) -> Layout:
    """Place the 3 x 3 grid, its bleed, crop marks and footer on the page.

    Bleed is given only where it fits: at most half the gap (or a card's bleed would cover
    its neighbour) and never pushing crop marks off the paper. The grid is centred, unless
    moving it up makes room under it for the deck's QR code (QR_WIDTH, EDGE from the paper's
    edges, QR_QUIET clear of the bleed) while its top crop marks stay EDGE from the top edge.
    Otherwise no code fits on the page, however it is moved: it is never shrunk, and the
    sheet's first page carries it (A4 with gap plus bleed over 1.45 mm for 63 x 88 mm cards,
    over 0.1 mm for 2.5 x 3.5 in; every Letter layout, which leaves 15.4 mm of height at most).
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
    x0, centred = (page_w - grid_w) / 2, (page_h - grid_h) / 2
    under_qr = EDGE + QR_WIDTH + QR_QUIET + bleed  # the lowest the grid may sit over a code
    highest = page_h - grid_h - bleed - crop - EDGE  # the highest, crop marks EDGE from the top
    y0 = centred
    if centred >= under_qr or under_qr <= highest:
        y0 = max(centred, under_qr)
        qr_x = x0 + QR_QUIET + 0.5  # under the first column, clear of its crop mark
        footer = Footer(
            (qr_x, EDGE),
            (qr_x + QR_WIDTH + QR_QUIET + 1, EDGE + QR_WIDTH / 2 - 1),
            False,
            page_w - EDGE - (qr_x + QR_WIDTH + QR_QUIET + 1),
        )
    elif y0 - bleed - crop - 0.5 >= EDGE + FOOTER_TEXT_BAND:
        # The text alone fits under the crop marks, across the grid's width.
        left = max(x0, EDGE)
        footer = Footer(None, (left, EDGE + 1), False, min(x0 + grid_w, page_w - EDGE) - left)
    else:
        # Up the right margin beside the bottom row, clear of the crop marks between rows,
        # and centred across the margin (its ascenders lie left of the rotated baseline).
        margin = (x0 + grid_w + bleed + page_w) / 2
        footer = Footer(None, (margin + 1, y0 + 1), True, card_h - 2)
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
