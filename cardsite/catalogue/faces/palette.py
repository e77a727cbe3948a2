"""Colours of a face: the fixed inks and papers, and the shades made from a faction's colour."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PIL import Image

RGB = tuple[int, int, int]

NEUTRAL: RGB = (128, 134, 144)
INK: RGB = (30, 30, 34)
SOFT_INK: RGB = (88, 88, 96)
PARCHMENT: RGB = (245, 241, 232)
PAPER: RGB = (252, 250, 245)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
STAR_GOLD: RGB = (201, 150, 12)


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}", value):
        return NEUTRAL
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def mix(a: RGB, b: RGB, amount: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * amount),
        round(a[1] + (b[1] - a[1]) * amount),
        round(a[2] + (b[2] - a[2]) * amount),
    )


def luminance(colour: RGB) -> float:
    r, g, b = (c / 255 for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def deep(colour: RGB) -> RGB:
    """A shade dark enough to carry white text, whatever the faction colour."""
    shade = colour
    while luminance(shade) > 0.28:
        shade = mix(shade, BLACK, 0.12)
    return shade


def gradient(size: tuple[int, int], colours: Sequence[RGB]) -> Image.Image:
    """Left-to-right bands of `colours`, each held flat, blended where two meet."""
    width = size[0]
    if len(colours) == 1:
        return Image.new("RGB", size, colours[0])
    span = width / len(colours)
    blend = span * 0.5
    pixels: list[RGB] = []
    for x in range(width):
        index = min(int(x / span), len(colours) - 1)
        boundary = round(x / span)
        distance = x - boundary * span
        if 0 < boundary < len(colours) and abs(distance) < blend / 2:
            pixels.append(mix(colours[boundary - 1], colours[boundary], 0.5 + distance / blend))
        else:
            pixels.append(colours[index])
    row = Image.new("RGB", (width, 1))
    row.putdata(pixels)
    return row.resize(size, Image.Resampling.NEAREST)


def vertical_shade(size: tuple[int, int], top: int, bottom: int) -> Image.Image:
    """An alpha mask running from `top` to `bottom` opacity."""
    column = Image.linear_gradient("L").resize((1, 256))
    column = column.point(lambda v: round(top + (bottom - top) * v / 255))
    return column.resize(size, Image.Resampling.BILINEAR)
