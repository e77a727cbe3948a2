"""A deck's Open Graph image: its key cards fanned beside its name, for a shared link's preview.

The key cards are chosen the same way for every game: the most copies first, then the highest
value of the game's main number (the engine's `chart_stat`), then the name. Their faces are
the catalogue's own generated faces (cached files), so the picture shows exactly what the
card pages show, including an unofficial sample's band.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageFilter

from cardsite.catalogue.faces import Style, face_file, font, hex_rgb
from cardsite.catalogue.selectors import cards_in_order
from cardsite.catalogue.versioning import catalogue_version
from decks.exports.images import cached_image
from decks.models import Deck
from decks.services import ResolvedDeck, SnapCard

OG_SIZE = (1200, 630)
KEY_CARDS = 5
# Bump whenever the drawing changes, so that every stored image is drawn again.
OG_FORMAT = 1
# The site's header and accent colours (site.css --header, --accent).
HEADER = (29, 35, 48)
ACCENT = (47, 95, 179)
WHITE = (255, 255, 255)
MUTED = (196, 204, 218)
CARD_HEIGHT = 400
FAN_DEGREES = 7.0


def key_cards(resolved: ResolvedDeck, most: int = KEY_CARDS) -> list[SnapCard]:
    """The cards that stand for the deck, best first."""
    stat = resolved.snapshot.engine.chart_stat
    copies: dict[str, int] = {}
    cards: dict[str, SnapCard] = {}
    for entry in resolved.entries:
        copies[entry.card.short_id] = copies.get(entry.card.short_id, 0) + entry.quantity
        cards[entry.card.short_id] = entry.card

    def rank(card: SnapCard) -> tuple[int, int, str]:
        value = card.stats.get(stat) if stat else None
        return (-copies[card.short_id], -value if isinstance(value, int) else 1, card.name)

    return sorted(cards.values(), key=rank)[:most]


def og_png(
    *, deck: Deck, resolved: ResolvedDeck, before_drawing: Callable[[], None] = lambda: None
) -> bytes:
    """The image as PNG bytes, drawn once per deck version and catalogue version;
    `before_drawing` is called only when it must be drawn (and may refuse by raising)."""
    chosen = key_cards(resolved)
    inputs = ":".join(
        [
            str(OG_FORMAT),
            str(deck.version),
            str(catalogue_version()),
            ",".join(c.short_id for c in chosen),
        ]
    )

    def draw() -> bytes:
        before_drawing()
        return _draw(deck, resolved, chosen)

    return cached_image(share_key=deck.share_key, kind="og", inputs=inputs, draw=draw)


def _draw(deck: Deck, resolved: ResolvedDeck, chosen: Sequence[SnapCard]) -> bytes:
    width, height = OG_SIZE
    tint = hex_rgb(deck.faction.colour) if deck.faction and deck.faction.colour else ACCENT
    image = _background(tint)
    faces = [Image.open(face_file(card)) for card in cards_in_order([c.pk for c in chosen])]
    _fan(image, faces)
    draw = ImageDraw.Draw(image)
    left, room = 64, 480 if faces else width - 128
    draw.text((left, 64), "cardsite", font=font(Style.BOLD, 30), fill=MUTED)
    y = _title(draw, deck.name, left, 128, room) + 10
    fmt = resolved.snapshot.engine.format(deck.format)
    lines = [
        resolved.snapshot.name,
        f"{fmt.name if fmt else deck.format} · {resolved.counts['total']} cards",
        f"by {deck.owner.get_username()}",
    ]
    for line in lines:
        y += 12
        draw.text(
            (left, y), _cut(line, Style.REGULAR, 32, room), font=font(Style.REGULAR, 32), fill=WHITE
        )
        y += 40
    if not faces:
        draw.text((left, y + 40), "No cards yet", font=font(Style.ITALIC, 32), fill=MUTED)
    if any(not c.official for c in chosen):
        draw.text(
            (left, height - 72),
            "Includes unofficial sample cards",
            font=font(Style.BOLD, 24),
            fill=(255, 196, 160),
        )
    buffer = io.BytesIO()
    # Pillow's default compression: `optimize` would make the file a tenth smaller for five
    # times the drawing's cost.
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _background(tint: tuple[int, int, int]) -> Image.Image:
    """The site's header colour, lit from the right by the deck's faction colour."""
    ramp = Image.linear_gradient("L").rotate(90).resize(OG_SIZE)
    dark = Image.new("RGB", OG_SIZE, HEADER)
    light = Image.new(
        "RGB", OG_SIZE, tuple(round(h * 0.55 + t * 0.45) for h, t in zip(HEADER, tint, strict=True))
    )
    return Image.composite(dark, light, ramp)


def _fan(image: Image.Image, faces: Sequence[Image.Image]) -> None:
    """The faces as a hand of cards, the first (the key card) in the middle and on top."""
    if not faces:
        return
    count = len(faces)
    # Positions left to right; the best card goes in the middle, the next ones either side.
    slots = sorted(range(count), key=lambda i: (abs(i - (count - 1) / 2), i))
    centre_x, spread = 940, 85
    placed = [(rank, slot - (count - 1) / 2) for rank, slot in enumerate(slots)]
    # The lesser cards first, so that the key card lies on top.
    for rank, offset in sorted(placed, reverse=True):
        card = _card(faces[rank])
        turned = card.rotate(-offset * FAN_DEGREES, resample=Image.Resampling.BICUBIC, expand=True)
        x = round(centre_x + offset * spread - turned.width / 2)
        y = round(OG_SIZE[1] / 2 + 10 + abs(offset) * 14 - turned.height / 2)
        shadow = Image.new("RGBA", turned.size, (0, 0, 0, 0))
        shadow.putalpha(turned.getchannel("A").point(lambda a: a * 0.45))
        image.paste(
            (0, 0, 0), (x + 8, y + 12), shadow.getchannel("A").filter(ImageFilter.GaussianBlur(10))
        )
        image.paste(turned, (x, y), turned)


def _card(face: Image.Image) -> Image.Image:
    """A face scaled to the fan's height (landscape ones to the same width), corners rounded."""
    face = face.convert("RGB")
    # Halved by averaging first: far cheaper than filtering the full-size face down.
    while min(face.size) >= 2 * CARD_HEIGHT * 0.75:
        face = face.reduce(2)
    scale = CARD_HEIGHT / max(face.height, face.width * 0.75)
    size = (round(face.width * scale), round(face.height * scale))
    card = face.resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=16, fill=255)
    card.putalpha(mask)
    return card


def _title(draw: ImageDraw.ImageDraw, name: str, left: int, top: int, room: int) -> int:
    """The deck's name, as large as fits in three lines; the y below it."""
    for size in range(64, 31, -4):
        lines = _wrap(name, size, room)
        if len(lines) <= 3:
            break
    shown = lines[:3]
    if len(lines) > 3:
        shown[2] += "…"
    for line in shown:
        draw.text(
            (left, top), _cut(line, Style.BOLD, size, room), font=font(Style.BOLD, size), fill=WHITE
        )
        top += round(size * 1.2)
    return top


def _wrap(text: str, size: int, room: int) -> list[str]:
    typeface = font(Style.BOLD, size)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if typeface.getlength(candidate) <= room or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    return [*lines, line] if line else lines


def _cut(text: str, style: Style, size: int, room: int) -> str:
    typeface = font(style, size)
    if typeface.getlength(text) <= room:
        return text
    while text and typeface.getlength(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"
