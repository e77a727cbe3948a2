"""Print-ready proxy sheets: nine true-size cards a page, crop marks, QR codes back to the site.

Everything is drawn as vectors with reportlab: text in the embedded DejaVu fonts, QR codes as
filled modules from the `qrcode` matrix, so each proxy carries exactly one QR code. Uploaded art
and the game's card back are the only rasters, and reportlab embeds each distinct image once
however often it is drawn. The layout is computed (`layout`), so tests and callers can know
where every card sits.

`layout` holds the options and the geometry, `drawing` a card, `sheet` the whole PDF with its
backs, `calibration` the pages that check the printer.
"""

from decks.proxies.calibration import calibration_sheet
from decks.proxies.drawing import FONT_DIR, ProxyCard
from decks.proxies.drawing import qr_matrix as _qr_matrix
from decks.proxies.drawing import register_fonts as _register_fonts
from decks.proxies.layout import (
    COLUMNS,
    CROP_LENGTH,
    CROP_OFFSET,
    EDGE,
    MAX_BACK_OFFSET,
    MAX_BLEED,
    MAX_GAP,
    MAX_SHEET_CARDS,
    MM,
    OPTION_NAMES,
    PAPERS,
    QR_MOST_MODULES,
    QR_QUIET,
    QR_WIDTH,
    ROWS,
    SIZES,
    Footer,
    Layout,
    SheetOptions,
    back_offset,
    layout,
    parse_options,
)
from decks.proxies.sheet import (
    FIRST_PAGE_QR,
    PLAIN_BACK,
    Sheet,
    check_sheet_size,
    expand,
    lead_pages,
    pages_for,
    render_sheet,
)

__all__ = [
    "COLUMNS",
    "CROP_LENGTH",
    "CROP_OFFSET",
    "EDGE",
    "FIRST_PAGE_QR",
    "FONT_DIR",
    "MAX_BACK_OFFSET",
    "MAX_BLEED",
    "MAX_GAP",
    "MAX_SHEET_CARDS",
    "MM",
    "OPTION_NAMES",
    "PAPERS",
    "PLAIN_BACK",
    "QR_MOST_MODULES",
    "QR_QUIET",
    "QR_WIDTH",
    "ROWS",
    "SIZES",
    "Footer",
    "Layout",
    "ProxyCard",
    "Sheet",
    "SheetOptions",
    "_qr_matrix",
    "_register_fonts",
    "back_offset",
    "calibration_sheet",
    "check_sheet_size",
    "expand",
    "layout",
    "lead_pages",
    "pages_for",
    "parse_options",
    "render_sheet",
]
