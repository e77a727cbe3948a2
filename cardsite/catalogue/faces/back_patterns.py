"""The motifs behind a card back's name, each drawn as a mask (255 where the accent shows).

Every drawer fills the whole card and looks the same turned half round, to the pixel: the
back keeps only its top half and turns it round for the bottom, and a motif that was not
symmetric would show a seam across the middle. `unit` is how many mask pixels make one pixel
of the card (the mask is drawn larger and scaled down, for smooth edges).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from PIL import ImageDraw

from engines.base import BACK_PATTERNS

Drawer = Callable[[ImageDraw.ImageDraw, tuple[int, int], int], None]
Point = tuple[float, float]

# The same stars on every drawing of a back, so a back's file depends only on its design.
STAR_SEED = 17


def centre(size: tuple[int, int]) -> Point:
    """The point a half turn maps onto itself: turning maps pixel i to pixel size - 1 - i."""
    return (size[0] - 1) / 2, (size[1] - 1) / 2


def turned(point: Point, size: tuple[int, int]) -> Point:
    return size[0] - 1 - point[0], size[1] - 1 - point[1]


def stars(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    width, height = size
    rng = random.Random(STAR_SEED)
    for _ in range(width * height // (10400 * unit * unit)):
        spot = (rng.uniform(0, width), rng.uniform(0, height))
        dot = rng.random() < 0.7
        r = rng.uniform(1.5, 4) * unit if dot else rng.uniform(9, 20) * unit
        # Each star and its twin half a turn away.
        for x, y in (spot, turned(spot, size)):
            if dot:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
                continue
            # A four-pointed sparkle: long points on the axes, a narrow waist between them.
            points = []
            for step in range(8):
                angle = step * math.pi / 4
                reach = r if step % 2 == 0 else r * 0.22
                points.append((x + reach * math.cos(angle), y + reach * math.sin(angle)))
            draw.polygon(points, fill=255)


def rings(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    width, height = size
    cx, cy = width / 2, height / 2
    reach = math.hypot(cx, cy)
    rng = random.Random(STAR_SEED)
    radius = 70.0 * unit
    while radius < reach:
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), outline=255, width=3 * unit
        )
        # A planet on each orbit, somewhere along it.
        angle = rng.uniform(0, 2 * math.pi)
        px, py = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        r = rng.uniform(7, 13) * unit
        draw.ellipse((px - r, py - r, px + r, py + r), fill=255)
        radius += 58 * unit


def hexes(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    width, height = size
    cx, cy = centre(size)
    r = 44.0 * unit
    # Flat-topped hexagons: columns 1.5 r apart, every other column half a hexagon lower.
    column_step, row_step = 1.5 * r, math.sqrt(3) * r
    columns = int(width / column_step / 2) + 2
    rows = int(height / row_step / 2) + 2
    for column in range(-columns, columns + 1):
        x = cx + column * column_step
        shift = row_step / 2 if column % 2 else 0.0
        for row in range(-rows, rows + 1):
            y = cy + row * row_step + shift
            corners = [
                (x + r * math.cos(k * math.pi / 3), y + r * math.sin(k * math.pi / 3))
                for k in range(7)
            ]
            draw.line(corners, fill=255, width=3 * unit, joint="curve")


def chevrons(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    width = size[0]
    cx, cy = centre(size)
    pitch, rise, spacing = 96.0 * unit, 30.0 * unit, 52.0 * unit
    # Rows pointing up from the middle to the top, each with its twin pointing down below;
    # none crosses the middle.
    apex, row = cy - spacing / 2 - rise, 0
    while apex + rise > -spacing:
        start = cx - pitch / 2 + (pitch / 2 if row % 2 else 0)
        start -= math.ceil(start / pitch) * pitch
        x = start
        while x < width + pitch:
            left, right = x + 10 * unit, x + pitch - 10 * unit
            arrow = [(left, apex + rise), ((left + right) / 2, apex), (right, apex + rise)]
            for points in (arrow, [turned(p, size) for p in arrow]):
                draw.line(points, fill=255, width=6 * unit, joint="curve")
            x += pitch
        apex -= spacing
        row += 1


def waves(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    width, height = size
    cx, cy = centre(size)
    spacing, amplitude, wavelength = 38 * unit, 9 * unit, 150 * unit
    lines = int(height / spacing / 2) + 2
    # A sine about the middle is its own twin half a turn away: sin(-x) = -sin(x).
    for index in range(-lines, lines + 1):
        base = cy + index * spacing
        points = [
            (x, base + amplitude * math.sin(2 * math.pi * (x - cx) / wavelength))
            for x in (cx + step * 2 * unit for step in range(-width // 4 - 2, width // 4 + 3))
        ]
        draw.line(points, fill=255, width=3 * unit, joint="curve")


def rays(draw: ImageDraw.ImageDraw, size: tuple[int, int], unit: int) -> None:
    cx, cy = centre(size)
    reach = math.hypot(cx, cy) + unit
    # Wedges of 4 degrees every 12: 30 of them, so half a turn maps the burst onto itself.
    for index in range(30):
        start = math.radians(index * 12)
        end = start + math.radians(4)
        draw.polygon(
            [
                (cx, cy),
                (cx + reach * math.cos(start), cy + reach * math.sin(start)),
                (cx + reach * math.cos(end), cy + reach * math.sin(end)),
            ],
            fill=255,
        )
    # Rings about the centre, so the burst reads as a sun rather than a dartboard.
    for radius in (232 * unit, 252 * unit):
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), outline=255, width=unit * 3
        )


PATTERNS: dict[str, Drawer] = {
    "stars": stars,
    "rings": rings,
    "hexes": hexes,
    "chevrons": chevrons,
    "waves": waves,
    "rays": rays,
}

# The engines name the patterns (they cannot import Pillow); each must have a drawing here.
if set(PATTERNS) != set(BACK_PATTERNS):
    raise ImportError(
        f"card back patterns drawn and named differ: {set(PATTERNS) ^ set(BACK_PATTERNS)}"
    )
