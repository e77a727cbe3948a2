"""Fonts, and text set into boxes: wrapping, fitting, shrinking and cutting short."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from cardsite.catalogue.faces.palette import INK, RGB

FONT_DIR = Path(__file__).resolve().parent.parent.parent / "static" / "fonts"


class Style(StrEnum):
    REGULAR = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    ITALIC = "DejaVuSans-Oblique.ttf"


@lru_cache(maxsize=512)
def font(style: Style, size: int) -> ImageFont.FreeTypeFont:
    # BASIC layout: no dependence on whether the host's Pillow was built with libraqm.
    return ImageFont.truetype(
        str(FONT_DIR / style.value), size, layout_engine=ImageFont.Layout.BASIC
    )


@dataclass(frozen=True)
class Run:
    text: str
    style: Style = Style.REGULAR


@dataclass(frozen=True)
class Block:
    """A paragraph of runs, or a divider line when `runs` is empty."""

    runs: tuple[Run, ...]
    colour: RGB = INK
    size_offset: int = 0


Piece = tuple[str, Style]
Word = list[Piece]


def _words(runs: Iterable[Run]) -> list[Word | None]:
    """Words of mixed style; None marks a space. Runs that touch stay one word ("Removal:")."""
    words: list[Word | None] = []
    current: Word = []
    for run in runs:
        for token in re.findall(r"\s+|\S+", run.text):
            if token.isspace():
                if current:
                    words.append(current)
                    current = []
                words.append(None)
            else:
                current.append((token, run.style))
    if current:
        words.append(current)
    return words


def _width(pieces: Iterable[Piece], size: int) -> float:
    return sum(font(style, size).getlength(text) for text, style in pieces)


def wrap(runs: Sequence[Run], size: int, width: int) -> list[list[Piece]]:
    lines: list[list[Piece]] = []
    line: list[Piece] = []
    used = 0.0
    pending_space = False
    for word in _words(runs):
        if word is None:
            if line:
                pending_space = True
            continue
        word_width = _width(word, size)
        # The space takes the style of the word after it, so bold phrases draw in one stroke.
        space_style = word[0][1]
        space = font(space_style, size).getlength(" ") if pending_space and line else 0.0
        if line and used + space + word_width <= width:
            line.append((" ", space_style))
            line.extend(word)
            used += space + word_width
        else:
            if line:
                lines.append(line)
            line, used = [], 0.0
            for piece in _break_long(word, size, width):
                if line and used + _width(piece, size) > width:
                    lines.append(line)
                    line, used = [], 0.0
                line.extend(piece)
                used += _width(piece, size)
        pending_space = False
    if line:
        lines.append(line)
    return lines


def _break_long(word: Word, size: int, width: int) -> list[Word]:
    """A word wider than the box, cut into box-wide pieces (a long URL in rules text)."""
    if _width(word, size) <= width:
        return [word]
    parts: list[Word] = []
    current: Word = []
    for text, style in word:
        for char in text:
            trial = [*current, (char, style)]
            if current and _width(trial, size) > width:
                parts.append(current)
                current = [(char, style)]
            else:
                current = trial
    if current:
        parts.append(current)
    return parts


def merged(pieces: Iterable[Piece]) -> list[Piece]:
    """Neighbouring pieces of one style joined, so a line is drawn in as few strokes as it can."""
    joined: list[Piece] = []
    for text, style in pieces:
        if joined and joined[-1][1] is style:
            joined[-1] = (joined[-1][0] + text, style)
        else:
            joined.append((text, style))
    return joined


def ellipsize(text: str, style: Style, size: int, width: int) -> str:
    typeface = font(style, size)
    if typeface.getlength(text) <= width:
        return text
    while text and typeface.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_size(text: str, style: Style, width: float, largest: int, smallest: int) -> int:
    size = largest
    while size > smallest and font(style, size).getlength(text) > width:
        size -= 1
    return size


def line_height(size: int) -> int:
    return round(size * 1.3)


@dataclass(frozen=True)
class Line:
    top: int  # from the top of the text box
    pieces: list[Piece]  # empty for a divider
    colour: RGB
    size: int


@dataclass(frozen=True)
class TextLayout:
    size: int
    lines: list[Line]
    height: int


def layout_blocks(blocks: Sequence[Block], size: int, width: int) -> TextLayout:
    lines: list[Line] = []
    y = 0
    for index, block in enumerate(blocks):
        block_size = max(size + block.size_offset, 8)
        if index:
            y += round(size * 0.45)
        if not block.runs:
            lines.append(Line(y, [], block.colour, block_size))
            y += round(size * 0.5)
            continue
        for pieces in wrap(block.runs, block_size, width):
            lines.append(Line(y, pieces, block.colour, block_size))
            y += line_height(block_size)
    return TextLayout(size, lines, y)


def fit_blocks(
    blocks: Sequence[Block], box: tuple[int, int], largest: int, smallest: int
) -> TextLayout | None:
    width, height = box
    for size in range(largest, smallest - 1, -1):
        laid = layout_blocks(blocks, size, width)
        if laid.height <= height:
            return laid
    return None


def truncate(laid: TextLayout, box: tuple[int, int]) -> TextLayout:
    """The lines that fit in the box, the last one ending in an ellipsis if any were cut."""
    width, height = box
    kept = [line for line in laid.lines if line.top + line_height(line.size) <= height]
    if len(kept) == len(laid.lines):
        return laid
    while kept and not kept[-1].pieces:
        kept.pop()
    if kept:
        last = kept[-1]
        pieces = list(last.pieces)
        ellipsis: Piece = ("…", Style.REGULAR)
        while pieces and _width([*pieces, ellipsis], last.size) > width:
            text, style = pieces.pop()
            if len(text) > 1:
                pieces.append((text[:-1], style))
        kept[-1] = Line(last.top, [*pieces, ellipsis], last.colour, last.size)
    return TextLayout(laid.size, kept, height)
