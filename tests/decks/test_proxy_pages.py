"""One page of a deck's proxy sheet as a 300 dpi PNG (/api/v1/decks/{id}/proxies.png): the
PDF's own page, drawn alone, at the paper's size in pixels; its page number checked like any
number a client sends; drawn once and read from its file after; offered by the proxy form."""

import io
import re

import pypdfium2
import pytest
from django.contrib.auth.models import User
from PIL import Image, ImageChops
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.exports.images import deck_images_folder
from decks.exports.sheet_pages import KIND, PAGE_DPI
from decks.proxies import MAX_SHEET_CARDS, lead_pages, parse_options
from decks.services import Intake, RequestedCard, deck_create, deck_update
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db

PIXELS = {"a4": (2480, 3508), "letter": (2550, 3300)}


@pytest.fixture
def owner():
    return User.objects.create_user("pages", password="x-Long-pass-9")


def make_deck(owner, count=20, visibility="public", copies=1):
    cards = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort")[:count]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Pages",
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(copies, None, c.short_id) for c in cards)),
    )


def url(deck):
    return f"/api/v1/decks/{deck.share_key}/proxies.png"


def png(client, deck, **params):
    response = client.get(url(deck), params)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "image/png"
    return response


def image(response):
    return Image.open(io.BytesIO(response.content))


def pdf_page(client, deck, page, **options):
    """Page `page` of the sheet's pages of cards and backs: the PDF's page after its
    calibration page (and, with backs, that page's blank back)."""
    index = page - 1 + lead_pages(parse_options(options))
    """The PDF's page `index` (0 is its calibration page) rendered by pdfium at 300 dpi."""
    document = pypdfium2.PdfDocument(
        client.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", options).content
    )
    try:
        return document[index].render(scale=PAGE_DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


def the_same_picture(mine, printed):
    """The page is the PDF's, rendered by the same pdfium at the same dpi, pixel for pixel
    (but for the fraction of a pixel at the paper's edge that the PDF's rendering rounds up
    to a whole column or row)."""
    printed = printed.crop((0, 0, *mine.size))
    return ImageChops.difference(mine.convert("RGB"), printed).getbbox() is None


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_page_is_a_300_dpi_png_of_the_papers_size_in_pixels(api, owner, paper):
    deck = make_deck(owner)
    response = png(api, deck, paper=paper)
    picture = image(response)
    assert picture.format == "PNG"
    assert picture.size == PIXELS[paper]
    assert picture.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert response["Content-Disposition"] == f'inline; filename="{deck.share_key}-page-1.png"'
    assert response["X-Page-Count"] == "3"
    assert response["Cache-Control"] == "public, max-age=300"


def test_page_k_is_the_pdfs_k_th_page_of_cards_with_its_footer(api, owner):
    deck = make_deck(owner)
    for page in (1, 3):
        mine = image(png(api, deck, page=str(page), gap="2", bleed="1"))
        assert the_same_picture(mine, pdf_page(api, deck, page, gap="2", bleed="1"))
    # And not any page: the first and the third differ.
    assert not the_same_picture(image(png(api, deck, page="2")), pdf_page(api, deck, 1))


def test_with_backs_every_other_page_is_the_backs_of_the_page_before(api, owner):
    deck = make_deck(owner)
    options = {"backs": "1", "paper": "letter"}
    response = png(api, deck, page="2", **options)
    assert response["X-Page-Count"] == "6"
    assert response["Content-Disposition"].endswith('-page-2.png"')
    assert the_same_picture(image(response), pdf_page(api, deck, 2, **options))
    assert the_same_picture(
        image(png(api, deck, page="5", **options)), pdf_page(api, deck, 5, **options)
    )


@pytest.mark.parametrize(
    ("page", "message"),
    [
        ("4", "must be from 1 to 3: this sheet has 3 pages, got 4"),
        ("999999", "must be from 1 to 3: this sheet has 3 pages, got 999999"),
        ("0", "must be from 1 to 3: this sheet has 3 pages, got 0"),
        ("²", "must be a whole number from 1, got '²'"),
        ("\N{ARABIC-INDIC DIGIT ONE}", "must be a whole number from 1, got '\u0661'"),
        ("-1", "must be a whole number from 1, got '-1'"),
        ("1.5", "must be a whole number from 1, got '1.5'"),
        ("", "must be a whole number from 1, got ''"),
        (" 1", "must be a whole number from 1, got ' 1'"),
        ("NaN", "must be a whole number from 1, got 'NaN'"),
        ("inf", "must be a whole number from 1, got 'inf'"),
        ("9" * 5000, "must be a whole number from 1, got '99999999999999999999'"),
    ],
)
def test_a_page_that_is_not_a_whole_number_within_the_sheet_is_a_400_naming_page(
    api, owner, page, message
):
    deck = make_deck(owner)
    response = api.get(url(deck), {"page": page}, HTTP_ACCEPT="image/png")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"] == {"page": [message]}
    assert not deck_images_folder(deck.share_key).exists()


def test_a_deck_without_cards_has_no_pages_to_draw(api, owner):
    deck = make_deck(owner, count=0)
    response = api.get(url(deck))
    assert response.status_code == 400
    assert response.json()["errors"] == {"page": ["this sheet has no cards, so no pages to draw"]}


@pytest.mark.parametrize(
    "options", [{"bleed": "9"}, {"gap": "lots"}, {"colour": "1"}, {"paper": "a3"}, {"gap": "nan"}]
)
def test_a_bad_option_is_the_same_400_as_the_pdfs(api, owner, options):
    deck = make_deck(owner)
    mine = api.get(url(deck), {"page": "1", **options})
    theirs = api.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", options)
    assert mine.status_code == theirs.status_code == 400
    assert mine.json() == theirs.json()


def test_too_large_a_sheet_is_a_400_naming_the_limit_and_nothing_is_drawn(api, owner):
    deck = make_deck(owner, count=7, copies=99)
    response = api.get(url(deck), {"page": "1"})
    assert response.status_code == 400
    assert response.json()["errors"]["cards"] == [
        f"a proxy sheet may hold at most {MAX_SHEET_CARDS} cards; this one has 693"
    ]
    assert not deck_images_folder(deck.share_key).exists()


def test_a_private_decks_pages_are_its_owners_alone(owner):
    deck = make_deck(owner, count=3, visibility="private")
    assert APIClient().get(url(deck)).status_code == 404
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("stranger", password="x-Long-pass-9"))
    assert stranger.get(url(deck)).status_code == 404
    mine = APIClient()
    mine.force_authenticate(owner)
    response = png(mine, deck)
    assert response["Cache-Control"] == "private, max-age=300"


def test_asking_again_draws_nothing_and_spends_nothing(api, owner, settings):
    # One page drawn a minute: a second drawing would be a 429, a second reading is not.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "proxies": "1/min",
        },
    }
    deck = make_deck(owner)
    first = png(api, deck, page="2")
    folder = deck_images_folder(deck.share_key)
    drawn = {p.name: p.stat().st_mtime_ns for p in folder.glob(f"{KIND}-*.png")}
    assert len(drawn) == 1
    again = png(api, deck, page="2")
    assert again.content == first.content
    assert {p.name for p in folder.glob(f"{KIND}-*.png")} == drawn.keys()
    refused = api.get(url(deck), {"page": "3"})
    assert refused.status_code == 429 and "1 proxy sheet a minute" in refused.json()["detail"]


def test_a_changed_deck_is_drawn_again(api, owner):
    deck = make_deck(owner)
    before = png(api, deck).content
    deck_update(deck=deck, expected_version=None, changes={"name": "Renamed pages"})
    assert png(api, deck).content != before


def test_pages_and_previews_keep_their_files_apart(api, client, owner):
    deck = make_deck(owner)
    assert client.get(f"/decks/{deck.share_key}/proxies-preview.png").status_code == 200
    png(api, deck)
    folder = deck_images_folder(deck.share_key)
    assert len(list(folder.glob(f"{KIND}-*.png"))) == 1
    assert len(list(folder.glob("proxies-*.png"))) == 1


def test_the_proxy_form_links_every_page_as_png_with_its_options(client, owner):
    deck = make_deck(owner)
    page = client.get(f"/decks/{deck.share_key}/proxies/").content.decode()
    links = re.findall(r'<a href="(/api/v1/decks/[^"]+/proxies\.png[^"]*)">([^<]+)</a>', page)
    assert links == [(f"{url(deck)}?page={n}", str(n)) for n in (1, 2, 3)]
    assert "PNG pages (300 dpi)" in page

    page = client.get(
        f"/decks/{deck.share_key}/proxies/", {"paper": "letter", "backs": "1"}
    ).content.decode()
    links = re.findall(r'<a href="(/api/v1/decks/[^"]+/proxies\.png[^"]*)">([^<]+)</a>', page)
    assert [label for _, label in links] == [
        "1 front",
        "2 back",
        "3 front",
        "4 back",
        "5 front",
        "6 back",
    ]
    assert links[3][0] == f"{url(deck)}?page=4&amp;paper=letter&amp;backs=1"


def test_the_readme_states_the_page_limit_and_its_size_in_pixels():
    readme = docs_text()
    limits = readme[readme.index("### Limits") :]
    row = next(line for line in limits.splitlines() if "proxies.png" in line)
    times = " \N{MULTIPLICATION SIGN} "
    assert f"2480{times}3508" in row and f"2550{times}3300" in row and "`page`" in row
    assert "/api/v1/decks/{id}/proxies.png" in readme[: readme.index("### Limits")]
