"""What a PDF page draws, read back from its content stream in page coordinates (points).

pypdf's text extraction walks every operator and hands `visitor_operand_before` the current
transformation matrix, so a rectangle (`re`), a line (`m` ... `l`) or an image (`Do`, drawn
into the unit square that `cm` maps) can be placed on the page however it was shifted."""

from __future__ import annotations

from dataclasses import dataclass, field

from pypdf import PageObject

Matrix = list[float]
Box = tuple[float, float, float, float]  # x, y, width, height
Segment = tuple[float, float, float, float]  # x0, y0, x1, y1


def _apply(cm: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = cm
    return a * x + c * y + e, b * x + d * y + f


@dataclass
class Marks:
    stroked: list[Box] = field(default_factory=list)  # rectangles outlined: trim boxes
    filled: list[tuple[Box, tuple[float, ...]]] = field(default_factory=list)  # with colour
    images: list[tuple[Box, str]] = field(default_factory=list)  # with the XObject's name
    lines: list[tuple[Segment, tuple[float, ...]]] = field(default_factory=list)  # and colour


def marks(page: PageObject) -> Marks:
    found = Marks()
    fill: tuple[float, ...] = (0.0, 0.0, 0.0)
    stroke: tuple[float, ...] = (0.0, 0.0, 0.0)
    saved: list[tuple[tuple[float, ...], tuple[float, ...]]] = []
    rects: list[Box] = []
    segments: list[Segment] = []
    start = (0.0, 0.0)

    def visit(op: bytes, args: list, cm: Matrix, tm: Matrix) -> None:
        nonlocal fill, stroke, start, rects, segments
        if op == b"q":
            saved.append((fill, stroke))
        elif op == b"Q" and saved:
            fill, stroke = saved.pop()
        elif op == b"rg":
            fill = tuple(float(v) for v in args)
        elif op == b"RG":
            stroke = tuple(float(v) for v in args)
        elif op == b"re":
            x, y, w, h = (float(v) for v in args)
            (x0, y0), (x1, y1) = _apply(cm, x, y), _apply(cm, x + w, y + h)
            rects.append((x0, y0, x1 - x0, y1 - y0))
        elif op == b"m":
            start = _apply(cm, float(args[0]), float(args[1]))
        elif op == b"l":
            end = _apply(cm, float(args[0]), float(args[1]))
            segments.append((*start, *end))
            start = end
        elif op in (b"S", b"s"):
            found.stroked += rects
            found.lines += [(s, stroke) for s in segments]
            rects, segments = [], []
        elif op in (b"f", b"F", b"f*"):
            found.filled += [(r, fill) for r in rects]
            rects, segments = [], []
        elif op in (b"B", b"B*", b"b", b"b*", b"n"):
            rects, segments = [], []
        elif op == b"Do":
            a, _, _, d, e, f = cm
            found.images.append(((e, f, a, d), str(args[0])))

    page.extract_text(visitor_operand_before=visit)
    return found
