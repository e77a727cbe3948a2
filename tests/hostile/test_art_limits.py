"""Card art larger than MAX_ART_SIDE a side or MAX_ART_PIXELS in all is refused from its header
alone, naming the limit, with nothing stored; what is stored is printed from one small copy."""

import io
import struct
import zlib

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from pypdf import PdfReader
from rest_framework.test import APIClient

from cardsite.catalogue.art import MAX_ART_PIXELS, MAX_ART_SIDE, PRINT_ART_FOLDER, PRINT_ART_SIDE
from cardsite.catalogue.models import Card
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db


def readme_limits() -> str:
    """The Limits table (docs/pages/operations.md), where each limit is stated for people."""
    text = docs_text()
    start = text.index("### Limits")
    return text[start : text.index("\n### ", start + 1)]


def png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "purple").save(buffer, format="PNG")
    return buffer.getvalue()


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares these dimensions but holds almost no data: what a bomb looks like
    to anything that reads only its header."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def curator(client):
    user = User.objects.create_user("curator", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name="Curators"))
    client.force_login(user)
    return user


@pytest.fixture
def card():
    return Card.objects.filter(card_set__code="COF-SMP", stats__has_key="cq").first()


def upload(client, card: Card, name: str, content: bytes):
    return client.post(
        f"/admin/catalogue/card/{card.id}/change/",
        {
            "game": card.game_id,
            "card_set": card.card_set_id,
            "number": card.number,
            "name": card.name,
            "card_type": card.card_type_id or "",
            "stats": '{"cq": 3}',
            "inferred": "[]",
            "art": SimpleUploadedFile(name, content, content_type="image/png"),
            "rulings-TOTAL_FORMS": "0",
            "rulings-INITIAL_FORMS": "0",
            "errata-TOTAL_FORMS": "0",
            "errata-INITIAL_FORMS": "0",
        },
    )


def stored_files(settings) -> list[str]:
    root = settings.MEDIA_ROOT
    return (
        [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()] if root.exists() else []
    )


def assert_refused(response, card: Card, settings, *phrases: str) -> None:
    assert response.status_code == 200  # the form again, with its error
    page = response.content.decode()
    assert f"at most {MAX_ART_SIDE:,} px on a side and {MAX_ART_PIXELS:,} pixels" in page
    for phrase in phrases:
        assert phrase in page
    card.refresh_from_db()
    assert not card.art
    assert stored_files(settings) == []


def test_art_one_pixel_wider_than_the_limit_is_refused_naming_it(client, curator, card, settings):
    response = upload(client, card, "wide.png", png(MAX_ART_SIDE + 1, 1))
    assert_refused(response, card, settings, "this image is 4,097 x 1 px")


# Pillow warns on opening a header above MAX_IMAGE_PIXELS (the art limit); the refusal is ours.
@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_art_of_more_than_sixteen_megapixels_is_refused_from_its_header(
    client, curator, card, settings
):
    response = upload(client, card, "big.png", png_header(4000, 4001))
    assert_refused(response, card, settings, "this image is 4,000 x 4,001 px")


def test_a_decompression_bomb_is_refused_without_being_decoded(client, curator, card, settings):
    bomb = png_header(100_000, 100_000)
    assert len(bomb) < 200
    response = upload(client, card, "bomb.png", bomb)
    assert_refused(response, card, settings, "this image declares far more")


def test_pillow_itself_refuses_to_open_a_bomb_anywhere_in_the_site():
    assert Image.MAX_IMAGE_PIXELS == MAX_ART_PIXELS
    with pytest.raises(Image.DecompressionBombError):
        Image.open(io.BytesIO(png_header(100_000, 100_000)))


def test_art_exactly_as_wide_as_the_limit_is_stored(client, curator, card):
    response = upload(client, card, "banner.png", png(MAX_ART_SIDE, 1))
    assert response.status_code == 302, response.content.decode()[:2000]
    card.refresh_from_db()
    assert card.art.name.startswith("art/banner")


def proxies_of(card: Card, copies: int) -> bytes:
    response = APIClient().post(
        "/api/v1/proxies.pdf",
        {
            "game": card.game.slug,
            "format": card.game.engine.formats[0].slug,
            "cards": [{"id": card.short_id, "quantity": copies}],
        },
        format="json",
    )
    assert response.status_code == 200, response.content[:300]
    return response.content


def image_sizes(pdf: bytes) -> set[tuple[int, int]]:
    sizes = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            image = ref.get_object()
            if image.get("/Subtype") == "/Image":
                sizes.add((int(image["/Width"]), int(image["/Height"])))
    return sizes


def with_art(card: Card, settings, content: bytes) -> Card:
    art = settings.MEDIA_ROOT / "art" / "painting.png"
    art.parent.mkdir(parents=True, exist_ok=True)
    art.write_bytes(content)
    card.art.name = "art/painting.png"
    card.save()
    return card


def test_art_is_printed_from_one_small_copy_made_once(card, settings):
    with_art(card, settings, png(2000, 1000))
    assert image_sizes(proxies_of(card, 12)) == {(PRINT_ART_SIDE, PRINT_ART_SIDE // 2)}
    copies = list((settings.MEDIA_ROOT / PRINT_ART_FOLDER).iterdir())
    assert len(copies) == 1
    made = copies[0].stat().st_mtime_ns

    proxies_of(card, 3)
    assert list((settings.MEDIA_ROOT / PRINT_ART_FOLDER).iterdir()) == copies
    assert copies[0].stat().st_mtime_ns == made


def test_art_stored_before_the_limits_is_left_out_of_a_sheet_not_decoded(card, settings, client):
    with_art(card, settings, png_header(20_000, 20_000))
    assert image_sizes(proxies_of(card, 1)) == set()
    assert not (settings.MEDIA_ROOT / PRINT_ART_FOLDER).exists()
    assert client.get(f"/cards/{card.short_id}/face.png").status_code == 200


def test_the_readme_states_the_art_limits():
    limits = readme_limits()
    assert f"**{MAX_ART_SIDE:,} px on a side and {MAX_ART_PIXELS:,} pixels**" in limits
    assert f"at most {PRINT_ART_SIDE:,} px a side" in limits
