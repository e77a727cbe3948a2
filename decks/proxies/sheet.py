"""The whole sheet: a calibration page, then pages of nine cards, each followed by its backs.

With backs, the sheet is printed double-sided, so every page of cards must fall on the front
of a sheet of paper with its backs behind it: the calibration page gets a sheet of its own,
its back left blank, and the PDF has an even number of pages, fronts on the odd ones."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from decks.proxies.calibration import calibration_page
from decks.proxies.drawing import (
    ProxyCard,
    crop_marks,
    draw_card,
    draw_qr_symbol,
    link_qr_matrix,
    register_fonts,
    trim_box,
)
from decks.proxies.layout import (
    COLUMNS,
    FOOTER_TEXT_SIZE,
    MAX_SHEET_CARDS,
    MM,
    QR_MOST_MODULES,
    QR_WIDTH,
    ROWS,
    Layout,
    SheetOptions,
    layout,
)
from engines.errors import InputError

# The back drawn when a sheet has no back image (a game no engine knows any more).
PLAIN_BACK = "#1D2330"
# The deck's QR code on the calibration page, where there is room for a larger one.
FIRST_PAGE_QR = 20.0


@dataclass
class Sheet:
    title: str
    game: str
    deck_url: str
    cards: Sequence[ProxyCard]
    options: SheetOptions = field(default_factory=SheetOptions)
    # The game's card back, drawn at trim size in each backs cell, and its field colour,
    # which fills the bleed around it so a slightly-off cut shows no white edge.
    back_image: Path | None = None
    back_colour: str = PLAIN_BACK
    # Where the duplex calibration sheet is, named on the sheet's first page.
    calibration_url: str = ""


def _footer(c: Canvas, sheet: Sheet, lay: Layout, page: int, pages: int) -> None:
    footer = lay.footer
    # A URL too long for the code's width to read at 150 dpi is on the first page only.
    if footer.qr is not None and len(link_qr_matrix(sheet.deck_url)) <= QR_MOST_MODULES:
        draw_qr_symbol(c, sheet.deck_url, footer.qr[0] * MM, footer.qr[1] * MM, QR_WIDTH * MM)
    c.setFillColor(black)
    c.setFont("Sans", FOOTER_TEXT_SIZE)
    suffix = f" · {sheet.game} · page {page} of {pages} · print at 100%"
    text = fitted(sheet.title, suffix, footer.text_room * MM)
    x, y = (v * MM for v in footer.text)
    if footer.rotated:
        c.saveState()
        c.translate(x, y)
        c.rotate(90)
        c.drawString(0, 0, text)
        c.restoreState()
    else:
        c.drawString(x, y, text)


def fitted(
    title: str, suffix: str, room: float, font: str = "Sans", size: float = FOOTER_TEXT_SIZE
) -> str:
    """`title` + `suffix` in `font` at `size`, the title cut short (with an ellipsis) to keep
    it within `room` points; the suffix too, from its end, if even that is too long."""
    if stringWidth(title + suffix, font, size) <= room:
        return title + suffix
    while title and stringWidth(title + "…" + suffix, font, size) > room:
        title = title[:-1]
    text = (title.rstrip() + "…" if title else "") + suffix
    while text and stringWidth(text, font, size) > room:
        text = text[:-1]
    return text


def _first_page_link(c: Canvas, sheet: Sheet, lay: Layout) -> None:
    """The deck's QR code and link on the calibration page, whatever the pages of cards had
    room for: some layouts leave none for a code that scans (layout.Footer)."""
    x, y = 30 * MM, lay.page[1] * MM / 2 - 75 * MM
    size = FIRST_PAGE_QR * MM
    draw_qr_symbol(c, sheet.deck_url, x, y, size)
    c.setFillColor(black)
    left, room = x + size + 6 * MM, lay.page[0] * MM - x - size - 6 * MM - 20 * MM
    c.setFont("Sans-Bold", 10)
    c.drawString(left, y + size - 5 * MM, fitted(sheet.title, "", room, "Sans-Bold", 10))
    c.setFont("Sans", 9)
    c.drawString(left, y + size - 10 * MM, fitted(sheet.game, "", room, "Sans", 9))
    c.drawString(left, y + size - 15 * MM, fitted("Online: ", sheet.deck_url, room, "Sans", 9))


def _ruler_back(c: Canvas, lay: Layout) -> None:
    """The blank back of the calibration page's sheet of paper, saying why it is blank."""
    c.setFillColor(HexColor("#777777"))
    c.setFont("Sans", 8)
    c.drawCentredString(
        lay.page[0] * MM / 2,
        lay.page[1] * MM / 2,
        "This side is left blank: each page of cards prints with its backs on one sheet.",
    )


def _backs(c: Canvas, sheet: Sheet, lay: Layout, count: int) -> None:
    """The backs of a page's cards, each in its mirrored cell. The whole page moves by the
    printer's back offset, (+x, -y) in this page's coordinates: seen from the front through
    a long-edge flip, x runs the other way and y the same, so this cancels backs that the
    printer puts x mm right and y mm up of where they belong."""
    w, h = (v * MM for v in lay.card)
    b = lay.bleed * MM
    c.saveState()
    c.translate(sheet.options.back_offset_x * MM, -sheet.options.back_offset_y * MM)
    for index in range(count):
        x, y = (v * MM for v in lay.mirrored(index))
        c.setFillColor(HexColor(sheet.back_colour))
        c.rect(x - b, y - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        if sheet.back_image is not None:
            # By file name: reportlab then knows the image by its name (the file's is its
            # content's hash) rather than hashing 2 MB of pixels for every card.
            c.drawImage(str(sheet.back_image), x, y, w, h)
        else:
            c.setFillColor(white)
            c.setFont("Sans-Bold", 9)
            c.drawCentredString(x + w / 2, y + h / 2, sheet.game[:34])
            c.setFont("Sans", 6)
            c.drawCentredString(x + w / 2, y + h / 2 - 10, "proxy · cardsite")
        trim_box(c, x, y, w, h)
    crop_marks(c, lay)
    c.restoreState()


def check_sheet_size(cards: int) -> None:
    """Raise InputError("cards", ...) for a sheet of more cards than MAX_SHEET_CARDS."""
    if cards > MAX_SHEET_CARDS:
        raise InputError(
            "cards",
            f"a proxy sheet may hold at most {MAX_SHEET_CARDS} cards; this one has {cards:,}",
        )


def lead_pages(options: SheetOptions) -> int:
    """The pages before the first page of cards: the calibration page, and with backs its
    blank back."""
    return 2 if options.backs else 1


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
    """The PDF: a calibration page (with backs, and its blank back), then card pages (each
    followed by its backs if asked).
    `progress`, if given, hears of each page of cards as it is drawn. `page_total` is the
    number of pages the footers count, when `sheet` is only part of a longer one, and
    `first_page` the number its first page of cards has there. Without `calibration`, the
    PDF starts with the cards (one page of a sheet cut from it, drawn on its own)."""
    register_fonts()
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
        calibration_page(c, lay, sheet.options, sheet.calibration_url)
        _first_page_link(c, sheet, lay)
        c.showPage()
        if sheet.options.backs:
            _ruler_back(c, lay)
            c.showPage()
    per_page = COLUMNS * ROWS
    chunks = [sheet.cards[i : i + per_page] for i in range(0, len(sheet.cards), per_page)]
    images: dict[Path, ImageReader] = {}
    for number, chunk in enumerate(chunks, start=first_page):
        for card, (cx, cy) in zip(chunk, lay.cells, strict=False):
            draw_card(c, card, cx * MM, cy * MM, lay, images)
        crop_marks(c, lay)
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
