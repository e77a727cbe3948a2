"""A user's printer: back offsets saved once on /accounts/printing/ (or from the proxy form)
apply to every sheet they print after, unless the sheet gives its own."""

import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.test import Client
from pypdf import PdfReader
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.models import PrintProfile
from decks.proxies import MM
from decks.reading.selectors import saved_back_offsets
from decks.services import Intake, RequestedCard, deck_create, print_profile_set
from engines.errors import InputError
from tests.decks.pdf_marks import marks

pytestmark = pytest.mark.django_db
PAGE = "/accounts/printing/"


@pytest.fixture
def user():
    return User.objects.create_user("duplex", password="x-Long-pass-9")


@pytest.fixture
def deck(user):
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
        "number_sort"
    )[:3]
    return deck_create(
        owner=user,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Duplex",
        visibility="private",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def backs_at(pdf: bytes) -> list[tuple[float, float]]:
    """Where the first backs page's card backs are, in mm."""
    page = PdfReader(io.BytesIO(pdf)).pages[3]
    return sorted((round(x / MM, 2), round(y / MM, 2)) for (x, y, _, _), _ in marks(page).images)


def shift(pdf: bytes, still: bytes) -> set[tuple[float, float]]:
    return {
        (round(a[0] - b[0], 2), round(a[1] - b[1], 2))
        for a, b in zip(backs_at(pdf), backs_at(still), strict=True)
    }


def test_a_saved_profile_applies_to_every_sheet_printed_after(client, user, deck):
    client.force_login(user)
    url = f"/decks/{deck.share_key}/proxies.pdf?backs=1"
    still = client.get(url).content
    saved = client.post(PAGE, {"back_offset_x": "1.3", "back_offset_y": "-2.7"})
    assert saved.status_code == 302 and saved["Location"] == PAGE
    assert shift(client.get(url).content, still) == {(1.3, 2.7)}
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    through_api = api.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf?backs=1")
    assert shift(through_api.content, still) == {(1.3, 2.7)}
    form = client.get(f"/decks/{deck.share_key}/proxies/").content.decode()
    assert 'name="back_offset_x" type="number"' in form
    assert 'value="1.3"' in form and 'value="-2.7"' in form


def test_an_offset_given_by_the_sheet_wins_over_the_saved_one(client, user, deck):
    print_profile_set(user=user, back_offset_x=1.3, back_offset_y=-2.7)
    client.force_login(user)
    base = f"/decks/{deck.share_key}/proxies.pdf?backs=1"
    still = client.get(base + "&back_offset_x=0&back_offset_y=0").content
    assert shift(client.get(base + "&back_offset_x=-1").content, still) == {(-1.0, 2.7)}


def test_an_anonymous_visitor_has_no_profile_and_is_asked_to_log_in(
    client, django_assert_num_queries
):
    with django_assert_num_queries(0):
        assert saved_back_offsets(user=AnonymousUser()) is None
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.post(PAGE, {"back_offset_x": "1", "back_offset_y": "1"}).status_code == 302
    assert not PrintProfile.objects.exists()


def test_the_printing_page_shows_the_saved_offsets_and_links_the_calibration_sheet(client, user):
    print_profile_set(user=user, back_offset_x=-0.5, back_offset_y=2)
    client.force_login(user)
    page = client.get(PAGE).content.decode()
    assert 'name="back_offset_x"' in page and 'value="-0.5"' in page and 'value="2"' in page
    assert 'href="/proxies/calibration.pdf"' in page
    assert 'href="/proxies/calibration.pdf?paper=letter"' in page
    assert "csrfmiddlewaretoken" in page
    assert 'href="/accounts/printing/"' in client.get("/").content.decode()  # the menu


@pytest.mark.parametrize("name", ["back_offset_x", "back_offset_y"])
@pytest.mark.parametrize("value", ["-5.01", "5.01", "nan", "inf", "²", "1e309", ""])
def test_an_offset_beyond_the_limit_is_a_400_naming_it_and_nothing_is_saved(
    client, user, name, value
):
    print_profile_set(user=user, back_offset_x=1, back_offset_y=1)
    client.force_login(user)
    response = client.post(PAGE, {"back_offset_x": "0", "back_offset_y": "0", name: value})
    assert response.status_code == 400
    assert f"{name}: must be" in response.content.decode()
    assert saved_back_offsets(user=user) == (1.0, 1.0)


def test_the_service_keeps_tenths_and_refuses_what_is_out_of_range(user):
    profile = print_profile_set(user=user, back_offset_x=1.26, back_offset_y=-0.04)
    assert (profile.back_offset_x, profile.back_offset_y) == (Decimal("1.3"), Decimal("0.0"))
    for bad in (5.05, float("nan"), float("-inf")):
        with pytest.raises(InputError, match="back_offset_y"):
            print_profile_set(user=user, back_offset_x=0, back_offset_y=bad)
    assert saved_back_offsets(user=user) == (1.3, 0.0)
    with pytest.raises(IntegrityError), transaction.atomic():
        PrintProfile.objects.filter(user=user).update(back_offset_x=Decimal("6"))


def test_saving_needs_the_forms_csrf_token(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(PAGE, {"back_offset_x": "1", "back_offset_y": "1"}).status_code == 403
    assert not PrintProfile.objects.exists()


def test_the_proxy_form_offers_to_remember_offsets_that_differ_from_the_saved_ones(
    client, user, deck
):
    client.force_login(user)
    form_url = f"/decks/{deck.share_key}/proxies/?backs=1&back_offset_x=1.3&back_offset_y=-2.7"
    page = client.get(form_url).content.decode()
    start = page.index('<form method="post" action="/accounts/printing/"')
    remember = page[start : page.index("</form>", start)]
    assert "Remember these offsets for every sheet" in remember
    assert " hidden>" not in remember
    assert 'name="next" value="' + form_url.replace("&", "&amp;") + '"' in remember
    saved = client.post(PAGE, {"back_offset_x": "1.3", "back_offset_y": "-2.7", "next": form_url})
    assert saved.status_code == 302 and saved["Location"] == form_url
    assert saved_back_offsets(user=user) == (1.3, -2.7)
    again = client.get(form_url).content.decode()
    assert "Saved: backs are shifted" in again
    start = again.index('<form method="post" action="/accounts/printing/"')
    assert " hidden>" in again[start : again.index("</form>", start)]


def test_an_anonymous_visitor_types_offsets_into_the_form_without_saving_them(client, user):
    cards = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort")[:1]
    deck = deck_create(
        owner=user,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Open",
        visibility="unlisted",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    page = client.get(f"/decks/{deck.share_key}/proxies/?back_offset_x=2").content.decode()
    assert 'id="proxy-offset-x" name="back_offset_x"' in page and 'value="2"' in page
    assert "Remember these offsets" not in page
    pdf = client.get(f"/decks/{deck.share_key}/proxies.pdf?back_offset_x=2&backs=1")
    assert pdf.status_code == 200


@pytest.mark.parametrize(
    "next_page", ["https://elsewhere.example/", "//elsewhere.example/x", "javascript:x", "/" * 2001]
)
def test_a_save_returns_only_to_a_page_on_this_site(client, user, next_page):
    client.force_login(user)
    response = client.post(PAGE, {"back_offset_x": "1", "back_offset_y": "0", "next": next_page})
    assert response.status_code == 302 and response["Location"] == PAGE
