"""Proxy PDFs read back as a printer and a phone would: sizes, boxes and QR codes."""

import io

import pypdfium2
import pytest
import zxingcpp
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.proxies import MM, SheetOptions, layout, parse_options
from decks.services import Intake, RequestedCard, deck_create
from engines.errors import InputError

pytestmark = pytest.mark.django_db
DPI = 200


@pytest.fixture
def owner():
    return User.objects.create_user("printer", password="x-Long-pass-9")


def make_deck(owner, visibility="public", count=11):
    game = Game.objects.get(slug="conquest-of-orion")
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
        "number_sort"
    )[:count]
    return deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name="Print me",
        visibility=visibility,
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


def get_pdf(client, deck, **params):
    response = client.get(f"/decks/{deck.share_key}/proxies.pdf", params)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def trim_boxes(page):
    """Rectangles that are stroked, not filled, in the content stream: the cards' trim boxes."""
    stroked, pending = [], []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"re":
            pending.append(tuple(float(v) for v in operands))
        elif op in (b"S", b"s"):
            stroked += pending
            pending = []
        elif op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            pending = []
    return stroked


def decode(pdf, page_index):
    document = pypdfium2.PdfDocument(pdf)
    image = document[page_index].render(scale=DPI / 72).to_pil()
    return image, zxingcpp.read_barcodes(image)


@pytest.mark.parametrize(("paper", "size_mm"), [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_page_sizes_are_exact(client, owner, paper, size_mm):
    reader = PdfReader(io.BytesIO(get_pdf(client, make_deck(owner), paper=paper)))
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size_mm[0] * MM, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size_mm[1] * MM, abs=0.01)


@pytest.mark.parametrize(("size", "mm"), [("63x88", (63, 88)), ("2.5x3.5", (63.5, 88.9))])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_boxes_are_true_size_within_a_tenth_of_a_millimetre(client, owner, size, mm, paper):
    reader = PdfReader(
        io.BytesIO(get_pdf(client, make_deck(owner, count=9), size=size, paper=paper))
    )
    boxes = [b for b in trim_boxes(reader.pages[1]) if b[2] > 50 * MM and b[3] > 80 * MM]
    cards = [b for b in boxes if abs(b[2] / MM - mm[0]) < 0.1 and abs(b[3] / MM - mm[1]) < 0.1]
    assert len(cards) == 9


def test_each_card_has_exactly_one_qr_code_with_its_url_inside_its_cell(client, owner):
    deck = make_deck(owner, count=11)
    # A gap and bleed that still leave room for the deck's code under the grid (A4).
    pdf = get_pdf(client, deck, gap=1, bleed=0.25)
    lay = layout(SheetOptions(gap=1, bleed=0.25))
    assert lay.bleed == 0.25 and lay.footer.qr is not None
    names = sorted(e.card.name for e in deck.entries.select_related("card"))
    expected = {
        f"http://testserver/c/{e.card.short_id}" for e in deck.entries.select_related("card")
    }
    seen = []
    px = DPI / 25.4
    for page_index in (1, 2):
        image, codes = decode(pdf, page_index)
        height = image.height
        card_codes = [c for c in codes if "/c/" in c.text]
        deck_codes = [c for c in codes if c.text.endswith(f"/decks/{deck.share_key}/")]
        assert len(deck_codes) == 1  # the footer's, outside every cell
        for code in card_codes:
            xs = [p.x for p in (code.position.top_left, code.position.bottom_right)]
            ys = [p.y for p in (code.position.top_left, code.position.bottom_right)]
            cx, cy = sum(xs) / 2 / px, (height - sum(ys) / 2) / px  # mm from bottom-left
            inside = [
                i
                for i, (x, y) in enumerate(lay.cells)
                if x <= cx <= x + lay.card[0] and y <= cy <= y + lay.card[1]
            ]
            assert len(inside) == 1, (code.text, cx, cy)
            seen.append((page_index, inside[0], code.text))
    assert len(seen) == 11 == len(names)
    assert {text for _, _, text in seen} == expected
    assert len({(p, cell) for p, cell, _ in seen}) == 11  # one code per cell


def test_the_qr_urls_lead_to_the_right_card_pages(client, owner):
    deck = make_deck(owner, count=3)
    _, codes = decode(get_pdf(client, deck), 1)
    by_url = {
        f"http://testserver/c/{e.card.short_id}": e.card
        for e in deck.entries.select_related("card")
    }
    for code in [c for c in codes if "/c/" in c.text]:
        path = code.text.removeprefix("http://testserver")
        page = client.get(path, follow=True)
        assert page.status_code == 200
        assert by_url[code.text].name in page.content.decode()


def test_the_calibration_page_has_a_50mm_ruler_and_says_print_at_actual_size(client, owner):
    reader = PdfReader(io.BytesIO(get_pdf(client, make_deck(owner, count=1))))
    text = reader.pages[0].extract_text()
    assert "Print at 100% / actual size" in text and "50 mm" in text


def test_fonts_are_embedded(client, owner):
    reader = PdfReader(io.BytesIO(get_pdf(client, make_deck(owner, count=2))))
    fonts = reader.pages[1]["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        if "/DescendantFonts" in font:
            font = font["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in font["/FontDescriptor"], font.get("/BaseFont")


def test_sample_cards_read_unofficial_sample(client, owner):
    text = PdfReader(io.BytesIO(get_pdf(client, make_deck(owner, count=2)))).pages[1].extract_text()
    assert text.count("UNOFFICIAL SAMPLE") == 2


def test_backs_follow_each_page_mirrored_for_long_edge_flipping(client, owner):
    reader = PdfReader(io.BytesIO(get_pdf(client, make_deck(owner, count=11), backs=1)))
    # The calibration page and its blank back, then fronts and backs twice.
    assert len(reader.pages) == 2 + 2 * 2
    lay = layout(SheetOptions())
    assert lay.mirrored(0) == lay.cells[2] and lay.mirrored(5) == lay.cells[3]
    backs = [b for b in trim_boxes(reader.pages[5]) if abs(b[2] / MM - 63) < 0.1]
    # 2 cards on the last page: their backs sit at the right of the first row
    assert sorted(round(b[0] / MM, 1) for b in backs) == sorted(
        round(lay.mirrored(i)[0], 1) for i in range(2)
    )


def test_art_is_embedded_once_however_often_it_is_printed(client, owner, settings, tmp_path):
    image = tmp_path / "art.png"
    Image.new("RGB", (300, 200), "purple").save(image)
    card = (
        Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans")
        .order_by("number_sort")
        .first()
    )
    settings.MEDIA_ROOT = tmp_path
    card.art.name = "art.png"
    card.save()
    game = Game.objects.get(slug="conquest-of-orion")
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name="Art",
        visibility="public",
        intake=Intake(tuple([RequestedCard(12, None, card.short_id)])),
    )
    reader = PdfReader(io.BytesIO(get_pdf(client, deck)))
    images = set()
    for page in reader.pages[1:]:
        for obj in page["/Resources"].get("/XObject", {}).values():
            images.add(obj.idnum)
    assert len(images) == 1


@pytest.mark.parametrize(
    ("params", "option"),
    [
        ({"paper": "a3"}, "paper"),
        ({"size": "huge"}, "size"),
        ({"bleed": "5"}, "bleed"),
        ({"gap": "-1"}, "gap"),
        ({"gap": "lots"}, "gap"),
        ({"backs": "maybe"}, "backs"),
        ({"colour": "red"}, "colour"),
        ({"paper": "letter", "gap": "9"}, "gap"),
    ],
)
def test_a_bad_option_is_a_400_naming_it(client, owner, params, option):
    deck = make_deck(owner, count=1)
    web = client.get(f"/decks/{deck.share_key}/proxies.pdf", params)
    assert web.status_code == 400 and option in web.content.decode()
    api = APIClient().get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", params)
    assert api.status_code == 400 and option in api.json()["errors"]


def test_the_api_serves_the_same_pdf_even_to_a_client_asking_for_pdf(owner):
    deck = make_deck(owner, count=1)
    response = APIClient().get(
        f"/api/v1/decks/{deck.share_key}/proxies.pdf", HTTP_ACCEPT="application/pdf"
    )
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_a_private_decks_proxies_are_a_404_for_others(client, owner):
    deck = make_deck(owner, "private", count=1)
    assert client.get(f"/decks/{deck.share_key}/proxies.pdf").status_code == 404
    assert APIClient().get(f"/api/v1/decks/{deck.share_key}/proxies.pdf").status_code == 404
    client.force_login(owner)
    assert client.get(f"/decks/{deck.share_key}/proxies.pdf").status_code == 200


def test_bleed_is_given_only_where_the_page_allows():
    assert layout(SheetOptions(bleed=3, gap=0)).bleed == 0  # it would cover the next card
    assert layout(SheetOptions(bleed=3, gap=6)).bleed < 3  # A4 has no room for 3 mm here
    assert layout(SheetOptions(paper="letter", size="2.5x3.5")).footer.rotated


def test_options_parse_from_query_parameters():
    assert parse_options(
        {"paper": "letter", "size": "2.5x3.5", "bleed": "1", "gap": "2", "backs": "1"}
    ) == (SheetOptions("letter", "2.5x3.5", 1.0, 2.0, True))
    with pytest.raises(InputError, match="bleed"):
        parse_options({"bleed": "4"})


def test_the_command_writes_a_pdf_from_a_deck_or_a_text_list(owner, tmp_path):
    deck = make_deck(owner, count=2)
    out = tmp_path / "deck.pdf"
    call_command("proxies", f"--deck={deck.share_key}", "-o", str(out), stdout=io.StringIO())
    assert len(PdfReader(out).pages) == 2
    decklist = tmp_path / "list.txt"
    decklist.write_text("3 Cloudglider\n1 Heliokraken\n", encoding="utf-8")
    out2 = tmp_path / "list.pdf"
    call_command(
        "proxies",
        "--list",
        str(decklist),
        "--game",
        "conquest-of-orion",
        "-o",
        str(out2),
        "--paper",
        "letter",
        stdout=io.StringIO(),
    )
    assert "Cloudglider" in PdfReader(out2).pages[1].extract_text()


def test_the_command_refuses_a_list_with_unknown_cards_and_writes_nothing(tmp_path):
    decklist = tmp_path / "list.txt"
    decklist.write_text("1 Cloudgliderr\n", encoding="utf-8")
    out = tmp_path / "x.pdf"
    with pytest.raises(CommandError, match="name no card"):
        call_command(
            "proxies",
            "--list",
            str(decklist),
            "--game",
            "conquest-of-orion",
            "-o",
            str(out),
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    assert not out.exists()


def test_any_list_of_cards_can_be_printed_through_the_api():
    body = {
        "game": "conquest-of-orion",
        "format": "constructed",
        "text": "2 Cloudglider\n1 Osiris\n",
    }
    response = APIClient().post("/api/v1/proxies.pdf?paper=letter", body, format="json")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert reader.pages[1].extract_text().count("Cloudglider") >= 2
    bad = APIClient().post(
        "/api/v1/proxies.pdf", {**body, "text": "1 Cloudgliderr\n"}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["problems"][0]["code"] == "unknown_card"
