"""Each game's card back: the site's own design, read back as a phone and a printer would."""

import io
import threading
from dataclasses import replace

import pytest
import zxingcpp
from django.conf import settings
from django.urls import reverse
from PIL import Image, ImageChops, ImageDraw

import engines
from cardsite.catalogue.faces import back
from cardsite.catalogue.faces.back import (
    MARGIN,
    PROXY_LINE,
    back_file,
    back_version,
    draw_back,
    game_url,
)
from cardsite.catalogue.faces.back_patterns import PATTERNS
from cardsite.catalogue.faces.palette import WHITE, hex_rgb, mix
from cardsite.catalogue.models import Card
from engines.base import BACK_PATTERNS, CardBack
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db

SLUGS = sorted(engines.ENGINES)
TURNS = {"portrait": False, "landscape": True}
# A back is printed at 63 x 88 mm (88 x 63 on its side).
CARD_MM = 63


def decoded(image: Image.Image) -> list[zxingcpp.Barcode]:
    return zxingcpp.read_barcodes(image.convert("RGB"), formats=zxingcpp.BarcodeFormat.QRCode)


def with_back(monkeypatch, slug: str, **changes: object) -> None:
    """Gives the game a different back design for the test, as an edited engine would."""
    engine = engines.ENGINES[slug]
    design = replace(engine.face.back, **changes)
    monkeypatch.setitem(
        engines.ENGINES, slug, replace(engine, face=replace(engine.face, back=design))
    )


class TextSpy:
    """Records every text Pillow draws on a back: its words, box and font size (in this
    thread only: the site draws faces ahead in a thread of its own)."""

    def __init__(self, monkeypatch):
        self.drawn: list[tuple[str, tuple[float, float, float, float], float]] = []
        original = ImageDraw.ImageDraw.text
        spy = self
        mine = threading.get_ident()

        def text(draw, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
            box = draw.textbbox(xy, text, font=font, anchor=anchor)
            if threading.get_ident() == mine:
                spy.drawn.append((text, box, font.size))
            return original(draw, xy, text, fill, font, anchor, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)

    @property
    def texts(self) -> list[str]:
        return [text for text, _, _ in self.drawn]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
            for c in (v / 255 for v in colour)
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("landscape", TURNS.values(), ids=TURNS.keys())
@pytest.mark.parametrize("slug", SLUGS)
def test_every_games_back_decodes_to_that_games_page(slug, landscape):
    image = draw_back(engines.ENGINES[slug], landscape=landscape)
    expected = settings.SITE_URL + reverse("catalogue:game", args=[slug])
    assert [code.text for code in decoded(image)] == [expected]
    # Printed smaller than 300 dpi, or photographed from across the table, it still reads.
    half = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    assert [code.text for code in decoded(half)] == [expected]


def test_the_qr_code_follows_the_site_url_setting(settings):
    settings.SITE_URL = "https://cards.example.org"
    image = draw_back(engines.ENGINES["conquest-of-orion"])
    assert [c.text for c in decoded(image)] == [
        "https://cards.example.org/games/conquest-of-orion/"
    ]


@pytest.mark.parametrize("landscape", TURNS.values(), ids=TURNS.keys())
def test_the_qr_code_sits_on_a_white_square_of_at_least_18_mm(landscape):
    for slug in SLUGS:
        image = draw_back(engines.ENGINES[slug], landscape=landscape).convert("RGB")
        px_per_mm = min(image.size) / CARD_MM
        (code,) = decoded(image)
        top = min(p.y for p in (code.position.top_left, code.position.top_right))
        middle = image.width // 2
        # Along the row just above the symbol, inside its quiet zone: white all the way across.
        row = top - 3
        left = right = middle
        while image.getpixel((left - 1, row)) == WHITE:
            left -= 1
        while image.getpixel((right + 1, row)) == WHITE:
            right += 1
        assert (right - left + 1) / px_per_mm >= 18, slug


@pytest.mark.parametrize("landscape", TURNS.values(), ids=TURNS.keys())
@pytest.mark.parametrize("slug", SLUGS)
def test_the_name_and_the_proxy_line_are_drawn_whole_and_clear_of_the_cut(
    monkeypatch, slug, landscape
):
    spy = TextSpy(monkeypatch)
    engine = engines.ENGINES[slug]
    image = draw_back(engine, landscape=landscape)
    name_lines = [text for text in spy.texts if text != PROXY_LINE]
    assert " ".join(name_lines) == engine.name
    assert PROXY_LINE in spy.texts
    for text, (left, top, right, bottom), size in spy.drawn:
        assert left >= MARGIN and top >= MARGIN, text
        assert right <= image.width - MARGIN and bottom <= image.height - MARGIN, text
        # The name stays out of the half the code lies in: the other half is its turned copy.
        assert bottom <= image.height / 2 - back.QR_PANEL / 2, text
        if text != PROXY_LINE:
            # At least 3.5 mm tall, the name reads from across a table.
            assert size >= 3.5 * min(image.size) / CARD_MM, text


def test_a_name_too_long_for_the_back_is_shrunk_and_cut_short_never_spilt(monkeypatch):
    long_name = "The Exceedingly Long and Entirely Invented Name of a Sixth Game " * 3
    engine = replace(engines.ENGINES["fate-foretold"], name=long_name.strip())
    spy = TextSpy(monkeypatch)
    image = draw_back(engine, landscape=True)
    name_lines = [text for text in spy.texts if text != PROXY_LINE]
    assert 1 <= len(name_lines) <= 3
    assert name_lines[-1].endswith("…")
    for text, (left, top, right, bottom), _ in spy.drawn:
        assert left >= MARGIN and right <= image.width - MARGIN, text
        assert top >= MARGIN and bottom <= image.height / 2 - back.QR_PANEL / 2, text


@pytest.mark.parametrize("slug", SLUGS)
def test_a_back_reads_the_same_either_way_up(slug):
    image = draw_back(engines.ENGINES[slug]).convert("RGB")
    difference = ImageChops.difference(image, image.rotate(180))
    # Everything but the code, which a phone reads either way up anyway.
    side = back.QR_PANEL + 16
    left, top = (image.width - side) // 2, (image.height - side) // 2
    difference.paste((0, 0, 0), (left, top, left + side, top + side))
    assert max(difference.convert("L").getextrema()) <= 8


def test_every_backs_name_and_proxy_line_are_legible_on_its_field():
    for slug in SLUGS:
        field, accent = (hex_rgb(c) for c in engines.ENGINES[slug].face.back.colours)
        assert contrast(WHITE, field) >= 7, slug
        assert contrast(mix(accent, WHITE, 0.3), field) >= 4.5, slug


def test_the_five_games_have_five_different_designs():
    designs = [engines.ENGINES[slug].face.back for slug in SLUGS]
    assert len({d.pattern for d in designs}) == len(designs)
    assert len({d.colours for d in designs}) == len(designs)
    assert len({d.colours[0] for d in designs}) == len(designs)
    pictures = {draw_back(engines.ENGINES[slug]).tobytes() for slug in SLUGS}
    assert len(pictures) == len(SLUGS)


def test_every_pattern_the_engines_may_name_can_be_drawn(monkeypatch):
    assert set(PATTERNS) == set(BACK_PATTERNS)
    drawn = set()
    for pattern in BACK_PATTERNS:
        with_back(monkeypatch, "conquest-of-fates", pattern=pattern)
        image = draw_back(engines.ENGINES["conquest-of-fates"])
        assert len(decoded(image)) == 1
        drawn.add(image.tobytes())
    assert len(drawn) == len(BACK_PATTERNS)


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"colours": ("#1E2250", "E3B448")}, "#RRGGBB"),
        ({"colours": ("#1E2250", "#E3B44")}, "#RRGGBB"),
        ({"colours": ("#1E2250", "gold")}, "#RRGGBB"),
        ({"colours": ("#1E2250",)}, "two"),
        ({"colours": ("#1E2250", "#E3B448", "#FFFFFF")}, "two"),
        ({"pattern": "strs"}, "unknown card back pattern 'strs'"),
    ],
)
def test_a_misspelt_back_design_is_refused_when_the_engine_is_made(changes, message):
    with pytest.raises(ValueError, match=message):
        CardBack(**changes)


class TestTheCachedFile:
    def test_each_back_is_drawn_once_then_read_from_its_file(self):
        first = back_file("conquest-of-orion")
        written = first.stat().st_mtime_ns
        again = back_file("conquest-of-orion")
        assert again == first and again.stat().st_mtime_ns == written
        assert first.parent == settings.MEDIA_ROOT / "backs"
        assert [p.name for p in first.parent.iterdir()] == [first.name]
        assert Image.open(first).size == (750, 1050)

    def test_portrait_and_landscape_backs_are_kept_side_by_side(self):
        portrait = back_file("fate-foretold")
        landscape = back_file("fate-foretold", landscape=True)
        assert portrait != landscape and portrait.exists() and landscape.exists()
        assert Image.open(landscape).size == (1050, 750)

    def test_a_new_drawing_gives_a_new_file_and_removes_the_old(self, monkeypatch):
        old = back_file("conquest-of-fates")
        other_game = back_file("conquest-of-orion")
        monkeypatch.setattr(back, "BACK_FORMAT", back.BACK_FORMAT + 1)
        new = back_file("conquest-of-fates")
        assert new != old and new.exists() and not old.exists()
        assert other_game.exists()

    def test_new_colours_give_a_new_file_and_remove_the_old(self, monkeypatch):
        old = back_file("conquest-of-fates")
        before = back_version(engines.ENGINES["conquest-of-fates"])
        with_back(monkeypatch, "conquest-of-fates", colours=("#123456", "#FEDCBA"))
        assert back_version(engines.ENGINES["conquest-of-fates"]) != before
        new = back_file("conquest-of-fates")
        assert new != old and new.exists() and not old.exists()
        assert Image.open(new).convert("RGB").getpixel((5, 5)) == (0x12, 0x34, 0x56)

    def test_an_unknown_game_is_a_key_error(self):
        with pytest.raises(KeyError):
            back_file("no-such-game")


class TestTheBackView:
    def url(self, slug: str = "conquest-alpha-tactics") -> str:
        return reverse("catalogue:game-back", args=[slug])

    def test_it_reverses_under_the_games_page(self):
        assert self.url() == "/games/conquest-alpha-tactics/back.png"
        assert game_url(engines.ENGINES["conquest-alpha-tactics"]) == (
            settings.SITE_URL + "/games/conquest-alpha-tactics/"
        )

    @pytest.mark.parametrize("query,size", [("", (750, 1050)), ("?landscape=1", (1050, 750))])
    def test_it_returns_the_png_with_caching_headers(self, client, query, size):
        response = client.get(self.url() + query)
        assert response.status_code == 200
        assert response["Content-Type"] == "image/png"
        assert "public" in response["Cache-Control"] and "max-age=" in response["Cache-Control"]
        assert response["ETag"].startswith('"') and response["ETag"].endswith('"')
        assert Image.open(io.BytesIO(response.content)).size == size

    def test_a_matching_etag_gets_not_modified(self, client):
        first = client.get(self.url())
        again = client.get(self.url(), headers={"If-None-Match": first["ETag"]})
        assert again.status_code == 304
        assert again["ETag"] == first["ETag"] and not again.content

    def test_the_etag_changes_with_the_design(self, client, monkeypatch):
        first = client.get(self.url())
        with_back(monkeypatch, "conquest-alpha-tactics", pattern="waves")
        second = client.get(self.url(), headers={"If-None-Match": first["ETag"]})
        assert second.status_code == 200 and second["ETag"] != first["ETag"]

    def test_portrait_and_landscape_have_different_etags(self, client):
        assert client.get(self.url())["ETag"] != client.get(self.url() + "?landscape=1")["ETag"]

    @pytest.mark.parametrize(
        "value",
        ["2", "true", "yes", "", "01", "1.0", "²", "\u0661", "-1", "nan", "inf", "1" * 5000],
    )
    def test_a_landscape_other_than_0_or_1_is_a_400_naming_it(self, client, value):
        response = client.get(self.url(), {"landscape": value})
        assert response.status_code == 400
        assert "landscape" in response.content.decode()
        assert not (settings.MEDIA_ROOT / "backs").exists()

    def test_an_unknown_game_is_a_404(self, client):
        assert client.get(self.url("no-such-game")).status_code == 404
        assert client.get(self.url("no-such-game") + "?landscape=1").status_code == 404

    def test_other_parameters_are_ignored(self, client):
        assert client.get(self.url() + "?size=99999&landscape=0").status_code == 200


class TestThePages:
    def test_a_card_page_shows_its_games_back_beside_the_face(self, client):
        card = Card.objects.filter(game__slug="conquest-of-orion").first()
        html = client.get(card.get_absolute_url()).content.decode()
        back_url = reverse("catalogue:game-back", args=["conquest-of-orion"])
        assert f'src="{back_url}"' in html
        assert "proxy back for Conquest of Orion cards" in html
        assert "not the publisher" in html
        assert 'loading="lazy" width="750" height="1050"' in html
        assert "<summary>Show the back</summary>" in html

    def test_a_landscape_cards_page_shows_the_back_on_its_side(self, client):
        card = Card.objects.get(card_set__code="FF-SMP", name="Sample Sigil: The Crowned Heron")
        html = client.get(card.get_absolute_url()).content.decode()
        back_url = reverse("catalogue:game-back", args=["fate-foretold"])
        assert f'src="{back_url}?landscape=1"' in html
        assert 'loading="lazy" width="1050" height="750"' in html

    def test_a_game_page_shows_its_back(self, client):
        html = client.get(reverse("catalogue:game", args=["fate-foretold"])).content.decode()
        assert reverse("catalogue:game-back", args=["fate-foretold"]) in html
        assert "proxy back for Fate Foretold cards" in html


def test_the_readme_states_the_backs_limit_and_that_the_design_is_ours():
    text = docs_text()
    start = text.index("### Limits")
    limits = text[start : text.index("\n### ", start + 1)]
    (row,) = [line for line in limits.splitlines() if "/back.png?landscape=" in line]
    assert "`0` (the default) or `1`" in row and "400" in row and "404" in row
    assert "the site's design, not\nthe publisher's" in text
