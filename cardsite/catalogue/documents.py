"""Catalogue documents: the JSON and CSV files that fixtures, imports and exports share.

Reading keeps the line every record starts on, so that an import can say where each
problem is. Nothing here touches the database.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import StatField
from engines.bounds import count_breaks, csv_rows
from engines.errors import InputError

FORMAT = "cardsite-catalogue"
VERSION = 1
SECTIONS = ("sets", "factions", "rarities", "keywords", "terms", "cards")

# CSV carries cards only; list cells are separated by this, nested records are JSON.
LIST_SEPARATOR = ";"
CSV_LEADING_COLUMNS = (
    "set",
    "number",
    "name",
    "type",
    "subtypes",
    "factions",
    "rarity",
    "keywords",
    "text",
    "flavour",
    "artist",
)
# `community` and `provenance` are written by exports and read back, but an import ignores
# them: where a value came from is recorded by the site that accepted it, not by a file.
CSV_TRAILING_COLUMNS = (
    "source",
    "notes",
    "inferred",
    "short_id",
    "rulings",
    "errata",
    "community",
    "provenance",
)
CSV_LIST_COLUMNS = frozenset({"subtypes", "factions", "keywords", "inferred"})
CSV_JSON_COLUMNS = frozenset({"rulings", "errata", "provenance"})

# A spreadsheet runs a cell starting with one of these as a formula (OWASP, "CSV Injection").
# Export puts an apostrophe before such a text cell, which spreadsheets show as plain text,
# and import takes one away again. A cell already starting with apostrophes before one of
# them gains one more, so that import restores every value exactly. Stat cells are left as
# they are: a stat is a whole number or one of its game's words, and "-2" is a number.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_QUOTED_FORMULA = re.compile("'*[" + re.escape("".join(FORMULA_STARTS)) + "]")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, and where: a line of the file and a field of the record."""

    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "file"
        return (
            f"{where}, {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )


class DocumentError(Exception):
    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Record:
    line: int | None
    data: Mapping[str, Any]


@dataclass
class Document:
    game: Record | None = None
    sections: dict[str, list[Record]] = field(default_factory=lambda: {s: [] for s in SECTIONS})

    @property
    def cards(self) -> list[Record]:
        return self.sections["cards"]


class _Walker:
    """Walks a JSON text with the stdlib scanner, noting where each value starts."""

    def __init__(self, text: str) -> None:
        self.text = text
        # The C scanner the stdlib decoder runs on; typeshed does not declare it.
        self.scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
        self._counted_to = 0
        self._line = 1

    def line_of(self, index: int) -> int:
        # The walk only moves forward, so count newlines since the last value, not from the
        # start: counting from the start made reading 100,000 cards take minutes. Lines end
        # as in a CSV file (LF, CR LF or a lone CR); a value never starts inside a CR LF.
        self._line += count_breaks(self.text, self._counted_to, index)
        self._counted_to = index
        return self._line

    def skip(self, index: int) -> int:
        while index < len(self.text) and self.text[index] in " \t\r\n":
            index += 1
        return index

    def records(self, index: int) -> tuple[list[Record], int]:
        """The elements of the array at `index`, each with its line, and the index after it."""
        index = self.skip(index)
        records: list[Record] = []
        index = self.skip(index + 1)
        if self.text[index] == "]":
            return records, index + 1
        while True:
            value, end = self.scan(self.text, index)
            records.append(Record(self.line_of(index), value))
            index = self.skip(end)
            if self.text[index] == "]":
                return records, index + 1
            index = self.skip(index + 1)  # the comma

    def top_level(self) -> Document:
        doc = Document()
        index = self.skip(0)
        if self.text[index] == "[":
            doc.sections["cards"], _ = self.records(index)
            return doc
        index = self.skip(index + 1)
        while self.text[index] != "}":
            key, index = self.scan(self.text, index)
            index = self.skip(self.skip(index) + 1)  # the colon
            if key in SECTIONS and self.text[index] == "[":
                doc.sections[key], index = self.records(index)
            else:
                value, end = self.scan(self.text, index)
                if key == "game":
                    doc.game = Record(self.line_of(index), value)
                index = end
            index = self.skip(index)
            if self.text[index] == ",":
                index = self.skip(index + 1)
        return doc


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # json counts only LF as a line end; a file saved with CR ends is counted as one.
        line = count_breaks(text, 0, exc.pos) + 1
        column = exc.pos - max(text.rfind("\n", 0, exc.pos), text.rfind("\r", 0, exc.pos))
        raise DocumentError(
            [Problem(line, "", f"not valid JSON: {exc.msg} (column {column})")]
        ) from None


def read_json(text: str) -> Document:
    parsed = _parse_json(text)
    if isinstance(parsed, list):
        pass
    elif isinstance(parsed, dict):
        problems = []
        if parsed.get("format", FORMAT) != FORMAT:
            problems.append(Problem(1, "format", f"expected {FORMAT!r}, got {parsed['format']!r}"))
        if parsed.get("version", VERSION) != VERSION:
            problems.append(Problem(1, "version", f"only version {VERSION} is understood"))
        for key in SECTIONS:
            if key in parsed and not isinstance(parsed[key], list):
                problems.append(Problem(1, key, "must be a list"))
        if problems:
            raise DocumentError(problems)
    else:
        raise DocumentError([Problem(1, "", "expected a JSON object or a list of cards")])
    # The text parsed, so the walk below cannot fail; it only recovers line numbers.
    return _Walker(text).top_level()


def read_json_list(text: str) -> list[Record]:
    """The elements of a JSON array, each with the line it starts on.

    For files that are a plain list of objects (deck backups), so that their problems can name
    lines the way an import's do.
    """
    if not isinstance(_parse_json(text), list):
        raise DocumentError([Problem(1, "", "expected a JSON list")])
    records, _ = _Walker(text).records(0)
    return records


def neutralise_formula(cell: str) -> str:
    """The cell as export writes it: text a spreadsheet would run as a formula, quoted."""
    return "'" + cell if _QUOTED_FORMULA.match(cell) else cell


def restore_formula(cell: str) -> str:
    """The cell as it was before neutralise_formula."""
    return cell[1:] if cell.startswith("'") and _QUOTED_FORMULA.match(cell, 1) else cell


def _split_list(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(LIST_SEPARATOR) if part.strip()]


def read_csv(text: str, stat_fields: Iterable[StatField]) -> Document:
    """Cards from CSV. Stat columns are named by the engine's stat keys; other columns are fixed."""
    stat_by_key = {spec.key: spec for spec in stat_fields}
    stat_keys = list(stat_by_key)
    known = set(CSV_LEADING_COLUMNS) | set(CSV_TRAILING_COLUMNS) | set(stat_keys)
    try:
        header, reader = csv_rows(text, field="csv")
    except InputError as exc:
        raise DocumentError([Problem(1, "", exc.message)]) from None
    except csv.Error as exc:
        raise DocumentError([Problem(1, "", f"cannot read the header: {exc}")]) from None
    problems = [
        Problem(
            1,
            column,
            f"unknown column; stat columns for this game: {', '.join(stat_keys) or 'none'}",
        )
        for column in header
        if column not in known
    ]
    problems += [
        Problem(1, column, "required column is missing")
        for column in ("set", "number", "name")
        if column not in header
    ]
    if problems:
        raise DocumentError(problems)

    doc = Document()
    line = 1
    while True:
        start = line + 1
        try:
            cells = next(reader, None)
        except csv.Error as exc:
            raise DocumentError([*problems, Problem(start, "", f"cannot read: {exc}")]) from None
        if cells is None:
            break
        line = reader.line_num
        if not cells:
            continue
        if len(cells) > len(header):
            problems.append(Problem(start, "", "more cells than there are columns"))
            continue
        # A short row's missing cells are empty, as csv.DictReader would leave them.
        row = dict(zip(header, [*cells, *[""] * (len(header) - len(cells))], strict=True))
        record: dict[str, Any] = {"stats": {}}
        for column, cell in row.items():
            cell = cell or ""
            if column in stat_keys:
                if cell.strip():
                    record["stats"][column] = stat_by_key[column].coerce(cell)
            elif column in CSV_LIST_COLUMNS:
                record[column] = _split_list(restore_formula(cell))
            elif column in CSV_JSON_COLUMNS:
                try:
                    record[column] = json.loads(cell) if cell.strip() else []
                except json.JSONDecodeError as exc:
                    problems.append(Problem(start, column, f"not valid JSON: {exc.msg}"))
            else:
                record[column] = restore_formula(cell)
        doc.sections["cards"].append(Record(start, record))
    if problems:
        raise DocumentError(problems)
    return doc


def write_json(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_csv(cards: Iterable[Mapping[str, Any]], stat_keys: Iterable[str]) -> str:
    stat_keys = list(stat_keys)
    columns = [*CSV_LEADING_COLUMNS, *stat_keys, *CSV_TRAILING_COLUMNS]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for card in cards:
        row: dict[str, str] = {}
        for column in columns:
            if column in stat_keys:
                value = card.get("stats", {}).get(column)
                row[column] = "" if value is None else str(value)
            elif column in CSV_LIST_COLUMNS:
                cell = f"{LIST_SEPARATOR} ".join(card.get(column) or [])
                row[column] = neutralise_formula(cell)
            elif column in CSV_JSON_COLUMNS:
                entries = card.get(column) or []
                row[column] = json.dumps(entries, ensure_ascii=False) if entries else ""
            else:
                value = card.get(column)
                row[column] = neutralise_formula("" if value is None else str(value))
        writer.writerow(row)
    return out.getvalue()


def read_document(raw: bytes, fmt: str, stat_fields: Iterable[StatField]) -> Document:
    """A document from file bytes in `fmt` ("json" or "csv")."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = count_breaks(raw[: exc.start].decode("latin-1")) + 1
        raise DocumentError([Problem(line, "", "the file is not UTF-8 text")]) from None
    if fmt == "json":
        return read_json(text)
    if fmt == "csv":
        return read_csv(text, stat_fields)
    raise DocumentError([Problem(None, "format", f"unknown format {fmt!r}; use json or csv")])
