"""A collection as people paste or upload it, read into lines without touching the database.

Two formats: the decklist text format (`3 Card Name` or `3 Card Name (SET) 12`, read by the
same parser decks use, allowing up to MAX_QUANTITY copies a line), and CSV whose header names
`set,number,quantity` or `name,quantity` (a `game` column, and `name` beside `set` and
`number`, are read too: export writes them). Every problem names its line.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from typing import Any

from cardsite.cardlists.decklist import ListLine, parse_text
from cardsite.catalogue.documents import Problem, restore_formula
from cardsite.collection.models import MAX_QUANTITY
from engines.base import GameEngine
from engines.bounds import csv_rows
from engines.errors import InputError

# An import is read whole before anything is stored, so it is bounded: a collection of every
# printing of a large game fits, a file of millions of lines does not.
MAX_IMPORT_LINES = 10_000
MAX_IMPORT_BYTES = 1_000_000
CSV_COLUMNS = ("game", "set", "number", "name", "quantity")


@dataclass(frozen=True)
class ImportLine:
    line: int
    quantity: int
    name: str | None = None
    set_code: str | None = None
    number: str | None = None
    game: str | None = None
    # The line with its trailing `// ...` or `# ...` kept in the name (cardsite.cardlists.decklist's
    # ListLine.literal): used when a card is named so ("Front // Back").
    literal: ImportLine | None = None


def check_size(text: str, field: str) -> None:
    """InputError naming `field` and the limit, for text past the import's size. Lines are
    counted by the reader of each format, as its parser splits them."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_IMPORT_BYTES:
        raise InputError(
            field, f"An import is at most {MAX_IMPORT_BYTES:,} bytes (1 MB); this is {size:,}."
        )


def read_text(text: str, engine: GameEngine) -> tuple[list[ImportLine], list[Problem]]:
    check_size(text, "text")
    lines, unreadable = parse_text(
        text, engine, most=MAX_QUANTITY, max_lines=MAX_IMPORT_LINES, what="An import"
    )
    # A collection has no sideboard: a list's planned cards are copies held like the rest,
    # so the notice that a deck would keep them apart is not the collection's.
    problems = [Problem(p.line, "", p.message) for p in unreadable if not p.notice]
    return [_import_line(x) for x in lines], problems


def _import_line(x: ListLine) -> ImportLine:
    literal = _import_line(x.literal) if x.literal is not None else None
    return ImportLine(x.line, x.quantity, x.name, x.set_code, x.number, literal=literal)


def decode_upload(upload: Any) -> str:
    """An uploaded file's text: UTF-8 (a byte-order mark is dropped), within the size limit.
    Past the limit, no more than the limit and a byte is read."""
    data = upload.read(MAX_IMPORT_BYTES + 1)
    size = max(len(data), upload.size or 0)
    if size > MAX_IMPORT_BYTES:
        raise InputError(
            "csv", f"An import is at most {MAX_IMPORT_BYTES:,} bytes (1 MB); this is {size:,}."
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError("csv", f"The file is not UTF-8 text (byte {exc.start:,}).") from None


def read_csv(text: str) -> tuple[list[ImportLine], list[Problem]]:
    check_size(text, "csv")
    if "\x00" in text:
        raise InputError("csv", "The file holds a NUL character: it is not a CSV file.")
    try:
        first, reader = csv_rows(text, most=MAX_IMPORT_LINES, field="csv", what="An import")
        header = [cell.strip().lower() for cell in first]
    except csv.Error as exc:
        return [], [Problem(1, "", f"cannot read the header: {exc}")]
    problems = [
        Problem(1, column, f"unknown column; columns are {', '.join(CSV_COLUMNS)}")
        for column in header
        if column not in CSV_COLUMNS
    ]
    if len(set(header)) != len(header):
        problems.append(Problem(1, "", "a column is named twice"))
    has_print = "set" in header and "number" in header
    if "quantity" not in header or not (has_print or "name" in header):
        problems.append(Problem(1, "", "the header needs set,number,quantity or name,quantity"))
    if problems:
        return [], problems
    lines: list[ImportLine] = []
    end = 1
    while True:
        start = end + 1
        try:
            row = next(reader, None)
        except csv.Error as exc:
            return lines, [*problems, Problem(start, "", f"cannot read this line: {exc}")]
        if row is None:
            break
        end = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            problems.append(Problem(start, "", f"{len(row)} cells; the header has {len(header)}"))
            continue
        cells = {
            column: restore_formula(cell.strip()) for column, cell in zip(header, row, strict=True)
        }
        quantity = _quantity(cells["quantity"])
        if quantity is None:
            shown = cells["quantity"][:8]
            problems.append(
                Problem(start, "quantity", f"{shown!r} must be a whole number 1 to {MAX_QUANTITY}")
            )
            continue
        lines.append(
            ImportLine(
                start,
                quantity,
                cells.get("name") or None,
                (cells.get("set") or "").upper() or None,
                cells.get("number") or None,
                cells.get("game") or None,
            )
        )
    return lines, problems


def _quantity(cell: str) -> int | None:
    # ASCII digits only: int() would take "٣" and " 3", and a cell of thousands of digits
    # must not reach it at all.
    if not (cell.isascii() and cell.isdigit()) or len(cell) > len(str(MAX_QUANTITY)):
        return None
    value = int(cell)
    return value if 1 <= value <= MAX_QUANTITY else None
