"""One page of a deck's proxy sheet as a 300 dpi PNG, for print shops that take images.

Pages are numbered as in the PDF after its calibration page (and, with backs, that page's
blank back): without backs, page k is the k-th page of cards; with backs, page 2k-1 is the
k-th page of cards and page 2k its backs, pages 2k+1 and 2k+2 of the PDF.
Only that page's cards (at most nine) are drawn, by the PDF's own code (decks.exports.printing,
decks.proxies), with footers still counting the whole sheet's pages, and that one page is
rasterised with pdfium: the work of a request is one page, whatever the deck. Pages are kept
per deck version, catalogue version, card back, options and page number, the newest PAGE_KEEP
per deck; only drawing one is counted against the client's proxy sheet budget.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import pypdfium2 as pdfium

from cardsite.catalogue.faces.back import back_version
from cardsite.catalogue.versioning import catalogue_version
from decks.exports.images import cached_image
from decks.exports.printing import SheetOrder, order_cards, order_sheet
from decks.models import Deck
from decks.proxies import COLUMNS, PAPERS, ROWS, pages_for, render_sheet
from engines import get_engine
from engines.errors import InputError

PAGE_DPI = 300
# A 60-card deck with backs is 14 pages: all of them stay, so a print shop fetching the
# whole sheet twice draws it once. At about half a megabyte a page of cards
# (docs/pages/proxies.md), some 10 MB a deck at most.
PAGE_KEEP = 16
# The most digits `page` is read with: far past any sheet (MAX_SHEET_CARDS makes 134 pages
# with backs), and short enough that no number is ever converted at length.
PAGE_DIGITS = 6
# Bump whenever a page's drawing changes, so that every stored one is drawn again.
PAGE_FORMAT = 2
# Its own kind of deck picture: decks.exports.images keeps each kind's newest files apart.
KIND = "sheet-page"


def page_count(order: SheetOrder) -> int:
    """The pages of the sheet after its calibration page (and its blank back): pages of
    cards, and their backs."""
    sheets = pages_for(order_cards(order))
    return sheets * 2 if order["options"]["backs"] else sheets


def page_pixels(paper: str) -> tuple[int, int]:
    """A page's size in pixels at PAGE_DPI (A4: 2480 x 3508, Letter: 2550 x 3300)."""
    width, height = PAPERS[paper]
    return round(width / 25.4 * PAGE_DPI), round(height / 25.4 * PAGE_DPI)


def parse_page(raw: str | None, count: int) -> int:
    """`page` from the query string: ASCII digits, 1 to `count`. Raises InputError("page")."""
    if raw is None:
        raw = "1"
    if not (raw.isascii() and raw.isdigit()) or len(raw) > PAGE_DIGITS:
        raise InputError("page", f"must be a whole number from 1, got {raw[:20]!r}")
    page = int(raw)
    if count == 0:
        raise InputError("page", "this sheet has no cards, so no pages to draw")
    if not 1 <= page <= count:
        pages = f"{count} page{'s' if count != 1 else ''}"
        raise InputError("page", f"must be from 1 to {count}: this sheet has {pages}, got {page}")
    return page


def cut_to_sheet(order: SheetOrder, sheet: int) -> SheetOrder:
    """The order cut to the copies its `sheet`-th page of cards holds (counting from 1)."""
    per_page = COLUMNS * ROWS
    skip, room = (sheet - 1) * per_page, per_page
    entries: list[tuple[int, int]] = []
    for card, quantity in order["entries"]:
        if room <= 0:
            break
        taken = min(max(quantity - skip, 0), room)
        skip = max(skip - quantity, 0)
        if taken:
            entries.append((card, taken))
            room -= taken
    return {**order, "entries": entries}


def sheet_page_png(
    *,
    deck: Deck,
    order: SheetOrder,
    page: int,
    before_drawing: Callable[[], None] = lambda: None,
) -> bytes:
    """Page `page` (checked by parse_page) as PNG bytes; `before_drawing` is called only when
    it must be drawn (and may refuse by raising)."""
    backs = bool(order["options"]["backs"])
    inputs = ":".join(
        [
            str(PAGE_FORMAT),
            str(deck.version),
            str(catalogue_version()),
            # The game's back is drawn on backs pages: a new design draws them again.
            back_version(get_engine(deck.game.slug)) if backs else "",
            json.dumps(order["options"], sort_keys=True),
            str(page),
        ]
    )

    def draw() -> bytes:
        before_drawing()
        return draw_page(order, page)

    return cached_image(
        share_key=deck.share_key, kind=KIND, inputs=inputs, draw=draw, keep=PAGE_KEEP
    )


def draw_page(order: SheetOrder, page: int) -> bytes:
    """The page drawn afresh: its sheet alone as a PDF, that one page rasterised."""
    backs = bool(order["options"]["backs"])
    sheet, is_back = ((page + 1) // 2, page % 2 == 0) if backs else (page, False)
    pdf = render_sheet(
        order_sheet(cut_to_sheet(order, sheet)),
        page_total=pages_for(order_cards(order)),
        calibration=False,
        first_page=sheet,
    )
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[1 if is_back else 0].render(scale=PAGE_DPI / 72).to_pil()
    finally:
        document.close()
    # pdfium rounds a page's size in pixels up, adding a column (A4) or a row (Letter, whose
    # 11 in come out a hair over 3300 px) of the paper's edge; cut at the nearest pixel
    # instead, and keep the scale exactly 300 dpi so the cards print at true size.
    image = image.crop((0, 0, *page_pixels(order["options"]["paper"])))
    buffer = io.BytesIO()
    # The resolution in the file, so that it prints at true size without being told.
    image.save(buffer, format="PNG", dpi=(PAGE_DPI, PAGE_DPI))
    return buffer.getvalue()
