"""Backs pages read back from the PDF: the game's own back in every mirrored cell at trim size,
its field colour in the bleed, and the whole page moved by the printer's back offset (the
fronts never move). Offsets out of range or not plain numbers are 400s naming the option.
Printed double-sided, every page of cards falls on the front of a sheet of paper with its
backs behind it, in every game."""

import io

import numpy as np
import pypdfium2
import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from PIL import Image
from pypdf import PdfReader
from rest_framework.test import APIClient

from cardsite.catalogue.faces.back import back_file, game_url
from cardsite.catalogue.models import Card, Game
from decks.exports.printing import deck_order, print_order
from decks.proxies import MAX_BACK_OFFSET, MM, SheetOptions, layout, parse_options
from decks.services import Intake, RequestedCard, deck_create
from engines import ENGINES, get_engine
from engines.errors import InputError
from tests.decks.pdf_marks import marks
from tests.decks.printed import qpdf_check, rasterise, scan

pytestmark = pytest.mark.django_db
GAME = "conquest-of-orion"


@pytest.fixture
def owner():
    return User.objects.create_user("backs", password="x-Long-pass-9")


def make_deck(owner, count=11):
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
        "number_sort"
    )[:count]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=GAME),
        format_slug="constructed",
        name="Backs",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def pdf_pages(client, deck, **params):
    response = client.get(f"/decks/{deck.share_key}/proxies.pdf", {"backs": "1", **params})
    assert response.status_code == 200, response.content[:300]
    return PdfReader(io.BytesIO(response.content)).pages


def card_sized(boxes, lay):
    w, h = (v * MM for v in lay.card)
    return sorted(
        (round(x, 3), round(y, 3))
        for x, y, bw, bh in boxes
        if abs(bw - w) < 0.1 * MM and abs(bh - h) < 0.1 * MM
    )


def game_deck(owner, slug, count):
    """A deck of the game's first `count` cards by short id, one copy of each."""
    engine = get_engine(slug)
    cards = Card.objects.filter(game__slug=slug).order_by("short_id")[:count]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=slug),
        format_slug=engine.formats[0].slug,
        name=f"{engine.name} duplex",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_printed_duplex_each_page_of_cards_is_odd_with_its_backs_mirrored_behind_it(
    client, owner, slug, tmp_path
):
    deck = game_deck(owner, slug, count=11)  # pages of 9 and 2 cards
    response = client.get(f"/decks/{deck.share_key}/proxies.pdf", {"backs": "1"})
    assert response.status_code == 200, response.content[:300]
    pages = PdfReader(io.BytesIO(response.content)).pages
    order = deck_order(deck, SheetOptions(backs=True))
    names = dict(
        Card.objects.filter(pk__in=[pk for pk, _ in order["entries"]]).values_list("pk", "name")
    )
    copies = [names[pk] for pk, quantity in order["entries"] for _ in range(quantity)]
    chunks = [copies[i : i + 9] for i in range(0, len(copies), 9)]
    assert [len(chunk) for chunk in chunks] == [9, 2]
    # The calibration page and its blank back are the first sheet of paper.
    assert len(pages) == 2 + 2 * len(chunks) and len(pages) % 2 == 0
    first = pages[0].extract_text()
    assert "Print at 100% / actual size" in first
    assert "flipping on the long edge. This page's back is blank," in first
    blank = marks(pages[1])
    assert (blank.stroked, blank.filled, blank.images, blank.lines) == ([], [], [], [])
    assert "left blank" in pages[1].extract_text()
    lay = layout(SheetOptions(backs=True))
    for k, chunk in enumerate(chunks, start=1):
        # Page 2k+1 holds the k-th page of cards, page 2k+2 (its back) their backs, mirrored.
        fronts, backs = pages[2 * k], pages[2 * k + 1]
        where = sorted((round(x * MM, 3), round(y * MM, 3)) for x, y in lay.cells[: len(chunk)])
        mirrored = sorted(
            (round(x * MM, 3), round(y * MM, 3)) for x, y in map(lay.mirrored, range(len(chunk)))
        )
        assert card_sized(marks(fronts).stroked, lay) == where
        text = fronts.extract_text()
        assert all(name in text for name in chunk), (k, chunk)
        assert f"page {k} of {len(chunks)}" in text
        assert card_sized([box for box, _ in marks(backs).images], lay) == mirrored
        assert backs.extract_text().strip() == ""
    checked = qpdf_check(response.content, tmp_path)
    assert checked.returncode == 0 and "No syntax or stream encoding errors" in checked.stdout
    # Each back's own code, to the game's page, reads as printed at 150 dpi.
    (first_backs,) = rasterise(response.content, tmp_path / "pages", pages="4")
    assert scan(first_backs) == [game_url(get_engine(slug))] * 9


def test_every_mirrored_cell_shows_the_games_back_at_trim_size(client, owner):
    pages = pdf_pages(client, make_deck(owner, count=11))
    lay = layout(SheetOptions(backs=True))
    for page, count in ((pages[3], 9), (pages[5], 2)):
        found = marks(page)
        expected = sorted(
            (round(x * MM, 3), round(y * MM, 3)) for x, y in map(lay.mirrored, range(count))
        )
        assert card_sized([box for box, _ in found.images], lay) == expected
        assert card_sized(found.stroked, lay) == expected  # the trim boxes
        assert len({name for _, name in found.images}) == 1
    # The picture drawn is the game's back itself, embedded once for the whole sheet.
    embedded = pages[3].images[0].image.convert("RGB")
    with Image.open(back_file(GAME)) as back:
        assert np.array_equal(np.asarray(embedded), np.asarray(back.convert("RGB")))
    assert pages[3]["/Resources"]["/XObject"] == pages[5]["/Resources"]["/XObject"]


def test_the_bleed_around_each_back_is_the_backs_field_colour(client, owner):
    pages = pdf_pages(client, make_deck(owner, count=3), bleed="1", gap="2")
    lay = layout(SheetOptions(bleed=1, gap=2, backs=True))
    b = lay.bleed * MM
    field = get_engine(GAME).face.back.colours[0]
    rgb = tuple(round(int(field[i : i + 2], 16) / 255, 2) for i in (1, 3, 5))
    bleeds = [
        (box, colour)
        for box, colour in marks(pages[3]).filled
        if abs(box[2] - (lay.card[0] * MM + 2 * b)) < 0.01
        and abs(box[3] - (lay.card[1] * MM + 2 * b)) < 0.01
    ]
    assert len(bleeds) == 3
    for (x, y, _, _), colour in bleeds:
        assert tuple(round(c, 2) for c in colour) == rgb
        assert any(
            abs(x + b - cx * MM) < 0.01 and abs(y + b - cy * MM) < 0.01
            for cx, cy in map(lay.mirrored, range(3))
        )


@pytest.mark.parametrize(("x", "y"), [(1.3, -2.7), (-5, 5), (0.4, 0)])
def test_each_backs_page_moves_by_the_offset_and_the_fronts_do_not(client, owner, x, y):
    deck = make_deck(owner, count=11)
    still = pdf_pages(client, deck)
    moved = pdf_pages(client, deck, back_offset_x=str(x), back_offset_y=str(y))
    # Right and up as the printer's error is read from the front: cancelled by (+x, -y) in
    # the backs page's own coordinates.
    dx, dy = x * MM, -y * MM
    for index in (3, 5):
        before, after = marks(still[index]), marks(moved[index])
        for name in ("stroked", "images", "lines"):
            a = [item[0] if name != "stroked" else item for item in getattr(before, name)]
            b = [item[0] if name != "stroked" else item for item in getattr(after, name)]
            assert len(a) == len(b) > 0
            for old, new in zip(a, b, strict=True):
                assert abs((new[0] - old[0]) / MM - x) < 0.1, name  # to 0.1 mm, and exactly:
                assert new[0] - old[0] == pytest.approx(dx, abs=1e-3)
                assert new[1] - old[1] == pytest.approx(dy, abs=1e-3)
    for index in (2, 4):  # the fronts: every mark and every word where it was
        assert marks(moved[index]) == marks(still[index])
        assert moved[index].extract_text() == still[index].extract_text()


def test_the_first_page_says_what_the_backs_are_shifted_by(client, owner):
    pages = pdf_pages(client, make_deck(owner, count=1), back_offset_x="1.3", back_offset_y="-2.7")
    text = pages[0].extract_text()
    assert "x +1.3 mm, y \N{MINUS SIGN}2.7 mm" in text
    assert "http://testserver/proxies/calibration.pdf" in text


def test_a_queued_order_without_a_game_slug_still_prints_its_games_back(owner):
    order = deck_order(make_deck(owner, count=2), SheetOptions(backs=True))
    del order["game_slug"]  # as a job queued before the slug was part of an order
    pages = PdfReader(io.BytesIO(print_order(order))).pages
    assert len(marks(pages[3]).images) == 2


def test_a_game_no_engine_knows_gets_the_plain_back(owner):
    order = deck_order(make_deck(owner, count=2), SheetOptions(backs=True))
    order["game_slug"] = "a-game-that-left"
    pages = PdfReader(io.BytesIO(print_order(order))).pages
    assert marks(pages[3]).images == []
    assert len(card_sized(marks(pages[3]).stroked, layout(SheetOptions()))) == 2


def test_a_backs_page_rendered_shows_the_games_back_in_each_mirrored_cell(client, owner):
    """Rasterised as a printer would: each cell is the back's picture, within a few levels."""
    deck = make_deck(owner, count=2)
    response = client.get(f"/decks/{deck.share_key}/proxies.pdf", {"backs": "1"})
    dpi = 150
    page = pypdfium2.PdfDocument(response.content)[3].render(scale=dpi / 72).to_pil()
    lay = layout(SheetOptions())
    with Image.open(back_file(GAME)) as back:
        for index in range(2):
            x, y = lay.mirrored(index)
            box = [round(v / 25.4 * dpi) for v in (x, 0, x + lay.card[0], 0)]
            box[1] = page.height - round((y + lay.card[1]) / 25.4 * dpi)
            box[3] = page.height - round(y / 25.4 * dpi)
            cell = page.crop(tuple(box)).convert("RGB")
            want = back.convert("RGB").resize(cell.size, Image.Resampling.BILINEAR)
            difference = np.abs(np.asarray(cell, float) - np.asarray(want, float))
            assert difference.mean() < 12, index
    # Two cards fill the first row's right two cells; its left one stays blank paper.
    x, y = lay.cells[0]
    blank = page.crop(
        (
            round((x + 1) / 25.4 * dpi),
            page.height - round((y + lay.card[1] - 1) / 25.4 * dpi),
            round((x + lay.card[0] - 1) / 25.4 * dpi),
            page.height - round((y + 1) / 25.4 * dpi),
        )
    )
    assert np.asarray(blank.convert("L")).min() == 255


@pytest.mark.parametrize("name", ["back_offset_x", "back_offset_y"])
@pytest.mark.parametrize(
    "value", ["-5.01", "5.01", "nan", "inf", "-inf", "²", "٣", "1e309", "", " ", "1_0", "0x1"]
)
def test_an_offset_that_is_not_a_number_within_the_limit_is_a_400_naming_it(
    client, owner, name, value
):
    deck = make_deck(owner, count=1)
    web = client.get(f"/decks/{deck.share_key}/proxies.pdf", {name: value})
    assert web.status_code == 400 and name in web.content.decode()
    form = client.get(f"/decks/{deck.share_key}/proxies/", {name: value})
    assert form.status_code == 400 and f"{name}: must be" in form.content.decode()
    api = APIClient().get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", {name: value})
    assert api.status_code == 400 and name in api.json()["errors"]


def test_offsets_are_kept_to_a_tenth_of_a_millimetre():
    assert parse_options({"back_offset_x": "1.26", "back_offset_y": "-0.04"}) == SheetOptions(
        back_offset_x=1.3, back_offset_y=0.0
    )
    edge = str(MAX_BACK_OFFSET)
    assert parse_options({"back_offset_x": f"-{edge}", "back_offset_y": f"+{edge}"}) == (
        SheetOptions(back_offset_x=-MAX_BACK_OFFSET, back_offset_y=MAX_BACK_OFFSET)
    )
    with pytest.raises(InputError, match="back_offset_y"):
        parse_options({"back_offset_y": "5.04"})


def test_the_command_takes_the_offsets_as_flags_and_names_a_bad_one(owner, tmp_path):
    deck = make_deck(owner, count=2)
    out = tmp_path / "deck.pdf"
    common = [f"--deck={deck.share_key}", "-o", str(out), "--backs=1"]
    call_command("proxies", *common, "--back-offset-x=1.3", stdout=io.StringIO())
    still = tmp_path / "still.pdf"
    call_command(
        "proxies", f"--deck={deck.share_key}", "-o", str(still), "--backs=1", stdout=io.StringIO()
    )
    moved = [box[0] for box, _ in marks(PdfReader(out).pages[3]).images]
    unmoved = [box[0] for box, _ in marks(PdfReader(still).pages[3]).images]
    assert [round((a - b) / MM, 2) for a, b in zip(moved, unmoved, strict=True)] == [1.3, 1.3]
    with pytest.raises(CommandError, match="--back-offset-y"):
        call_command("proxies", *common, "--back-offset-y=9", stdout=io.StringIO())
