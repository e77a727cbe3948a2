"""The first page of a deck's proxy sheet as a small PNG, to see the sheet's options at work.

Only the first page's cards (at most nine) are drawn, by the same code as the PDF
(decks.exports.printing, decks.proxies), and that one page is rasterised with pdfium at PREVIEW_DPI:
the work is bounded by a page, whatever the deck. Previews are kept per deck version,
catalogue version and options, the newest PREVIEW_KEEP of them per deck; only drawing one is
counted against the client's proxy sheet budget.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import pypdfium2 as pdfium

from cardsite.catalogue.versioning import catalogue_version
from decks.exports.images import cached_image
from decks.exports.printing import SheetOrder, order_cards, order_sheet
from decks.exports.sheet_pages import cut_to_sheet
from decks.models import Deck
from decks.proxies import SheetOptions, lead_pages, pages_for, render_sheet

PREVIEW_DPI = 60
PREVIEW_KEEP = 8
# Bump whenever the preview's drawing changes, so that every stored one is drawn again.
PREVIEW_FORMAT = 2


def first_page(order: SheetOrder) -> SheetOrder:
    """The order cut to the copies its first page holds."""
    return cut_to_sheet(order, 1)


def preview_png(
    *, deck: Deck, order: SheetOrder, before_drawing: Callable[[], None] = lambda: None
) -> bytes:
    """The first page as PNG bytes; `before_drawing` is called only when it must be drawn
    (and may refuse by raising)."""
    inputs = ":".join(
        [
            str(PREVIEW_FORMAT),
            str(deck.version),
            str(catalogue_version()),
            # Back offsets move only backs pages, never the fronts page shown here.
            json.dumps(
                {k: v for k, v in order["options"].items() if not k.startswith("back_offset")},
                sort_keys=True,
            ),
        ]
    )

    def draw() -> bytes:
        before_drawing()
        return _draw(order)

    return cached_image(
        share_key=deck.share_key, kind="proxies", inputs=inputs, draw=draw, keep=PREVIEW_KEEP
    )


def _draw(order: SheetOrder) -> bytes:
    pdf = render_sheet(order_sheet(first_page(order)), page_total=pages_for(order_cards(order)))
    document = pdfium.PdfDocument(pdf)
    try:
        # The first page of cards follows the calibration page (and, with backs, its blank
        # back); a deck without cards has nothing else, and shows the calibration page.
        lead = lead_pages(SheetOptions(**order["options"]))
        page = document[lead if len(document) > lead else 0]
        image = page.render(scale=PREVIEW_DPI / 72).to_pil()
    finally:
        document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
