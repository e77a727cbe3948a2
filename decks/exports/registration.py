"""A tournament deck registration sheet: one deck at one exact version, as a PDF a player
fills in and hands to the judges. Its text is real text in an embedded TrueType font, so
`pdftotext` (and a judge searching the file) finds every name and quantity."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone
from reportlab.lib.colors import HexColor, black
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from decks.history.pages import version_url
from decks.models import Deck
from decks.proxies import MM, PAPERS
from decks.proxies.drawing import draw_qr, register_fonts
from decks.services import ResolvedDeck, check, resolve
from decks.services.history import DeckState, VersionNotFound, cards_intake, deck_state, state_at
from engines.errors import InputError

# A deck of up to this many lines (distinct cards in a zone) is drawn on one page, however
# many headings its zones and types add: its rows are made smaller until they fit.
ONE_PAGE_LINES = 80
# The sheets one PDF may hold: an event's players, each on a page or two.
MAX_SHEETS = 1000

MARGIN = 12 * MM
GUTTER = 6 * MM
ROW = 10.0  # points: a list row at its usual size
SMALLEST_ROW = 7.0  # points: the least a row shrinks to to keep a deck on one page
QTY_WIDTH = 7 * MM
QR_SIZE = 24 * MM
FIELD_HEIGHT = 9 * MM
JUDGE_HEIGHT = 30 * MM
GREY = HexColor("#666666")
RULE = HexColor("#999999")
SHADE = HexColor("#EEEEEE")
SANS, BOLD, OBLIQUE = "Sans", "Sans-Bold", "Sans-Oblique"


@dataclass(frozen=True)
class SheetHeader:
    event: str = ""  # blank fields print as blank lines to fill in by hand
    date: str = ""
    player_name: str = ""
    player_id: str = ""


@dataclass(frozen=True)
class RegistrationSheet:
    deck: Deck
    version: int  # the exact deck version printed (not necessarily the latest)
    header: SheetHeader = SheetHeader()
    # The format its legality is checked in (an event's); the deck's own when blank.
    format_slug: str = ""


@dataclass(frozen=True)
class _Row:
    kind: str  # "zone", "type" or "card"
    text: str
    quantity: str = ""
    sample: bool = False
    # The zone's and the type's names, which a column repeats when a zone runs over into it.
    zone: str = ""
    group: str = ""


@dataclass(frozen=True)
class _Printed:
    """What one sheet shows, read before drawing."""

    header: SheetHeader
    deck_name: str
    game: str
    format_name: str
    version: int
    legality: str
    problems: tuple[str, ...]
    url: str
    rows: tuple[_Row, ...]
    total: int


def version_state(deck: Deck, version: int) -> DeckState:
    """The deck at `version`; the saved deck for its current version when history began to
    be kept after it. VersionNotFound for a version that was never kept."""
    try:
        return state_at(deck, version)
    except VersionNotFound:
        if version == deck.version:
            return deck_state(deck)
        raise


def _rows(resolved: ResolvedDeck) -> list[_Row]:
    """Every zone in the game's order, its cards grouped by type (in the game's order of
    types) and by name, with totals per zone and per type."""
    engine = resolved.snapshot.engine
    type_order = {t.name: i for i, t in enumerate(engine.card_types)}
    zone_names = {z.slug: z.name for z in engine.zones}
    zone_order = {z.slug: i for i, z in enumerate(engine.zones)}
    rows: list[_Row] = []
    for zone in sorted(
        {e.zone for e in resolved.entries}, key=lambda z: (zone_order.get(z, 99), z)
    ):
        entries = [e for e in resolved.entries if e.zone == zone]
        label = zone_names.get(zone, zone)
        rows.append(_Row("zone", label, str(sum(e.quantity for e in entries)), zone=label))
        types = sorted(
            {e.card.card_type or "Type not given" for e in entries},
            key=lambda t: (type_order.get(t, len(type_order)), t),
        )
        for card_type in types:
            group = sorted(
                (e for e in entries if (e.card.card_type or "Type not given") == card_type),
                key=lambda e: e.card.name.casefold(),
            )
            rows.append(_Row("type", card_type, str(sum(e.quantity for e in group)), zone=label))
            for e in group:
                rows.append(
                    _Row(
                        "card",
                        e.card.name,
                        str(e.quantity),
                        not e.card.official,
                        zone=label,
                        group=card_type,
                    )
                )
    return rows


def _printed(sheet: RegistrationSheet, base_url: str) -> _Printed:
    deck = sheet.deck
    state = version_state(deck, sheet.version)
    resolved = resolve(
        game=deck.game.slug,
        intake=cards_intake(state.cards),
        faction=state.settings.get("faction"),
    )
    rows = _rows(resolved)
    format_slug = sheet.format_slug or str(state.settings.get("format", ""))
    problems: tuple[str, ...] = ()
    try:
        result = check(resolved, format_slug)
    except InputError:
        # A format the game has since dropped: nothing can be said of its legality.
        format_name, legality = format_slug or "No format", "Legality unknown: no such format"
    else:
        format_name = result.format.name
        legality = f"Legal in {format_name}" if result.legal else f"Not legal in {format_name}"
        problems = tuple(p.message for p in result.problems)
    return _Printed(
        header=sheet.header,
        deck_name=str(state.settings.get("name") or deck.name),
        game=deck.game.name,
        format_name=format_name,
        version=sheet.version,
        legality=legality,
        problems=problems,
        url=base_url.rstrip("/") + version_url(deck, sheet.version),
        rows=tuple(rows),
        total=sum(e.quantity for e in resolved.entries),
    )


def registration_pdf(*, sheets: Sequence[RegistrationSheet], paper: str, base_url: str) -> bytes:
    """Every sheet, in the given order, each starting on a new page. `paper`: "a4" or "letter".
    `base_url`: scheme and host for the QR codes' links (e.g. request.build_absolute_uri("/")).
    VersionNotFound for a version never kept; InputError for an unknown paper or too many
    sheets."""
    if paper not in PAPERS:
        raise InputError("paper", f"paper must be one of {', '.join(PAPERS)}; got {paper[:20]!r}.")
    if len(sheets) > MAX_SHEETS:
        raise InputError("sheets", f"At most {MAX_SHEETS:,} registration sheets in one file.")
    printed = [_printed(sheet, base_url) for sheet in sheets]
    register_fonts()
    width, height = (mm * MM for mm in PAPERS[paper])
    out = io.BytesIO()
    # The default Helvetica would be named on every page, and it is never embedded.
    c = Canvas(out, pagesize=(width, height), pageCompression=1, initialFontName=SANS)
    c.setTitle("Deck registration sheet" if len(printed) != 1 else printed[0].deck_name)
    c.setCreator("cardsite")
    today = timezone.localdate().isoformat()
    for sheet in printed:
        _draw_sheet(c, sheet, width, height, today)
    if not printed:
        c.showPage()
    c.save()
    return out.getvalue()


# Drawing. Coordinates are reportlab's: points from the page's bottom-left corner.


def _fitted(text: str, font: str, size: float, width: float, smallest: float) -> tuple[str, float]:
    """`text` at `size`, made smaller (down to `smallest`) until it fits `width`; past that,
    cut with an ellipsis."""
    while size > smallest and stringWidth(text, font, size) > width:
        size -= 0.25
    if stringWidth(text, font, size) <= width:
        return text, size
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…", size


def _field(c: Canvas, label: str, value: str, x: float, y: float, w: float) -> None:
    """A labelled box the player writes in, or the value printed in it."""
    c.setStrokeColor(black)
    c.setLineWidth(0.6)
    c.rect(x, y, w, FIELD_HEIGHT, stroke=1, fill=0)
    c.setFillColor(GREY)
    c.setFont(SANS, 6.5)
    c.drawString(x + 1.5 * MM, y + FIELD_HEIGHT - 2.7 * MM, label)
    if value:
        text, size = _fitted(value, SANS, 10, w - 3 * MM, 6)
        c.setFillColor(black)
        c.setFont(SANS, size)
        c.drawString(x + 1.5 * MM, y + 1.8 * MM, text)


def _header(c: Canvas, sheet: _Printed, width: float, top: float, today: str) -> float:
    """The title, the player's and the deck's fields, the legality and the QR code; returns
    the y where the list starts."""
    inner = width - 2 * MARGIN
    qr_x = width - MARGIN - QR_SIZE
    c.setFillColor(black)
    c.setFont(BOLD, 15)
    c.drawString(MARGIN, top - 15, "Deck registration sheet")
    c.setFont(SANS, 8)
    c.setFillColor(GREY)
    c.drawString(MARGIN, top - 26, f"Printed {today} · deck version {sheet.version}")

    # Player and event: two rows of two boxes, left of the QR code.
    boxes_w = qr_x - MARGIN - 4 * MM
    half = (boxes_w - 3 * MM) / 2
    y = top - 32 - FIELD_HEIGHT
    h = sheet.header
    _field(c, "Event", h.event, MARGIN, y, half)
    _field(c, "Date", h.date, MARGIN + half + 3 * MM, y, half)
    y -= FIELD_HEIGHT + 2 * MM
    _field(c, "Player name", h.player_name, MARGIN, y, half)
    _field(c, "Player ID", h.player_id, MARGIN + half + 3 * MM, y, half)

    draw_qr(c, sheet.url, qr_x, y, QR_SIZE)
    c.setFillColor(GREY)
    c.setFont(SANS, 6.5)
    c.drawCentredString(qr_x + QR_SIZE / 2, y - 8, f"This list: version {sheet.version}")

    # The deck: name, game, format, card total, legality.
    y -= 6 * MM
    c.setFillColor(black)
    label_w = 14 * MM
    for label, value in (("Deck", sheet.deck_name), ("Game", sheet.game)):
        y -= 11
        c.setFont(BOLD, 8)
        c.drawString(MARGIN, y, label)
        text, size = _fitted(value, SANS, 9.5, boxes_w - label_w, 6)
        c.setFont(SANS, size)
        c.drawString(MARGIN + label_w, y, text)
    y -= 11
    c.setFont(BOLD, 8)
    c.drawString(MARGIN, y, "Format")
    c.setFont(SANS, 9.5)
    c.drawString(MARGIN + label_w, y, f"{sheet.format_name} · {sheet.total} cards")
    y -= 13
    c.setFont(BOLD, 9)
    legal = sheet.legality.startswith("Legal in")
    c.setFillColor(HexColor("#1B5E20") if legal else HexColor("#B71C1C"))
    c.drawString(MARGIN, y, sheet.legality + ("" if legal else ":"))
    c.setFillColor(black)
    if not legal and sheet.problems:
        start = MARGIN + stringWidth(sheet.legality + ": ", BOLD, 9)
        text, size = _fitted(sheet.problems[0], SANS, 8, inner - (start - MARGIN), 6)
        c.setFont(SANS, size)
        c.drawString(start, y, text)
    y -= 3 * MM
    c.setStrokeColor(black)
    c.setLineWidth(1)
    c.line(MARGIN, y, width - MARGIN, y)
    return y - 2 * MM


def _continued_header(c: Canvas, sheet: _Printed, width: float, top: float, page: int) -> float:
    c.setFillColor(black)
    c.setFont(BOLD, 11)
    text, size = _fitted(f"{sheet.deck_name} (continued, page {page})", BOLD, 11, width / 2, 7)
    c.setFont(BOLD, size)
    c.drawString(MARGIN, top - 11, text)
    c.setFont(SANS, 9)
    who = sheet.header.player_name or "Player: ____________________"
    c.drawRightString(width - MARGIN, top - 11, f"{who} · version {sheet.version}")
    c.setLineWidth(1)
    c.line(MARGIN, top - 16, width - MARGIN, top - 16)
    return _continued_top(top)


def _continued_top(top: float) -> float:
    return top - 16 - 2 * MM


def _judge_box(c: Canvas, width: float, bottom: float) -> None:
    inner = width - 2 * MARGIN
    top = bottom + JUDGE_HEIGHT
    c.setFillColor(SHADE)
    c.setStrokeColor(black)
    c.setLineWidth(0.8)
    c.rect(MARGIN, bottom, inner, JUDGE_HEIGHT, stroke=1, fill=1)
    c.setFillColor(black)
    c.setFont(BOLD, 8.5)
    c.drawString(MARGIN + 2 * MM, top - 4 * MM, "For judges only: deck check")
    c.setFont(SANS, 8)
    c.setStrokeColor(RULE)
    c.setLineWidth(0.5)
    y = top - 11 * MM
    third = inner / 3
    for i, label in enumerate(("Deck checked by", "Time", "Round")):
        x = MARGIN + 2 * MM + i * third
        c.drawString(x, y, label)
        c.line(x + stringWidth(label, SANS, 8) + 2, y - 1, x + third - 4 * MM, y - 1)
    for i in range(2):
        y -= 7 * MM
        x = MARGIN + 2 * MM
        if i == 0:
            c.drawString(x, y, "Notes")
            x += stringWidth("Notes", SANS, 8) + 2
        c.line(x, y - 1, width - MARGIN - 2 * MM, y - 1)


def _footer(c: Canvas, sheet: _Printed, width: float, page: int, pages: int) -> None:
    c.setFillColor(GREY)
    c.setFont(SANS, 7)
    text, _ = _fitted(sheet.deck_name, SANS, 7, width / 2, 7)
    c.drawString(MARGIN, MARGIN / 2, text)
    c.drawRightString(width - MARGIN, MARGIN / 2, f"Page {page} of {pages}")


def _columns(rows: Sequence[_Row], per_column: int) -> list[list[_Row]]:
    """The rows poured into columns of `per_column` rows, a column that starts inside a zone
    starting with the zone's name again, and no column ending on a heading."""
    columns: list[list[_Row]] = [[]]
    for i, row in enumerate(rows):
        column = columns[-1]
        # A heading needs its first card under it in the same column.
        needs = 2 if row.kind != "card" and i + 1 < len(rows) else 1
        if len(column) + needs > per_column:
            column = []
            columns.append(column)
            column.extend(_continued(row))
        column.append(row)
    return columns


def _split(rows: Sequence[_Row]) -> tuple[list[_Row], list[_Row]]:
    """The rows up to the ONE_PAGE_LINES-th card line, for the first page, and the rest, which
    starts with its zone's name again."""
    seen = 0
    for i, row in enumerate(rows):
        seen += row.kind == "card"
        if seen > ONE_PAGE_LINES:
            cut = i
            # The headings right above the card go over with it.
            while rows[cut - 1].kind != "card":
                cut -= 1
            rest = list(rows[cut:])
            rest[:0] = _continued(rest[0])
            return list(rows[:cut]), rest
    return list(rows), []


def _continued(row: _Row) -> list[_Row]:
    """The headings a column or page starting at `row` repeats: its zone's, and its type's
    when it starts amid a type."""
    if row.kind == "zone":
        return []
    zone = _Row("zone", f"{row.zone} (continued)", zone=row.zone)
    if row.kind == "type":
        return [zone]
    return [zone, _Row("type", f"{row.group} (continued)", zone=row.zone, group=row.group)]


def _per_column(rows: Sequence[_Row], rows_height: float) -> tuple[int, float]:
    """How many rows a column of the first page holds, and their height: shrunk until all
    the rows fit in its two columns, when they can at SMALLEST_ROW."""
    usual = int(rows_height // ROW)
    per = usual
    while len(_columns(rows, per)) > 2:
        per += 1
    if rows_height / per < SMALLEST_ROW:
        # Only a deck of many zones and types, each of a card or two, comes here.
        return usual, ROW
    return per, min(ROW, rows_height / per)


def _draw_column(
    c: Canvas, rows: Sequence[_Row], x: float, top: float, w: float, row: float
) -> None:
    scale = row / ROW
    y = top
    for item in rows:
        y -= row
        base = y + row * 0.25
        if item.kind == "zone":
            c.setFillColor(SHADE)
            c.rect(x, y + 0.5, w, row - 1, stroke=0, fill=1)
            c.setFillColor(black)
            c.setFont(BOLD, 8.5 * scale)
            c.drawString(x + 1.5, base, item.text)
            if item.quantity:
                c.drawRightString(x + w - 1.5, base, f"{item.quantity} cards")
        elif item.kind == "type":
            c.setFillColor(GREY)
            c.setFont(BOLD, 7.5 * scale)
            count = f" ({item.quantity})" if item.quantity else ""
            c.drawString(x + QTY_WIDTH, base, item.text + count)
        else:
            c.setFillColor(black)
            c.setFont(SANS, 8.5 * scale)
            c.drawRightString(x + QTY_WIDTH - 2 * MM, base, item.quantity)
            suffix = " (sample)" if item.sample else ""
            room = w - QTY_WIDTH - stringWidth(suffix, OBLIQUE, 7 * scale) - 1.5
            name, size = _fitted(item.text, SANS, 8.5 * scale, room, 5)
            c.setFont(SANS, size)
            c.drawString(x + QTY_WIDTH, base, name)
            if suffix:
                c.setFillColor(GREY)
                c.setFont(OBLIQUE, 7 * scale)
                c.drawString(x + QTY_WIDTH + stringWidth(name, SANS, size) + 1.5, base, suffix)
            c.setStrokeColor(SHADE)
            c.setLineWidth(0.4)
            c.line(x + QTY_WIDTH, y, x + w, y)


def _draw_sheet(c: Canvas, sheet: _Printed, width: float, height: float, today: str) -> None:
    top = height - MARGIN
    list_top = _header(c, sheet, width, top, today)
    bottom = MARGIN + JUDGE_HEIGHT + 4 * MM
    first_rows, rest = _split(sheet.rows)
    per, row = _per_column(first_rows, list_top - bottom)
    first = _columns(first_rows, per)
    # What the first page cannot hold goes on pages of its own, at the usual size.
    overflow = [r for column in first[2:] for r in column]
    if overflow and rest and rest[0].zone == overflow[-1].zone:
        # Poured again below, the overflow and the rest are one run: no headings between.
        while rest[0].kind != "card" and not rest[0].quantity:
            rest = rest[1:]
    later_per = int((_continued_top(top) - MARGIN - 3 * MM) // ROW)
    later = _columns(overflow + rest, later_per) if overflow or rest else []
    pages = 1 + (len(later) + 1) // 2
    column_w = (width - 2 * MARGIN - GUTTER) / 2
    for i, column in enumerate(first[:2]):
        _draw_column(c, column, MARGIN + i * (column_w + GUTTER), list_top, column_w, row)
    _judge_box(c, width, MARGIN + 3 * MM)
    _footer(c, sheet, width, 1, pages)
    c.showPage()
    for page in range(2, pages + 1):
        start = _continued_header(c, sheet, width, top, page)
        pair = later[(page - 2) * 2 : (page - 2) * 2 + 2]
        for i, column in enumerate(pair):
            _draw_column(c, column, MARGIN + i * (column_w + GUTTER), start, column_w, ROW)
        _footer(c, sheet, width, page, pages)
        c.showPage()
