import io

import pytest
import zxingcpp
from django.conf import settings
from django.core.files.base import ContentFile
from django.urls import reverse
from PIL import Image

from cardsite.catalogue import faces
from cardsite.catalogue.faces import SAMPLE_BAND_COLOUR, face_file, render_face
from cardsite.catalogue.models import Card, Faction
from cardsite.catalogue.selectors import card_get
from engines.base import CardTypeSpec, FaceLayout, GameEngine, StatField, StatKind, Zone

pytestmark = pytest.mark.django_db

# One card of every game, chosen for what makes its face different.
FACES = {
    "an Orion sample unit with every stat": ("ORI-SMP", "Reserve Battalion"),
    "an Orion rulebook unit with two stats": ("ORI-RB", "Cloudglider"),
    "a Tactics ship": ("TAC-SMP", "Sample: Akira-class Carrier"),
    "a Tactics target": ("TAC-SMP", "Sample: Cendara Prime"),
    "a two-faction Tactics card": ("TAC-RB", "Infantry"),
    "a Capital battle card": ("CFC-SMP", "Moonlit Ambush"),
    "a Capital upgrade": ("CFC-SMP", "Moonwell"),
    "a Conquest of Fates Apex unit": ("COF-SMP", "Mother-Seed Ylvanne"),
    "a Fate Foretold Nest card": ("FF-SMP", "The Mirror Maze"),
    "a Fate Foretold Sigil": ("FF-SMP", "Sample Sigil: The Crowned Heron"),
    "a Fate Foretold rulebook card": ("FF-RB", "The Insight"),
}


def card_named(set_code: str, name: str) -> Card:
    card = Card.objects.get(card_set__code=set_code, name=name)
    fetched = card_get(short_id=card.short_id)
    assert fetched is not None
    return fetched


def face_image(card: Card) -> Image.Image:
    return Image.open(io.BytesIO(render_face(card)))


def decoded_qr_texts(image: Image.Image) -> list[str]:
    found = zxingcpp.read_barcodes(image.convert("RGB"), formats=zxingcpp.BarcodeFormat.QRCode)
    return [barcode.text for barcode in found]


def band_pixels(image: Image.Image) -> int:
    rgb = image.convert("RGB")
    return sum(count for count, colour in rgb.getcolors(1 << 20) if colour == SAMPLE_BAND_COLOUR)


class TextSpy:
    """Records every piece of text a face draws, with the box it covers."""

    def __init__(self, monkeypatch):
        self.drawn: list[tuple[str, tuple[float, float, float, float]]] = []
        original = faces._Face.text
        spy = self

        def text(face, xy, text, style, size, fill, anchor="la"):
            box = face.draw_.textbbox(xy, text, font=faces.font(style, size), anchor=anchor)
            spy.drawn.append((text, box))
            original(face, xy, text, style, size, fill, anchor)

        monkeypatch.setattr(faces._Face, "text", text)

    @property
    def texts(self) -> list[str]:
        return [text for text, _ in self.drawn]


@pytest.mark.parametrize("set_code,name", FACES.values(), ids=FACES.keys())
def test_the_qr_code_on_a_face_decodes_to_the_cards_absolute_short_link(set_code, name):
    card = card_named(set_code, name)
    assert decoded_qr_texts(face_image(card)) == [settings.SITE_URL + card.get_short_url()]


def test_the_qr_code_still_decodes_when_the_face_is_printed_at_half_the_resolution():
    card = card_named("ORI-SMP", "Reserve Battalion")
    image = face_image(card)
    small = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    assert decoded_qr_texts(small) == [settings.SITE_URL + card.get_short_url()]


def test_the_qr_code_follows_the_site_url_setting(settings):
    settings.SITE_URL = "https://cards.example.org"
    card = card_named("COF-SMP", "Mother-Seed Ylvanne")
    assert decoded_qr_texts(face_image(card)) == [f"https://cards.example.org/c/{card.short_id}"]


def test_faces_are_portrait_playing_cards_and_sigils_are_landscape():
    assert face_image(card_named("COF-SMP", "Mother-Seed Ylvanne")).size == (750, 1050)
    assert face_image(card_named("FF-SMP", "Sample Sigil: The Crowned Heron")).size == (1050, 750)


def test_a_sample_cards_face_carries_the_unofficial_sample_band():
    card = card_named("ORI-SMP", "Reserve Battalion")
    assert card.is_sample
    with_band = band_pixels(face_image(card))
    card.card_set.is_official = True
    without_band = band_pixels(face_image(card))
    assert with_band > 10_000
    assert without_band < 100


def test_the_band_says_unofficial_sample(monkeypatch):
    spy = TextSpy(monkeypatch)
    render_face(card_named("FF-SMP", "Sample Sigil: The Crowned Heron"))
    assert "UNOFFICIAL SAMPLE" in spy.texts


def test_an_official_card_has_no_sample_band(monkeypatch):
    spy = TextSpy(monkeypatch)
    render_face(card_named("FF-RB", "The Insight"))
    assert "UNOFFICIAL SAMPLE" not in spy.texts


def test_a_card_with_no_stated_type_says_so_on_its_face_in_place_of_a_type(monkeypatch):
    spy = TextSpy(monkeypatch)
    card = card_named("TAC-RB", "Galaxy")
    assert card.card_type is None
    image = face_image(card)
    assert image.size == (750, 1050)
    assert "type not given" in spy.texts
    # The factions follow, as on a typed card; no type name is drawn anywhere.
    assert "  ·  Starfleet" in spy.texts
    typed = {t.name for t in card.game.card_types.all()}
    assert not any(t.split(" ")[0] in typed for t in spy.texts)


def test_a_face_with_no_type_is_drawn_again_when_a_type_is_given():
    card = card_named("TAC-RB", "Galaxy")
    untyped = faces.face_version(card)
    card.card_type = card.game.card_types.get(name="Ship")
    assert faces.face_version(card) != untyped


def test_a_face_prints_the_name_type_stats_keywords_and_set_information(monkeypatch):
    spy = TextSpy(monkeypatch)
    card = card_named("ORI-SMP", "Siege Dreadnought")
    render_face(card)
    texts = spy.texts
    assert "Siege Dreadnought" in texts
    assert any(t.startswith("Unit — Starship") and "Humans" in t for t in texts)
    for symbol, value in [("BLUE", 3), ("GOLD", 3), ("TIER", 3), ("DMG", 8), ("HP", 10)]:
        assert symbol in texts
        assert str(value) in texts
    assert {"Orbital range", "Sweep"} <= {t.strip() for t in texts}  # keywords, in bold
    assert any("ORI-SMP" in t and "No. 10" in t and "Gold" in t for t in texts)


def test_a_stat_the_card_lacks_is_not_drawn_at_all(monkeypatch):
    spy = TextSpy(monkeypatch)
    card = card_named("ORI-RB", "Cloudglider")
    assert card.stats == {"damage": 4, "health": 5}
    render_face(card)
    assert {"DMG", "HP", "4", "5"} <= set(spy.texts)
    for missing in ["SHLD", "REGEN", "BLUE", "GOLD", "RED", "TIER", "0", "?", "-", "—"]:
        assert missing not in spy.texts


def test_tactics_cards_show_their_effect_type_letter_and_faction_abbreviations(monkeypatch):
    spy = TextSpy(monkeypatch)
    render_face(card_named("TAC-RB", "Armada"))
    assert {"R", "S", "V"} <= set(spy.texts)
    assert "Scoring Effect" in spy.texts  # the letter's meaning, printed beside it


def test_a_capital_upgrade_shows_its_stars_and_timing(monkeypatch):
    spy = TextSpy(monkeypatch)
    render_face(card_named("CFC-SMP", "Moonwell"))
    assert "★★☆" in spy.texts
    assert any("Active effect" in t for t in spy.texts)


def test_a_card_with_no_stats_renders():
    card = card_named("TAC-RB", "Raptor")
    assert card.stats == {}
    image = face_image(card)
    assert image.size == (750, 1050)
    assert decoded_qr_texts(image) == [settings.SITE_URL + card.get_short_url()]


def test_a_card_with_no_factions_gets_a_neutral_grey_frame():
    card = card_named("TAC-RB", "Teleporter")
    assert not card.factions.exists()
    r, g, b, _ = face_image(card).getpixel((20, 300))
    assert abs(r - g) < 12 and abs(g - b) < 20


def test_a_two_faction_card_splits_its_frame_between_both_colours():
    card = card_named("TAC-RB", "Infantry")
    colours = {faces.hex_rgb(f.colour) for f in card.factions.all()}
    assert len(colours) == 2
    image = face_image(card).convert("RGB")
    left, right = image.getpixel((20, 60)), image.getpixel((image.width - 21, 60))
    assert left != right

    def nearest(pixel):
        return min(colours, key=lambda c: sum(abs(a - b) for a, b in zip(c, pixel, strict=True)))

    assert {nearest(left), nearest(right)} == colours


def test_a_very_long_rules_text_shrinks_to_fit_its_box(monkeypatch):
    card = card_named("COF-SMP", "Mother-Seed Ylvanne")
    card.rules_text = "Throughout the Battle: " + "Allied units gain +1 CQ and draw a card. " * 80
    card.flavour_text = "A flavour text that cannot possibly fit as well."
    spy = TextSpy(monkeypatch)
    image = face_image(card)
    assert decoded_qr_texts(image) == [settings.SITE_URL + card.get_short_url()]
    text_box = faces.regions(landscape=False).text
    body = [box for text, box in spy.drawn if "Allied" in text or "units" in text]
    assert body, "the rules text was drawn"
    for left, top, right, bottom in body:
        assert text_box[0] <= left and right <= text_box[2]
        assert text_box[1] <= top and bottom <= text_box[3]


@pytest.mark.parametrize("set_code,name", FACES.values(), ids=FACES.keys())
def test_no_text_spills_outside_the_panel_it_belongs_to(monkeypatch, set_code, name):
    spy = TextSpy(monkeypatch)
    card = card_named(set_code, name)
    card.name = card.name + " of the Exceedingly Long and Winding Name That Never Ends"
    card.artist = "An Artist With A Remarkably Long Name, Assisted By Another"
    render_face(card)
    layout = faces.regions(card.card_type is not None and card.card_type.name == "Sigil")
    panels = [layout.title, layout.art, layout.type_line, layout.text, layout.info, layout.qr]
    panels.append(layout.band)
    for text, (left, top, right, bottom) in spy.drawn:
        assert any(
            p[0] <= left and right <= p[2] and p[1] <= top and bottom <= p[3] for p in panels
        ), f"{text!r} at {(left, top, right, bottom)} is outside every panel"


def test_uploaded_art_is_drawn_in_the_art_box():
    card = card_named("COF-SMP", "Choir Acolyte")
    placeholder = face_image(card).convert("RGB")
    art = io.BytesIO()
    Image.new("RGB", (400, 300), (255, 0, 255)).save(art, format="PNG")
    card.art.save("acolyte.png", ContentFile(art.getvalue()), save=False)
    drawn = face_image(card).convert("RGB")
    middle = ((faces.regions(False).art[0] + faces.regions(False).art[2]) // 2, 250)
    assert drawn.getpixel(middle) == (255, 0, 255)
    assert placeholder.getpixel(middle) != (255, 0, 255)


def test_rendering_an_unchanged_card_again_reuses_the_cached_file(monkeypatch):
    card = card_named("ORI-SMP", "Reserve Battalion")
    first = face_file(card)
    assert first.exists()
    assert first.parent == settings.MEDIA_ROOT / "faces"
    assert first.name.startswith(f"{card.short_id}-") and first.suffix == ".png"

    def no_drawing(_face):
        raise AssertionError("an unchanged card was drawn again")

    monkeypatch.setattr(faces._Face, "draw", no_drawing)
    assert face_file(card_named("ORI-SMP", "Reserve Battalion")) == first


def test_changing_a_cards_text_gives_a_new_face_file_and_removes_the_old_one():
    card = card_named("ORI-SMP", "Reserve Battalion")
    old = face_file(card)
    card.rules_text = "Deploy 2 Blue."
    card.save()
    new = face_file(card)
    assert new != old
    assert new.exists()
    assert not old.exists()
    assert [p.name for p in new.parent.glob(f"{card.short_id}-*")] == [new.name]


def test_changing_a_cards_factions_or_set_status_gives_a_new_face():
    card = card_named("TAC-RB", "Raptor")
    before = face_file(card)
    card.factions.add(Faction.objects.get(game=card.game, name="Vulcan"))
    after_faction = face_file(card_named("TAC-RB", "Raptor"))
    assert after_faction != before
    card.card_set.is_official = False
    assert face_file(card) != after_faction


def test_faces_of_different_cards_do_not_remove_each_other():
    one = face_file(card_named("FF-SMP", "The Mirror Maze"))
    two = face_file(card_named("FF-SMP", "The Ember Vow"))
    assert one.exists() and two.exists()


def test_an_engine_without_a_face_layout_gets_the_empty_default():
    engine = GameEngine(
        slug="sixth",
        name="A Sixth Game",
        rulebook="sixth.txt",
        stats=(StatField("power", "Power", StatKind.INTEGER, "Power."),),
        card_types=(CardTypeSpec("Card", zone="main", source="-"),),
        zones=(Zone("main", "Deck", "The deck."),),
    )
    assert engine.face == FaceLayout()


def test_a_face_layout_naming_an_unknown_stat_is_refused():
    with pytest.raises(ValueError, match="unknown stats"):
        GameEngine(
            slug="sixth",
            name="A Sixth Game",
            rulebook="sixth.txt",
            stats=(),
            card_types=(),
            zones=(),
            face=FaceLayout(corner_stats=("power",)),
        )


class TestTheFaceView:
    def test_it_returns_the_png_with_caching_headers(self, client):
        card = card_named("COF-SMP", "Mother-Seed Ylvanne")
        response = client.get(f"/cards/{card.short_id}/face.png")
        assert response.status_code == 200
        assert response["Content-Type"] == "image/png"
        assert "public" in response["Cache-Control"]
        assert "max-age=" in response["Cache-Control"]
        assert response["ETag"].startswith('"') and response["ETag"].endswith('"')
        body = b"".join(response.streaming_content)
        response.getvalue()  # drain the stream; close() would end the DB connection
        assert body == face_file(card).read_bytes()
        assert Image.open(io.BytesIO(body)).format == "PNG"

    def test_a_matching_etag_gets_not_modified(self, client):
        card = card_named("COF-SMP", "Mother-Seed Ylvanne")
        first = client.get(f"/cards/{card.short_id}/face.png")
        first.getvalue()  # drain the stream; close() would end the DB connection
        again = client.get(
            f"/cards/{card.short_id}/face.png", headers={"If-None-Match": first["ETag"]}
        )
        assert again.status_code == 304
        assert again["ETag"] == first["ETag"]

    def test_the_etag_changes_when_the_card_does(self, client):
        card = card_named("COF-SMP", "Mother-Seed Ylvanne")
        first = client.get(f"/cards/{card.short_id}/face.png")
        first.getvalue()  # drain the stream; close() would end the DB connection
        card.rules_text = "Throughout the Battle: Allied units have +2 CQ."
        card.save()
        second = client.get(f"/cards/{card.short_id}/face.png")
        second.getvalue()  # drain the stream; close() would end the DB connection
        assert second["ETag"] != first["ETag"]

    def test_an_unknown_card_is_a_404(self, client):
        assert client.get("/cards/zzzzzzzz/face.png").status_code == 404

    def test_it_reverses_as_catalogue_card_face_and_the_card_page_shows_it(self, client):
        card = card_named("COF-SMP", "Mother-Seed Ylvanne")
        url = reverse("catalogue:card-face", args=[card.short_id])
        assert url == f"/cards/{card.short_id}/face.png"
        assert url in client.get(card.get_absolute_url()).content.decode()


def test_the_fonts_ship_with_the_site_with_their_licence():
    for name in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"]:
        path = faces.FONT_DIR / name
        assert path.stat().st_size < 2_000_000
    assert "Bitstream" in (faces.FONT_DIR / "LICENSE.txt").read_text()
