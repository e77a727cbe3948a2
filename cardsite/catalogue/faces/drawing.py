"""The face itself: every panel, stat and mark drawn onto the card."""

from __future__ import annotations

import random

import qrcode
from PIL import Image, ImageDraw, ImageOps

from cardsite.catalogue.faces.data import FaceData
from cardsite.catalogue.faces.palette import (
    BLACK,
    INK,
    NEUTRAL,
    PAPER,
    PARCHMENT,
    RGB,
    SOFT_INK,
    STAR_GOLD,
    WHITE,
    deep,
    gradient,
    hex_rgb,
    mix,
    vertical_shade,
)
from cardsite.catalogue.faces.regions import Box, regions
from cardsite.catalogue.faces.typesetting import (
    Run,
    Style,
    ellipsize,
    fit_blocks,
    fit_size,
    font,
    layout_blocks,
    line_height,
    merged,
    truncate,
    wrap,
)
from cardsite.catalogue.faces.words import TYPE_NOT_GIVEN, stat_text, text_blocks, type_words
from engines.base import FaceLayout, GameEngine

SAMPLE_BAND_TEXT = "UNOFFICIAL SAMPLE"
SAMPLE_BAND_COLOUR = (255, 209, 0)
PANEL_RADIUS = 12


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
            value = stat_text(self.data.stats[key])
            size = fit_size(value, Style.BOLD, diameter - 14, 34, 14)
            self.text((cx, cy), value, Style.BOLD, size, WHITE, "mm")
            caption = self.symbol(key).upper()
            caption_size = fit_size(caption, Style.BOLD, diameter + 4, 14, 9)
            self.text((cx, bottom - 6), caption, Style.BOLD, caption_size, SOFT_INK, "ms")
            x -= diameter + 10
        return right - x

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
        words = type_words(self.data, self.engine)
        if self.data.type_name is None:
            self.draw_untyped_words(words, (left + 18, middle), width)
            return
        size = fit_size(words, Style.BOLD, width, 24, 15)
        words = ellipsize(words, Style.BOLD, size, width)
        self.text((left + 18, middle), words, Style.BOLD, size, WHITE, "lm")

    def draw_untyped_words(self, words: str, start: tuple[float, float], width: int) -> None:
        """The words "type not given" in quiet italics where the type would be, the rest in bold:
        a card whose type the source does not state must not look as if it had one."""
        x, middle = start
        size = fit_size(TYPE_NOT_GIVEN + words, Style.BOLD, width, 24, 15)
        quiet = mix(WHITE, deep(self.colours[0]), 0.4)
        self.text((x, middle), TYPE_NOT_GIVEN, Style.ITALIC, size, quiet, "lm")
        used = round(font(Style.ITALIC, size).getlength(TYPE_NOT_GIVEN))
        if words:
            rest = ellipsize(words, Style.BOLD, size, width - used)
            self.text((x + used, middle), rest, Style.BOLD, size, WHITE, "lm")

    def draw_text_box(self) -> None:
        left, top, right, bottom = self.regions.text
        self.panel(self.regions.text, PAPER)
        pad = 20
        box = (right - left - 2 * pad, bottom - top - 2 * pad)
        laid = None
        if self.data.flavour_text:
            # Flavour only when it fits beside rules text still printed at a readable size.
            laid = fit_blocks(text_blocks(self.data, self.layout, with_flavour=True), box, 30, 19)
        if laid is None:
            blocks = text_blocks(self.data, self.layout, with_flavour=False)
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
            x: float = left + pad
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
        width: float = min(150, (right - left - gap * (len(keys) - 1)) / len(keys))
        x: float = left
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
            value = stat_text(self.data.stats[key])
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
