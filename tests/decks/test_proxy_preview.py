"""The proxy form (every option parse_options reads, with its limits) and the preview of the
sheet's first page, drawn by the PDF's own code."""

import io
import re

import pypdfium2
import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image, ImageChops

from cardsite.catalogue.models import Card, Game
from decks.exports.images import deck_images_folder
from decks.exports.preview import PREVIEW_DPI, PREVIEW_KEEP
from decks.proxies import MAX_BLEED, MAX_GAP, MAX_SHEET_CARDS, OPTION_NAMES, PAPERS, SIZES
from decks.services import Intake, RequestedCard, deck_create, deck_update
from tests.decks.tts_support import downloaded

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("previewer", password="x-Long-pass-9")


def make_deck(owner, count=11, visibility="public", copies=1):
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
        "number_sort"
    )[:count]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Preview me",
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(copies, None, c.short_id) for c in cards)),
    )


def preview(client, deck, **options):
    response = client.get(f"/decks/{deck.share_key}/proxies-preview.png", options)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(response.content))


def test_the_form_offers_every_option_the_pdf_reads_with_its_limits(client, owner):
    deck = make_deck(owner)
    response = client.get(f"/decks/{deck.share_key}/proxies/")
    assert response.status_code == 200
    page = response.content.decode()
    start = page.index('<form method="get"')
    form = page[start : page.index("</form>", start)]
    assert f'action="/decks/{deck.share_key}/proxies.pdf"' in form
    names = set(re.findall(r'name="(\w+)"', form))
    assert names == set(OPTION_NAMES)
    for value in (*PAPERS, *SIZES):
        assert f'<option value="{value}"' in form
    assert f'max="{MAX_BLEED:g}"' in form and f'max="{MAX_GAP:g}"' in form
    assert f"0 to {MAX_BLEED:g} mm" in form and f"0 to {MAX_GAP:g} mm" in form
    assert f"At most {MAX_SHEET_CARDS} cards a sheet" in form
    assert "11 cards, 2 pages of cards" in form
    assert f'formaction="/decks/{deck.share_key}/proxies/"' in form
    assert f'src="/decks/{deck.share_key}/proxies-preview.png"' in page


def test_the_form_keeps_the_chosen_options_for_the_pdf_and_the_preview(client, owner):
    deck = make_deck(owner)
    page = client.get(
        f"/decks/{deck.share_key}/proxies/",
        {"paper": "letter", "size": "2.5x3.5", "bleed": "0.5", "gap": "1", "backs": "1"},
    ).content.decode()
    assert '<option value="letter" selected>' in page
    assert '<option value="2.5x3.5" selected>' in page
    assert 'value="0.5"' in page and 'value="1"' in page
    assert 'name="backs" value="1" checked' in page
    query = "paper=letter&amp;size=2.5x3.5&amp;bleed=0.5&amp;gap=1&amp;backs=1"
    assert f'src="/decks/{deck.share_key}/proxies-preview.png?{query}"' in page
    assert f'width="{round(215.9 / 25.4 * PREVIEW_DPI)}"' in page


def test_a_bad_option_is_a_400_naming_it_on_the_form_and_the_preview(client, owner):
    deck = make_deck(owner)
    form = client.get(f"/decks/{deck.share_key}/proxies/", {"bleed": "9"})
    assert form.status_code == 400
    assert "Cannot print: bleed: must be between 0 and 3 mm, got 9" in form.content.decode()
    assert 'value="9"' in form.content.decode()
    image = client.get(f"/decks/{deck.share_key}/proxies-preview.png", {"gap": "lots"})
    assert image.status_code == 400
    assert image.content.decode() == (
        "Cannot preview: gap: must be a number of millimetres, got 'lots'\n"
    )
    assert client.get(f"/decks/{deck.share_key}/proxies/", {"colour": "1"}).status_code == 400


def test_too_large_a_sheet_is_refused_with_its_limit_before_anything_is_drawn(client, owner):
    deck = make_deck(owner, count=7, copies=99)
    page = client.get(f"/decks/{deck.share_key}/proxies/").content.decode()
    assert f"a proxy sheet may hold at most {MAX_SHEET_CARDS} cards; this one has 693" in page
    assert '<img src="/decks/' not in page and "No preview until" in page
    image = client.get(f"/decks/{deck.share_key}/proxies-preview.png")
    assert image.status_code == 400 and str(MAX_SHEET_CARDS).encode() in image.content
    assert not deck_images_folder(deck.share_key).exists()


@pytest.mark.parametrize(("paper", "backs"), [("a4", "0"), ("letter", "1")])
def test_the_preview_is_the_pdfs_first_page_of_cards(client, owner, paper, backs):
    deck = make_deck(owner, count=11)
    options = {"paper": paper, "bleed": "1", "gap": "2", "backs": backs}
    image = preview(client, deck, **options).convert("RGB")
    pdf = client.get(f"/decks/{deck.share_key}/proxies.pdf", options).content
    document = pypdfium2.PdfDocument(pdf)
    # After the calibration page and, with backs, its blank back.
    first = 2 if backs == "1" else 1
    printed = document[first].render(scale=PREVIEW_DPI / 72).to_pil().convert("RGB")
    assert image.size == printed.size
    width_mm, height_mm = PAPERS[paper]
    assert abs(image.width - width_mm / 25.4 * PREVIEW_DPI) <= 1
    assert abs(image.height - height_mm / 25.4 * PREVIEW_DPI) <= 1
    # The same drawing: the footer counts the whole sheet's pages in both.
    assert ImageChops.difference(image, printed).getbbox() is None


def test_a_deck_without_cards_previews_the_calibration_page(client, owner):
    deck = make_deck(owner, count=0)
    width, height = preview(client, deck).size
    assert abs(width - 496) <= 1 and abs(height - 702) <= 1


def test_previews_are_kept_per_deck_version_and_options_and_only_the_newest_few(client, owner):
    deck = make_deck(owner)
    folder = deck_images_folder(deck.share_key)
    preview(client, deck)
    drawn = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    preview(client, deck)
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}.keys() == drawn.keys()
    for n in range(1, PREVIEW_KEEP + 3):
        preview(client, deck, bleed=str(n / 4))
    assert len(list(folder.glob("proxies-*.png"))) == PREVIEW_KEEP
    deck_update(deck=deck, expected_version=None, changes={"name": "Renamed"})
    deck.refresh_from_db()
    preview(client, deck, gap="1")
    assert len(list(folder.glob("proxies-*.png"))) == PREVIEW_KEEP


def test_a_private_decks_form_and_preview_are_its_owners_alone(owner):
    deck = make_deck(owner, visibility="private")
    stranger = Client()
    assert stranger.get(f"/decks/{deck.share_key}/proxies/").status_code == 404
    assert stranger.get(f"/decks/{deck.share_key}/proxies-preview.png").status_code == 404
    mine = Client()
    mine.force_login(owner)
    assert mine.get(f"/decks/{deck.share_key}/proxies/").status_code == 200
    response = mine.get(f"/decks/{deck.share_key}/proxies-preview.png")
    assert response.status_code == 200 and "private" in response["Cache-Control"]


def test_the_deck_page_links_to_the_proxy_form(client, owner):
    deck = make_deck(owner)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f'href="/decks/{deck.share_key}/proxies/">Print proxies</a>' in page


def test_the_form_offers_the_calibration_sheet_the_png_pages_and_the_tabletop_file(client, owner):
    deck = make_deck(owner, visibility="private")
    client.force_login(owner)
    page = client.get(f"/decks/{deck.share_key}/proxies/", {"backs": "1"}).content.decode()
    assert 'href="/proxies/calibration.pdf"' in page
    assert f"/api/v1/decks/{deck.share_key}/proxies.png?" in page
    tts = re.search(rf'href="(/decks/{deck.share_key}/tts\.json[^"]*)">Download the deck', page)
    assert tts, "the Tabletop Simulator download"
    # A private deck's file is for whoever holds the signed link, signed in or not.
    client.logout()
    assert downloaded(client, tts.group(1).replace("&amp;", "&")).status_code == 200
