"""The duplex calibration sheet read back from its PDF: two pages of the chosen paper, the
cross at the exact centre of both, 1 mm ticks that the back repeats in red where a perfect
printer lands them on the front's, and instructions that say how to print and read it."""

import io
import itertools

import pypdfium2
import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader

from decks.proxies import MM, PAPERS
from decks.services import print_profile_set
from tests.decks.pdf_marks import marks

pytestmark = pytest.mark.django_db
URL = "/proxies/calibration.pdf"


def sheet(client, **params):
    response = client.get(URL, params)
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def centre_ticks(page, centre):
    """The cross's two long arms and the short ticks across each, in mm from the centre."""
    cx, cy = centre
    lines = [segment for segment, _ in marks(page).lines]
    across = [s for s in lines if abs(s[1] - s[3]) < 1e-6 and abs(s[1] - cy) < 0.01]
    upright = [s for s in lines if abs(s[0] - s[2]) < 1e-6 and abs(s[0] - cx) < 0.01]
    # Ticks across the horizontal arm are short uprights crossing it near the centre.
    x_ticks = [
        s
        for s in lines
        if abs(s[0] - s[2]) < 1e-6
        and min(s[1], s[3]) < cy < max(s[1], s[3])
        and abs(s[3] - s[1]) < 5 * MM
        and abs(s[0] - cx) < 30 * MM
    ]
    y_ticks = [
        s
        for s in lines
        if abs(s[1] - s[3]) < 1e-6
        and min(s[0], s[2]) < cx < max(s[0], s[2])
        and abs(s[2] - s[0]) < 5 * MM
        and abs(s[1] - cy) < 30 * MM
    ]
    return across, upright, x_ticks, y_ticks


@pytest.mark.parametrize(("params", "paper"), [({}, "a4"), ({"paper": "letter"}, "letter")])
def test_the_sheet_is_two_pages_of_the_chosen_paper(client, params, paper):
    pages = PdfReader(io.BytesIO(sheet(client, **params))).pages
    assert len(pages) == 2
    for page in pages:
        assert float(page.mediabox.width) == pytest.approx(PAPERS[paper][0] * MM, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(PAPERS[paper][1] * MM, abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_cross_sits_at_the_exact_page_centre_on_both_pages(client, paper):
    pages = PdfReader(io.BytesIO(sheet(client, paper=paper))).pages
    centre = (PAPERS[paper][0] * MM / 2, PAPERS[paper][1] * MM / 2)
    for page in pages:
        across, upright, _, _ = centre_ticks(page, centre)
        arm = max(across, key=lambda s: abs(s[2] - s[0]))
        pole = max(upright, key=lambda s: abs(s[3] - s[1]))
        assert (arm[0] + arm[2]) / 2 == pytest.approx(centre[0], abs=0.01 * MM)
        assert (pole[1] + pole[3]) / 2 == pytest.approx(centre[1], abs=0.01 * MM)
        assert abs(arm[2] - arm[0]) > 40 * MM and abs(pole[3] - pole[1]) > 40 * MM


def test_the_scales_ticks_are_one_millimetre_apart_and_longer_every_fifth(client):
    pages = PdfReader(io.BytesIO(sheet(client))).pages
    centre = (105 * MM, 148.5 * MM)
    front = centre_ticks(pages[0], centre)
    for ticks, along in ((front[2], 0), (front[3], 1)):
        positions = sorted((s[along] - centre[along]) / MM for s in ticks)
        assert positions[0] <= -10 and positions[-1] >= 10
        steps = {round(b - a, 3) for a, b in itertools.pairwise(positions)}
        assert steps <= {1.0, 2.0}  # 2: across the centre, where the other arm is
        assert sum(1 for p in positions if abs(p) < 1.5) == 2
        for s in ticks:
            mm = round((s[along] - centre[along]) / MM)
            length = abs(s[3] - s[1]) if along == 0 else abs(s[2] - s[0])
            assert (length > 3 * MM) == (mm % 5 == 0)


def test_the_back_repeats_the_marks_in_red_where_a_perfect_printer_lands_them(client):
    pages = PdfReader(io.BytesIO(sheet(client))).pages
    width = 210 * MM
    centre = (105 * MM, 148.5 * MM)

    def cross(page, mirrored):
        _, _, x_ticks, y_ticks = centre_ticks(page, centre)
        # Seen through the paper after a long-edge flip, a back's x runs the other way.
        flip = (lambda x: width - x) if mirrored else (lambda x: x)
        return sorted(
            (round(flip(min(s[0], s[2])), 2), round(flip(max(s[0], s[2])), 2), round(s[1], 2))
            for s in x_ticks + y_ticks
        )

    front, back = cross(pages[0], False), cross(pages[1], True)
    assert front == sorted((min(a, b), max(a, b), y) for a, b, y in back)
    colours = {colour for _, colour in marks(pages[1]).lines}
    assert colours and all(r > 0.6 and g < 0.3 and b < 0.3 for r, g, b in colours)
    back_text = pages[1].extract_text()
    assert "\N{MINUS SIGN}" not in back_text and "+" not in back_text  # no numbers


def test_the_sheet_says_how_to_print_and_read_it(client):
    text = PdfReader(io.BytesIO(sheet(client))).pages[0].extract_text()
    for words in (
        "long edge",
        "100%",
        "50 mm",
        "back_offset_x",
        "back_offset_y",
        "right +",
        "up +",
        "never applies any saved offset",
        "http://testserver/accounts/printing/",
    ):
        assert words in text, words


def test_the_ruler_measures_50_mm(client):
    page = PdfReader(io.BytesIO(sheet(client))).pages[0]
    bars = [s for s, _ in marks(page).lines if abs(s[1] - s[3]) < 1e-6 and s[1] < 60 * MM]
    assert any(abs(abs(s[2] - s[0]) - 50 * MM) < 0.01 * MM for s in bars)


def test_a_saved_offset_never_moves_the_sheet(client):
    anonymous = sheet(client)
    user = User.objects.create_user("offset", password="x-Long-pass-9")
    print_profile_set(user=user, back_offset_x=3, back_offset_y=-4)
    client.force_login(user)
    assert sheet(client) == anonymous


@pytest.mark.parametrize(
    ("query", "named"),
    [("paper=a3", "paper"), ("paper=", "paper"), ("paper=a4&x=1", "x"), ("backs=1", "backs")],
)
def test_another_paper_or_an_unknown_option_is_a_400_naming_it(client, query, named):
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 400 and f"{named}:" in response.content.decode()


def test_the_pages_rendered_show_the_cross_at_the_centre(client):
    """Rasterised: the front's centre pixel is black, the back's red."""
    document = pypdfium2.PdfDocument(sheet(client))
    dpi = 300
    for index, want in ((0, "black"), (1, "red")):
        image = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
        # A pixel of the horizontal arm 8.5 mm right of the centre, between two ticks.
        x = round((105 + 8.5) / 25.4 * dpi)
        y = round(image.height - 148.5 / 25.4 * dpi)
        r, g, b = min((image.getpixel((x, y + d)) for d in (-1, 0, 1)), key=sum)
        if want == "black":
            assert max(r, g, b) < 140, (r, g, b)
        else:
            assert r - g > 60 and r - b > 60, (r, g, b)
    document.close()
