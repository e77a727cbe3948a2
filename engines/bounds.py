"""Bounds on text people send: lines counted exactly as the parser that reads them splits
them, and lists of problems cut to what one answer may carry.

A limit on lines that counts only "\\n" is no limit: `str.splitlines` also breaks at CR, VT,
FF, FS, GS, RS, NEL, U+2028 and U+2029, and the csv module at a lone CR. So each reader here
counts, before any per-line work, the lines its own parser will see.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from engines.errors import InputError

if TYPE_CHECKING:
    from _csv import Reader

# Every character str.splitlines() breaks at ("\r\n" is one break).
TEXT_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# What the csv module reads as the end of a line (with newline="": "\r\n", "\r" or "\n").
CSV_BREAKS = "\n\r"
# An error answer lists this many problems, then says how many more there are.
MAX_SHOWN_PROBLEMS = 100
# A CSV header names at most this many columns; every file here needs fewer than 30.
MAX_CSV_COLUMNS = 100

T = TypeVar("T")


def count_breaks(
    text: str, start: int = 0, end: int | None = None, breaks: str = CSV_BREAKS
) -> int:
    """The line breaks in text[start:end] among `breaks`, "\\r\\n" counted once: by default
    as the csv module ends lines (and so as a JSON file's lines are numbered here)."""
    ends = sum(text.count(c, start, end) for c in breaks)
    if "\r" in breaks and "\n" in breaks:
        ends -= text.count("\r\n", start, end)
    return ends


def plain_text(text: str) -> str:
    """`text` trimmed, with every line break str.splitlines() knows written as "\\n" ("\\r\\n"
    once): a browser's textarea sends "\\r\\n", and a break a page does not show as one (VT,
    U+2028...) would still differ in comparisons, diffs and exports."""
    return "\n".join(text.splitlines()).strip()


def one_line(text: str) -> bool:
    """Whether `text` holds no line break of any kind."""
    return not any(c in text for c in TEXT_BREAKS)


def count_lines(text: str, breaks: str = TEXT_BREAKS) -> int:
    """How many lines `text` splits into at `breaks` (for TEXT_BREAKS, exactly
    len(text.splitlines())), counted without making them."""
    if not text:
        return 0
    return count_breaks(text, breaks=breaks) + (0 if text[-1] in breaks else 1)


def _too_many(field: str, what: str, most: int, count: int) -> InputError:
    return InputError(field, f"{what} has at most {most:,} lines; this one has {count:,}.")


def split_lines(text: str, *, most: int, field: str, what: str) -> list[str]:
    """text.splitlines(), or InputError naming `field` and the limit when there are more
    than `most` lines (`what` names the text: "A decklist")."""
    count = count_lines(text)
    if count > most:
        raise _too_many(field, what, most, count)
    return text.splitlines()


def csv_rows(
    text: str, *, field: str, most: int | None = None, what: str = "A file"
) -> tuple[list[str], Reader]:
    """The header and a csv reader of the rows after it, lines ended as the csv module
    documents (newline=""): "\\r\\n", "\\n" or a lone "\\r". InputError naming `field`
    for more than `most` lines (if given), or for a header of more than MAX_CSV_COLUMNS
    columns, before any row past the header is read. csv.Error for a header that cannot be
    read."""
    count = count_lines(text, CSV_BREAKS) if most is not None else 0
    if most is not None and count > most:
        raise _too_many(field, what, most, count)
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, [])
    if len(header) > MAX_CSV_COLUMNS:
        raise InputError(
            field,
            f"A CSV header has at most {MAX_CSV_COLUMNS} columns; this one has {len(header):,}.",
        )
    return header, reader


def capped(problems: Sequence[T], most: int = MAX_SHOWN_PROBLEMS) -> tuple[list[T], int]:
    """The first `most` problems, and how many more there are."""
    return list(problems[:most]), max(0, len(problems) - most)


def more_problems(count: int) -> str:
    """What an answer says in place of the problems it leaves out."""
    return f"and {count:,} more problem{'' if count == 1 else 's'}"
