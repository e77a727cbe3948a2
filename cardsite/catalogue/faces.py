"""Generated card faces: a printable PNG of a card, with a QR code back to its short link.

The face is drawn from the catalogue's data alone, so every card has one, including cards
the rulebooks only name. Where each stat goes comes from the game engine's `FaceLayout`, which
follows the rulebook's card anatomy. Faces are cached under MEDIA_ROOT/faces/ in files named
after a hash of everything drawn, so an edited card never serves a stale face.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import qrcode
from django.conf import settings
from PIL import Image, ImageDraw, ImageFont, ImageOps

from engines import get_engine
from engines.base import FaceLayout, GameEngine

if TYPE_CHECKING:
    from cardsite.catalogue.models import Card

# Bump whenever the drawing changes, so that every cached face is drawn again.
FACE_FORMAT = 1

# 63 x 88 mm, the size of a standard playing card, at about 300 dpi.
PORTRAIT = (750, 1050)
LANDSCAPE = (1050, 750)

FONT_DIR = Path(__file__).resolve().parent.parent / "static" / "fonts"
SAMPLE_BAND_TEXT = "UNOFFICIAL SAMPLE"
SAMPLE_BAND_COLOUR = (255, 209, 0)

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

NEUTRAL: RGB = (128, 134, 144)
INK: RGB = (30, 30, 34)
SOFT_INK: RGB = (88, 88, 96)
PARCHMENT: RGB = (245, 241, 232)
PAPER: RGB = (252, 250, 245)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
STAR_GOLD: RGB = (201, 150, 12)

FRAME = 36
GAP = 8
QR_PANEL = 232
PANEL_RADIUS = 12


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


# ---------------------------------------------------------------------------------------------
# What a face shows, as plain values: the single source of both the drawing and its version.


@dataclass(frozen=True)
class FactionMark:
    name: str
    abbreviation: str
    colour: str


@dataclass(frozen=True)
class KeywordMark:
    name: str
    kind: str
    abbreviation: str


@dataclass(frozen=True)
class FaceData:
    short_id: str
    url: str
    game_slug: str
    game_name: str
    name: str
    type_name: str
    subtypes: tuple[str, ...]
    factions: tuple[FactionMark, ...]
    keywords: tuple[KeywordMark, ...]
    rarity: str
    rules_text: str
    flavour_text: str
    artist: str
    art: str
    stats: dict[str, object] = field(hash=False)
    set_code: str
    number: str
    is_sample: bool


def face_data(card: Card) -> FaceData:
    return FaceData(
        short_id=card.short_id,
        url=settings.SITE_URL.rstrip("/") + card.get_short_url(),
        game_slug=card.game.slug,
        game_name=card.game.name,
        name=card.name,
        type_name=card.card_type.name,
        subtypes=tuple(sorted(s.name for s in card.subtypes.all())),
        factions=tuple(
            FactionMark(f.name, f.abbreviation, f.colour)
            for f in sorted(card.factions.all(), key=lambda f: f.name)
        ),
        keywords=tuple(
            KeywordMark(k.name, k.kind, k.abbreviation)
            for k in sorted(card.keywords.all(), key=lambda k: k.name)
        ),
        rarity=card.rarity.name if card.rarity else "",
        rules_text=card.rules_text.strip(),
        flavour_text=card.flavour_text.strip(),
        artist=card.artist.strip(),
        art=card.art.name or "",
        stats=dict(card.stats) if isinstance(card.stats, dict) else {},
        set_code=card.card_set.code,
        number=card.number,
        is_sample=card.is_sample,
    )


def _version(data: FaceData, engine: GameEngine) -> str:
    payload = {"format": FACE_FORMAT, "layout": repr(engine.face), "card": asdict(data)}
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def face_version(card: Card) -> str:
    """Changes whenever anything drawn on the card's face changes."""
    return _version(face_data(card), get_engine(card.game.slug))


def render_face(card: Card) -> bytes:
    """The card's face as PNG bytes."""
    data = face_data(card)
    return _png(_Face(data, get_engine(data.game_slug), art=_load_art(card)).draw())


def face_file(card: Card) -> Path:
    """The card's face as a cached PNG file, drawn only when the card has changed."""
    data = face_data(card)
    engine = get_engine(data.game_slug)
    folder = Path(settings.MEDIA_ROOT) / "faces"
    path = folder / f"{data.short_id}-{_version(data, engine)}.png"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    png = _png(_Face(data, engine, art=_load_art(card)).draw())
    # Written aside and renamed, so a concurrent request never reads a half-written file.
    temporary = folder / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
    try:
        temporary.write_bytes(png)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    mine = re.compile(rf"{re.escape(data.short_id)}-[0-9a-f]+\.png")
    for old in folder.iterdir():
        if old != path and mine.fullmatch(old.name):
            old.unlink(missing_ok=True)
    return path


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _load_art(card: Card) -> Image.Image | None:
    if not card.art:
        return None
    try:
        with card.art.open("rb") as handle:
            art = Image.open(handle)
            art.load()
    except (OSError, ValueError, Image.DecompressionBombError):
        # A missing or broken upload should cost the card its picture, not its face.
        return None
    return ImageOps.exif_transpose(art).convert("RGB")


# ---------------------------------------------------------------------------------------------
# Colour


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


# ---------------------------------------------------------------------------------------------
# Text


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


def fit_size(text: str, style: Style, width: int, largest: int, smallest: int) -> int:
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


# ---------------------------------------------------------------------------------------------
# The face


@dataclass(frozen=True)
class Regions:
    size: tuple[int, int]
    title: Box
    art: Box
    type_line: Box
    text: Box
    info: Box
    qr: Box
    band: Box


def regions(landscape: bool) -> Regions:
    if not landscape:
        width, height = PORTRAIT
        left, right, bottom = FRAME, width - FRAME, height - FRAME
        qr_top = bottom - QR_PANEL
        return Regions(
            size=PORTRAIT,
            title=(left, FRAME, right, 130),
            art=(left, 138, right, 470),
            type_line=(left, 478, right, 530),
            text=(left, 538, right, qr_top - GAP),
            info=(left, qr_top, right - QR_PANEL - GAP, bottom),
            qr=(right - QR_PANEL, qr_top, right, bottom),
            band=(0, 470 - 78, width, 470 - 22),
        )
    width, height = LANDSCAPE
    left, right, bottom = FRAME, width - FRAME, height - FRAME
    column = 458
    qr_top = bottom - QR_PANEL
    return Regions(
        size=LANDSCAPE,
        title=(left, FRAME, right, 130),
        art=(left, 138, column - GAP, bottom),
        type_line=(column, 138, right, 190),
        text=(column, 198, right, qr_top - GAP),
        info=(column, qr_top, right - QR_PANEL - GAP, bottom),
        qr=(right - QR_PANEL, qr_top, right, bottom),
        band=(0, bottom - 78, column - GAP, bottom - 22),
    )


def _stat_text(value: object) -> str:
    return str(value).title() if isinstance(value, str) else str(value)


class _Face:
    def __init__(self, data: FaceData, engine: GameEngine, art: Image.Image | None) -> None:
        self.data = data
        self.engine = engine
        self.layout: FaceLayout = engine.face
        self.art = art
        self.regions = regions(data.type_name in self.layout.landscape_types)
        self.colours = [hex_rgb(f.colour) for f in data.factions] or [NEUTRAL]
        self.image = Image.new("RGB", self.regions.size, WHITE)
        self.draw_ = ImageDraw.Draw(self.image)

    # -- helpers -------------------------------------------------------------------------

    def has(self, key: str) -> bool:
        return self.data.stats.get(key) is not None

    def symbol(self, key: str) -> str:
        spec = self.engine.stat(key)
        return self.layout.symbol(key) or (spec.label if spec else key)

    def stat_colour(self, key: str) -> RGB:
        chosen = self.layout.colour(key)
        return hex_rgb(chosen) if chosen else deep(self.colours[0])

    def panel(self, box: Box, fill: RGB | Image.Image, outline: RGB | None = None) -> None:
        mask = Image.new("L", self.image.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, PANEL_RADIUS, fill=255)
        if isinstance(fill, Image.Image):
            layer = Image.new("RGB", self.image.size)
            layer.paste(fill, box[:2])
            self.image.paste(layer, (0, 0), mask)
        else:
            self.image.paste(fill, (0, 0), mask)
        edge = outline or deep(mix(self.colours[0], BLACK, 0.2))
        self.draw_.rounded_rectangle(box, PANEL_RADIUS, outline=edge, width=2)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        style: Style,
        size: int,
        fill: RGB,
        anchor: str = "la",
    ) -> None:
        self.draw_.text(xy, text, font=font(style, size), fill=fill, anchor=anchor)

    # -- parts ---------------------------------------------------------------------------

    def draw(self) -> Image.Image:
        self.draw_frame()
        self.draw_art()
        if self.data.is_sample:
            self.draw_sample_band()
        self.draw_title()
        self.draw_type_line()
        self.draw_text_box()
        self.draw_info()
        self.draw_qr()
        return self.round_corners()

    def draw_frame(self) -> None:
        width, height = self.image.size
        self.image.paste(gradient(self.image.size, self.colours))
        # Darker towards the bottom, as printed frames are, so the panels stand out.
        shade = vertical_shade(self.image.size, 0, 90)
        self.image.paste(BLACK, (0, 0), shade)
        edge = deep(mix(self.colours[0], BLACK, 0.3))
        self.draw_.rounded_rectangle((0, 0, width - 1, height - 1), 34, outline=edge, width=4)
        self.draw_.rounded_rectangle(
            (10, 10, width - 11, height - 11), 26, outline=mix(WHITE, self.colours[0], 0.5), width=2
        )

    def draw_art(self) -> None:
        box = self.regions.art
        size = (box[2] - box[0], box[3] - box[1])
        if self.art is not None:
            picture = ImageOps.fit(self.art, size, Image.Resampling.LANCZOS, centering=(0.5, 0.4))
        else:
            picture = self.placeholder_art(size)
        self.panel(box, picture)

    def placeholder_art(self, size: tuple[int, int]) -> Image.Image:
        """A faction-coloured starscape with the game's name, so no face has a hole in it."""
        width, height = size
        base = gradient(size, [mix(c, WHITE, 0.15) for c in self.colours])
        base.paste(mix(self.colours[0], BLACK, 0.65), (0, 0), vertical_shade(size, 0, 170))
        overlay = Image.new("RGBA", size, (0, 0, 0, 0))
        pen = ImageDraw.Draw(overlay)
        rng = random.Random(self.data.short_id)
        cx, cy = width * rng.uniform(0.3, 0.7), height * rng.uniform(0.35, 0.6)
        for ring in range(1, 9):
            r = ring * max(width, height) / 9
            pen.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(255, 255, 255, 26), width=2)
        for _ in range(90):
            x, y = rng.uniform(0, width), rng.uniform(0, height)
            r = rng.choice((1, 1, 1.5, 2, 2.5))
            pen.ellipse((x - r, y - r, x + r, y + r), fill=(255, 255, 255, rng.randint(60, 190)))
        base.paste(overlay, (0, 0), overlay)
        pen = ImageDraw.Draw(base)
        name = self.data.game_name.upper()
        title_size = fit_size(name, Style.BOLD, width - 80, 40, 14)
        middle = height * 0.47
        pen.text(
            (width / 2, middle),
            name,
            font=font(Style.BOLD, title_size),
            fill=mix(WHITE, self.colours[0], 0.2),
            anchor="ms",
        )
        pen.line(
            (width / 2 - 60, middle + 16, width / 2 + 60, middle + 16),
            fill=mix(WHITE, self.colours[0], 0.4),
            width=2,
        )
        pen.text(
            (width / 2, middle + 30),
            "no artwork on file",
            font=font(Style.ITALIC, 18),
            fill=mix(WHITE, self.colours[0], 0.45),
            anchor="ma",
        )
        return base

    def draw_sample_band(self) -> None:
        left, top, right, bottom = self.regions.band
        height = bottom - top
        stripes = min(90, (right - left) // 8)
        self.draw_.rectangle((left, top, right, bottom), fill=SAMPLE_BAND_COLOUR)
        # Hazard stripes at both ends make the band read as a warning, not as decoration.
        for start, end in ((left, left + stripes), (right - stripes, right)):
            for x in range(start - height, end, 26):
                self.draw_.polygon(
                    [(x, bottom), (x + 13, bottom), (x + 13 + height, top), (x + height, top)],
                    fill=INK,
                )
        # Square off the stripes' slanted ends where they run into the lettering.
        self.draw_.rectangle(
            (left + stripes, top, right - stripes, bottom), fill=SAMPLE_BAND_COLOUR
        )
        self.draw_.line((left, top, right, top), fill=INK, width=3)
        self.draw_.line((left, bottom, right, bottom), fill=INK, width=3)
        room = right - left - 2 * stripes - 24
        size = fit_size(SAMPLE_BAND_TEXT, Style.BOLD, room, 34, 14)
        self.text(
            ((left + right) / 2, (top + bottom) / 2 + 1),
            SAMPLE_BAND_TEXT,
            Style.BOLD,
            size,
            INK,
            "mm",
        )

    def draw_title(self) -> None:
        left, top, right, bottom = self.regions.title
        self.panel(self.regions.title, PARCHMENT)
        corner = right - 14 - self.draw_corner(right - 14, top, bottom)
        width = corner - left - 40
        name = self.data.name
        middle = (top + bottom) / 2
        size = fit_size(name, Style.BOLD, width, 44, 26)
        if font(Style.BOLD, size).getlength(name) <= width:
            self.text((left + 20, middle), name, Style.BOLD, size, INK, "lm")
            return
        # Too long for one line even when small: two lines, as long names are printed.
        size, lines = next(
            (
                (size, lines)
                for size in range(32, 17, -1)
                if len(lines := wrap([Run(name, Style.BOLD)], size, width)) <= 2
            ),
            (18, wrap([Run(name, Style.BOLD)], 18, width)),
        )
        texts = ["".join(t for t, _ in line) for line in lines[:2]]
        if len(lines) > 2:
            texts[1] = ellipsize(texts[1] + " …", Style.BOLD, size, width)
        step = line_height(size)
        y = middle - step * (len(texts) - 1) / 2
        for text in texts:
            self.text((left + 20, y), text, Style.BOLD, size, INK, "lm")
            y += step

    def draw_corner(self, right: int, top: int, bottom: int) -> int:
        """Corner stats as discs, right to left from `right`; returns the width they took."""
        x = right
        for key in reversed(self.layout.star_stats):
            if not self.has(key):
                continue
            value = self.data.stats[key]
            count = value if isinstance(value, int) else 0
            spec = self.engine.stat(key)
            # Empty stars up to the most a card can have, so "2 of 3" reads at a glance.
            most = max(spec.maximum or 0, count) if spec else count
            stars = "★" * count + "☆" * (most - count)
            size = 40
            width = font(Style.BOLD, size).getlength(stars)
            self.text((x, (top + bottom) / 2), stars, Style.BOLD, size, STAR_GOLD, "rm")
            x -= round(width) + 14
        keys = [k for k in self.layout.corner_stats if self.has(k)]
        diameter = 62
        for key in reversed(keys):
            cx = x - diameter / 2
            cy = top + 8 + diameter / 2
            colour = self.stat_colour(key)
            self.draw_.ellipse(
                (cx - diameter / 2, cy - diameter / 2, cx + diameter / 2, cy + diameter / 2),
                fill=colour,
                outline=mix(colour, BLACK, 0.45),
                width=3,
            )
            value = _stat_text(self.data.stats[key])
            size = fit_size(value, Style.BOLD, diameter - 14, 34, 14)
            self.text((cx, cy), value, Style.BOLD, size, WHITE, "mm")
            caption = self.symbol(key).upper()
            caption_size = fit_size(caption, Style.BOLD, diameter + 4, 14, 9)
            self.text((cx, bottom - 6), caption, Style.BOLD, caption_size, SOFT_INK, "ms")
            x -= diameter + 10
        return right - x

    def type_words(self) -> str:
        line = self.data.type_name
        if self.data.subtypes:
            line += " — " + ", ".join(self.data.subtypes)
        extras = [f.name for f in self.data.factions]
        for key in self.layout.tag_stats:
            if self.has(key):
                value = _stat_text(self.data.stats[key])
                symbol = self.layout.symbol(key)
                spec = self.engine.stat(key)
                label = spec.label if spec else key
                extras.append(f"{value} {symbol}" if symbol else f"{label}: {value}")
        if extras:
            line += "  ·  " + " · ".join(extras)
        return line

    def draw_type_line(self) -> None:
        left, top, right, bottom = self.regions.type_line
        band = gradient((right - left, bottom - top), [deep(c) for c in self.colours])
        self.panel(self.regions.type_line, band)
        x = right - 10
        middle = (top + bottom) / 2
        badges = [k for k in self.data.keywords if k.kind in self.layout.badge_keyword_kinds]
        for keyword in reversed(badges):
            label = keyword.abbreviation or keyword.name.upper()
            size = 22 if keyword.abbreviation else 15
            width = max(font(Style.BOLD, size).getlength(label) + 22, 38)
            self.draw_.rounded_rectangle(
                (x - width, middle - 17, x, middle + 17), 8, fill=WHITE, outline=INK, width=2
            )
            self.text((x - width / 2, middle), label, Style.BOLD, size, INK, "mm")
            x -= round(width) + 8
        if self.layout.faction_badge:
            for faction in reversed(self.data.factions):
                if not faction.abbreviation:
                    continue
                colour = hex_rgb(faction.colour)
                self.draw_.ellipse(
                    (x - 36, middle - 18, x, middle + 18), fill=colour, outline=WHITE, width=3
                )
                size = fit_size(faction.abbreviation, Style.BOLD, 24, 20, 10)
                self.text((x - 18, middle), faction.abbreviation, Style.BOLD, size, WHITE, "mm")
                x -= 44
        width = x - left - 28
        words = self.type_words()
        size = fit_size(words, Style.BOLD, width, 24, 15)
        words = ellipsize(words, Style.BOLD, size, width)
        self.text((left + 18, middle), words, Style.BOLD, size, WHITE, "lm")

    def text_blocks(self, with_flavour: bool) -> list[Block]:
        data = self.data
        text = data.rules_text
        shown = [k for k in data.keywords if k.kind not in self.layout.badge_keyword_kinds]
        mentioned = {k for k in data.keywords if re.search(rf"\b{re.escape(k.name)}\b", text, re.I)}
        lead_kinds = self.layout.lead_keyword_kinds
        leads = [k for k in shown if k.kind in lead_kinds and k not in mentioned]
        # Keywords the text already spells out are not repeated above it.
        listed = [k for k in shown if k not in mentioned and k not in leads]
        blocks: list[Block] = []
        if listed:
            blocks.append(Block((Run(" · ".join(k.name for k in listed), Style.BOLD),)))
        paragraphs = [p.strip() for p in text.splitlines() if p.strip()]
        for index, paragraph in enumerate(paragraphs):
            runs: list[Run] = []
            if index == 0 and leads:
                runs.append(Run(", ".join(k.name for k in leads) + ": ", Style.BOLD))
            runs += self.keyword_runs(paragraph)
            blocks.append(Block(tuple(runs)))
        if leads and not paragraphs:
            blocks.append(Block((Run(", ".join(k.name for k in leads), Style.BOLD),)))
        if with_flavour and data.flavour_text:
            if blocks:
                blocks.append(Block((), SOFT_INK))
            for paragraph in data.flavour_text.splitlines():
                if paragraph.strip():
                    run = Run(paragraph.strip(), Style.ITALIC)
                    blocks.append(Block((run,), SOFT_INK, size_offset=-2))
        return blocks

    def keyword_runs(self, paragraph: str) -> list[Run]:
        """The paragraph with keywords that open a sentence ("Removal: ...") in bold."""
        names = sorted((k.name for k in self.data.keywords), key=len, reverse=True)
        if not names:
            return [Run(paragraph)]
        alternatives = "|".join(re.escape(name) for name in names)
        pattern = re.compile(rf"(?:^|(?<=[.!?]\s))(?:{alternatives})\b:?", re.I)
        runs: list[Run] = []
        cursor = 0
        for match in pattern.finditer(paragraph):
            if match.start() > cursor:
                runs.append(Run(paragraph[cursor : match.start()]))
            runs.append(Run(match.group(), Style.BOLD))
            cursor = match.end()
        if cursor < len(paragraph):
            runs.append(Run(paragraph[cursor:]))
        return runs

    def draw_text_box(self) -> None:
        left, top, right, bottom = self.regions.text
        self.panel(self.regions.text, PAPER)
        pad = 20
        box = (right - left - 2 * pad, bottom - top - 2 * pad)
        laid = None
        if self.data.flavour_text:
            # Flavour only when it fits beside rules text still printed at a readable size.
            laid = fit_blocks(self.text_blocks(with_flavour=True), box, 30, 19)
        if laid is None:
            blocks = self.text_blocks(with_flavour=False)
            if not blocks:
                self.draw_ornament(self.regions.text)
                return
            laid = fit_blocks(blocks, box, 30, 12) or truncate(
                layout_blocks(blocks, 12, box[0]), box
            )
        for line in laid.lines:
            y = top + pad + line.top
            if not line.pieces:
                middle = y + round(laid.size * 0.25)
                self.draw_.line((left + 90, middle, right - 90, middle), fill=line.colour)
                continue
            x = left + pad
            for text, style in merged(line.pieces):
                self.text((x, y), text, style, line.size, line.colour)
                x += font(style, line.size).getlength(text)

    def draw_ornament(self, box: Box) -> None:
        left, top, right, bottom = box
        cx, cy = (left + right) / 2, (top + bottom) / 2
        colour = mix(self.colours[0], PAPER, 0.55)
        self.draw_.line((cx - 110, cy, cx - 16, cy), fill=colour, width=2)
        self.draw_.line((cx + 16, cy, cx + 110, cy), fill=colour, width=2)
        self.draw_.polygon([(cx, cy - 9), (cx + 9, cy), (cx, cy + 9), (cx - 9, cy)], fill=colour)

    def draw_info(self) -> None:
        left, top, right, bottom = self.regions.info
        self.panel(self.regions.info, PARCHMENT)
        pad = 18
        width = right - left - 2 * pad
        keys = [k for k in self.layout.footer_stats if self.has(k)]
        y = top + 14
        if keys:
            self.draw_footer_stats(keys, (left + 14, y, right - 14, y + 112))
            y += 112 + 10
        facts = [self.data.set_code, f"No. {self.data.number}"]
        if self.data.rarity:
            facts.append(self.data.rarity)
        # In order of importance, since the least important go first when room runs short:
        # set and number identify the printing, the address is for typing in by hand.
        wanted: list[tuple[str, Style, int, RGB]] = [
            ("  ·  ".join(facts), Style.BOLD, 19, INK),
            (f"Illustrated by {self.data.artist}", Style.ITALIC, 16, SOFT_INK),
            (self.data.url.split("://", 1)[-1], Style.REGULAR, 16, SOFT_INK),
            (self.data.game_name, Style.REGULAR, 16, SOFT_INK),
        ]
        if not self.data.artist:
            del wanted[1]
        room = bottom - 12 - y
        lines: list[tuple[str, Style, int, RGB]] = []
        for line in wanted:
            if sum(line_height(size) for _, _, size, _ in [*lines, line]) <= room:
                lines.append(line)
        footer_top = bottom - 12 - sum(line_height(size) for _, _, size, _ in lines)
        baseline = footer_top
        for text, style, size, colour in lines:
            baseline += line_height(size)
            fitted = ellipsize(text, style, size, width)
            self.text((left + pad, baseline - round(size * 0.3)), fitted, style, size, colour, "ls")
        if not keys:
            self.draw_legend((left + pad, y + 4, right - pad, footer_top - 8))

    def draw_legend(self, box: Box) -> None:
        """What the badge letters stand for, and what the code is for, where stats would go."""
        left, top, right, bottom = box
        y = top
        for keyword in self.data.keywords:
            if keyword.kind not in self.layout.badge_keyword_kinds or not keyword.abbreviation:
                continue
            if y + 34 > bottom:
                return
            self.draw_.rounded_rectangle(
                (left, y, left + 32, y + 32), 7, fill=WHITE, outline=INK, width=2
            )
            self.text((left + 16, y + 16), keyword.abbreviation, Style.BOLD, 19, INK, "mm")
            name = ellipsize(keyword.name, Style.BOLD, 19, right - left - 44)
            self.text((left + 44, y + 16), name, Style.BOLD, 19, INK, "lm")
            y += 44
        hint = [Run("Scan the code for this card's page, rulings and errata.", Style.ITALIC)]
        lines = wrap(hint, 16, right - left)
        if y + len(lines) * line_height(16) > bottom:
            return
        for pieces in lines:
            self.text((left, y), "".join(t for t, _ in pieces), Style.ITALIC, 16, SOFT_INK)
            y += line_height(16)

    def draw_footer_stats(self, keys: list[str], box: Box) -> None:
        left, top, right, bottom = box
        gap = 10
        width = min(150, (right - left - gap * (len(keys) - 1)) / len(keys))
        x = left
        for key in keys:
            colour = self.stat_colour(key)
            cell = (round(x), top, round(x + width), bottom)
            self.draw_.rounded_rectangle(
                cell, 10, fill=colour, outline=mix(colour, BLACK, 0.45), width=2
            )
            middle = x + width / 2
            caption = self.symbol(key).upper()
            caption_size = fit_size(caption, Style.BOLD, width - 12, 16, 9)
            self.text((middle, top + 10), caption, Style.BOLD, caption_size, WHITE, "ma")
            value = _stat_text(self.data.stats[key])
            size = fit_size(value, Style.BOLD, width - 16, 52, 16)
            self.text((middle, bottom - 12), value, Style.BOLD, size, WHITE, "ms")
            x += width + gap

    def draw_qr(self) -> None:
        left, top, right, bottom = self.regions.qr
        self.panel(self.regions.qr, WHITE)
        code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
        code.add_data(self.data.url)
        code.make(fit=True)
        modules = code.modules_count
        inner = min(right - left, bottom - top) - 6
        # Four modules of quiet zone on every side, as the QR specification asks for.
        box = max(inner // (modules + 8), 1)
        matrix = code.get_matrix()
        symbol = Image.new("L", (modules, modules), 255)
        symbol.putdata([0 if dark else 255 for row in matrix for dark in row])
        symbol = symbol.resize((modules * box, modules * box), Image.Resampling.NEAREST)
        x = left + (right - left - symbol.width) // 2
        y = top + (bottom - top - symbol.height) // 2
        self.image.paste(symbol.convert("RGB"), (x, y))

    def round_corners(self) -> Image.Image:
        mask = Image.new("L", self.image.size, 0)
        width, height = self.image.size
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), 34, fill=255)
        face = self.image.convert("RGBA")
        face.putalpha(mask)
        return face
