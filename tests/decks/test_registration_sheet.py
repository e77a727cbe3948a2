"""The tournament registration sheet, read back with the tools a judge's computer has: poppler's
`pdftotext` and `pdffonts`, pypdf for the pages, and zbar for the QR code on a page rendered
by poppler."""

import io
import re
import shutil
import subprocess

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pypdf import PdfReader

from cardsite.catalogue.models import Card, Game
from decks.exports.registration import (
    ONE_PAGE_LINES,
    RegistrationSheet,
    SheetHeader,
    registration_pdf,
)
from decks.history.pages import version_url
from decks.proxies import MM, PAPERS
from decks.services import Intake, RequestedCard, deck_create, deck_set_quantity
from decks.services.history import VersionNotFound
from tests.decks.printed import rasterise, scan

pytestmark = pytest.mark.django_db
BASE = "https://cards.example/"


def text_of(pdf: bytes, tmp_path) -> str:
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext is missing: apt-get install poppler-utils"
    done = subprocess.run([tool, "-layout", source, "-"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pages_of(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def make_deck(name="Registered", cards=12, visibility="public", owner=None, copies=1):
    owner = owner or User.objects.create_user(f"player-{cards}-{name}", password="x-Long-pass-9")
    game = Game.objects.get(slug="conquest-of-orion")
    chosen = list(Card.objects.filter(game=game).order_by("name")[:cards])
    assert len(chosen) == cards, "the game has too few cards for this test"
    return deck_create(
        owner=owner,
        game=game,
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(copies, None, c.short_id) for c in chosen)),
    )


def test_the_sheet_lists_every_card_and_quantity_with_the_zone_totals(tmp_path):
    deck = make_deck(cards=12, copies=2)
    pdf = registration_pdf(
        sheets=[RegistrationSheet(deck, deck.version)], paper="a4", base_url=BASE
    )
    text = text_of(pdf, tmp_path)
    flat = " ".join(text.split())
    for entry in deck.entries.select_related("card"):
        assert re.search(rf"\b{entry.quantity}\s+{re.escape(entry.card.name)}", text), (
            entry.card.name
        )
    engine = deck.game.engine
    zone = next(z.name for z in engine.zones if z.slug == deck.entries.first().zone)
    assert f"{zone} 24 cards" in flat
    assert "Registered" in flat
    assert deck.game.name in flat
    assert engine.format("constructed").name in flat
    assert re.search(r"(Not legal|Legal) in " + engine.format("constructed").name, flat)
    assert "Deck checked by" in flat and "Time" in flat and "Notes" in flat


def test_blank_header_fields_print_their_labels_and_given_ones_their_values(tmp_path):
    deck = make_deck()
    blank = text_of(
        registration_pdf(sheets=[RegistrationSheet(deck, 1)], paper="a4", base_url=BASE),
        tmp_path,
    )
    for label in ("Event", "Date", "Player name", "Player ID"):
        assert label in blank
    header = SheetHeader(
        event="Spring Open", date="2026-04-01", player_name="Zoë Næss", player_id="P-0042"
    )
    filled = text_of(
        registration_pdf(sheets=[RegistrationSheet(deck, 1, header)], paper="a4", base_url=BASE),
        tmp_path,
    )
    for value in ("Spring Open", "2026-04-01", "Zoë Næss", "P-0042"):
        assert value in filled


def test_an_older_version_prints_its_own_cards_and_its_qr_code_links_to_it(tmp_path):
    deck = make_deck(cards=3)
    first = deck.entries.select_related("card").order_by("card__name").first()
    deck = deck_set_quantity(
        deck=deck, expected_version=deck.version, card=first.card.short_id, quantity=3
    )
    assert deck.version == 2
    pdf = registration_pdf(sheets=[RegistrationSheet(deck, 1)], paper="a4", base_url=BASE)
    text = text_of(pdf, tmp_path)
    assert re.search(rf"\b1\s+{re.escape(first.card.name)}", text)
    assert not re.search(rf"\b3\s+{re.escape(first.card.name)}", text)
    png = rasterise(pdf, tmp_path / "png", dpi=200)[0]
    assert scan(png) == [BASE.rstrip("/") + version_url(deck, 1)]
    assert version_url(deck, 1).endswith("#version-1")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_80_distinct_cards_fit_one_page_and_81_take_two(paper, tmp_path):
    full = make_deck(name="Eighty", cards=ONE_PAGE_LINES)
    over = make_deck(name="Eighty-one", cards=ONE_PAGE_LINES + 1)
    one = registration_pdf(sheets=[RegistrationSheet(full, 1)], paper=paper, base_url=BASE)
    two = registration_pdf(sheets=[RegistrationSheet(over, 1)], paper=paper, base_url=BASE)
    assert pages_of(one) == 1
    assert pages_of(two) == 2
    for pdf, deck in ((one, full), (two, over)):
        text = text_of(pdf, tmp_path)
        for entry in deck.entries.select_related("card"):
            assert re.search(rf"\b1\s+{re.escape(entry.card.name)}", text), entry.card.name
    width, height = (float(v) for v in PdfReader(io.BytesIO(one)).pages[0].mediabox[2:])
    assert (round(width / MM, 1), round(height / MM, 1)) == PAPERS[paper]


def test_every_sheet_starts_on_a_page_of_its_own_in_the_order_given(tmp_path):
    a, b = make_deck(name="Alpha list"), make_deck(name="Beta list", cards=5)
    pdf = registration_pdf(
        sheets=[RegistrationSheet(b, 1), RegistrationSheet(a, 1)], paper="letter", base_url=BASE
    )
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 2
    assert "Beta list" in reader.pages[0].extract_text()
    assert "Alpha list" in reader.pages[1].extract_text()


def test_every_font_is_embedded(tmp_path):
    source = tmp_path / "sheet.pdf"
    deck = make_deck()
    source.write_bytes(
        registration_pdf(sheets=[RegistrationSheet(deck, 1)], paper="a4", base_url=BASE)
    )
    tool = shutil.which("pdffonts")
    assert tool, "pdffonts is missing: apt-get install poppler-utils"
    rows = subprocess.run([tool, source], capture_output=True, text=True).stdout.splitlines()[2:]
    assert rows
    for row in rows:
        assert row.split()[-5] == "yes", row  # the "emb" column


def test_a_version_never_kept_is_refused():
    deck = make_deck()
    with pytest.raises(VersionNotFound):
        registration_pdf(sheets=[RegistrationSheet(deck, 7)], paper="a4", base_url=BASE)


# The page.


def url(deck, **query):
    path = reverse("decks:registration", args=[deck.share_key])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_pdf_prints_the_latest_version_on_a4_by_default(client):
    deck = make_deck()
    response = client.get(url(deck))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert round(float(page.mediabox[3]) / MM) == 297
    assert f"deck version {deck.version}" in page.extract_text()


def test_letter_paper_is_letter_and_any_other_is_a_400_naming_the_choices(client):
    deck = make_deck()
    letter = client.get(url(deck, paper="letter"))
    assert round(float(PdfReader(io.BytesIO(letter.content)).pages[0].mediabox[3]) / MM) == 279
    bad = client.get(url(deck, paper="a3"))
    assert bad.status_code == 400
    assert "a4 or letter" in bad.content.decode()


def test_a_version_must_be_a_whole_number_in_range_and_one_never_kept_is_a_404(client):
    deck = make_deck()
    for raw in ("abc", "1.5", "-1", "0", "²", "9" * 12):
        response = client.get(url(deck, version=raw))
        assert response.status_code == 400, raw
        assert "version" in response.content.decode()
    assert client.get(url(deck, version="2")).status_code == 404
    assert client.get(url(deck, version="1")).status_code == 200


def test_an_unknown_option_is_a_400_naming_the_options(client):
    response = client.get(url(make_deck(), size="big"))
    assert response.status_code == 400
    assert "paper, version" in response.content.decode()


def test_a_private_deck_prints_for_its_owner_only(client):
    owner = User.objects.create_user("secretive", password="x-Long-pass-9")
    deck = make_deck(visibility="private", owner=owner)
    assert client.get(url(deck)).status_code == 404
    User.objects.create_user("nosy", password="x-Long-pass-9")
    client.login(username="nosy", password="x-Long-pass-9")
    assert client.get(url(deck)).status_code == 404
    client.login(username="secretive", password="x-Long-pass-9")
    response = client.get(url(deck))
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]


def test_the_deck_page_links_to_its_registration_sheet(client):
    deck = make_deck()
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f'href="{url(deck)}"' in page
    assert "Registration sheet (PDF)" in page


def test_the_second_page_names_the_zone_and_type_it_continues():
    deck = make_deck(name="Long list", cards=ONE_PAGE_LINES + 1)
    pdf = registration_pdf(sheets=[RegistrationSheet(deck, 1)], paper="a4", base_url=BASE)
    second = PdfReader(io.BytesIO(pdf)).pages[1].extract_text()
    assert "Long list (continued, page 2)" in second
    assert "(continued)" in second.replace("(continued, page 2)", "")
    assert "Page 2 of 2" in second


def test_a_sheet_checks_legality_in_the_format_it_is_given_rather_than_the_decks_own(tmp_path):
    deck = make_deck(name="Other format", cards=12)
    own = text_of(
        registration_pdf(sheets=[RegistrationSheet(deck, deck.version)], paper="a4", base_url=BASE),
        tmp_path,
    )
    limited = text_of(
        registration_pdf(
            sheets=[RegistrationSheet(deck, deck.version, format_slug="limited")],
            paper="a4",
            base_url=BASE,
        ),
        tmp_path,
    )
    assert "in Constructed" in own and "in Constructed" not in limited
    assert "in Limited" in limited
