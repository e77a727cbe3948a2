"""A collection's inputs as an attacker sends them: past every limit a 4xx naming it, never a
5xx, and nothing stored."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard
from cardsite.collection.services import MAX_IMPORT_BYTES, MAX_IMPORT_LINES
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db
GAME = "conquest-for-the-capital"
IMPORT = "/api/v1/collection/import/"
UPLOAD = "/api/v1/collection/import/csv/"


@pytest.fixture
def mallory():
    return User.objects.create_user("mallory", password="mallory-pass-42")


@pytest.fixture
def api(mallory):
    client = APIClient()
    client.force_authenticate(mallory)
    return client


@pytest.fixture
def card():
    return Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort").first()


def nothing_stored():
    return not CollectionCard.objects.exists()


def readme_limits() -> str:
    text = docs_text()
    start = text.index("### Limits")
    return text[start : text.index("\n### ", start + 1)]


def test_the_readme_states_the_collection_limits():
    table = readme_limits()
    assert "a collection import" in table
    assert f"{MAX_IMPORT_LINES:,} lines" in table
    assert "1 MB" in table
    assert "0 to **999** copies" in table


def test_an_upload_past_1_mb_is_a_400_naming_csv_and_the_limit(api):
    body = b"name,quantity\n" + b"x" * MAX_IMPORT_BYTES
    upload = SimpleUploadedFile("big.csv", body, content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 400
    assert "1,000,000 bytes" in response.json()["errors"]["csv"][0]
    assert nothing_stored()


def test_more_than_10000_lines_is_a_400_naming_text_and_the_limit(api, card):
    text = f"1 {card.name}\n" * (MAX_IMPORT_LINES + 1)
    response = api.post(IMPORT, {"game": GAME, "text": text}, format="json")
    assert response.status_code == 400
    assert "10,000 lines" in response.json()["errors"]["text"][0]
    assert nothing_stored()


def test_10000_lines_of_one_card_are_a_problem_past_999_copies_not_a_crash(api, card):
    text = f"1 {card.name}\n" * MAX_IMPORT_LINES
    response = api.post(IMPORT, {"game": GAME, "text": text}, format="json")
    assert response.status_code == 400
    assert "at most 999" in response.json()["errors"]["text"][0]
    assert nothing_stored()


@pytest.mark.parametrize("quantity", ["NaN", "²", "-1", "1e9", "inf", "٣٣٣٣", "9" * 5000, "0"])
def test_strange_quantities_in_a_csv_each_name_their_line(api, card, quantity):
    body = f"name,quantity\n{card.name},{quantity}\n".encode()
    upload = SimpleUploadedFile("q.csv", body, content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"]["csv"][0].startswith("line 2, quantity")
    assert nothing_stored()


@pytest.mark.parametrize("line", ["NaN {name}", "² {name}", "-1 {name}", "0 {name}", "1000 {name}"])
def test_strange_quantities_in_pasted_text_each_name_their_line(api, card, line):
    text = "# mine\n" + line.format(name=card.name)
    response = api.post(IMPORT, {"game": GAME, "text": text}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["text"][0].startswith("line 2")
    assert nothing_stored()


@pytest.mark.parametrize(
    "body",
    [
        b"\xff\xfe not utf-8",
        b"name,quantity\n\x00,1\n",
        b'name,quantity\n"unclosed,1\n',
        b"set,number,quantity\nCFC-SMP,1,2,extra\n",
        b"",
    ],
)
def test_broken_csv_files_are_a_400_never_a_500(api, body):
    upload = SimpleUploadedFile("bad.csv", body, content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 400
    assert "csv" in response.json()["errors"]
    assert nothing_stored()


def test_an_import_needs_text_or_a_file_and_a_known_game_and_mode(api, card):
    for body in (
        {"game": "chess", "text": f"1 {card.name}"},
        {"game": GAME, "text": f"1 {card.name}", "mode": "merge"},
        {"game": GAME, "text": 12},
        {"game": GAME},
    ):
        assert api.post(IMPORT, body, format="json").status_code == 400
    assert nothing_stored()


def test_a_csv_naming_another_game_than_the_one_chosen_names_its_line(api):
    other = Card.objects.exclude(game__slug=GAME).select_related("game", "card_set").first()
    body = f"game,set,number,quantity\n{other.game.slug},{other.card_set.code},{other.number},1\n"
    upload = SimpleUploadedFile("g.csv", body.encode(), content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"]["csv"][0].startswith("line 2, game")


def test_the_page_refuses_a_huge_upload_naming_the_limit(mallory):
    client = Client()
    client.force_login(mallory)
    upload = SimpleUploadedFile("big.csv", b"x" * (MAX_IMPORT_BYTES + 10))
    response = client.post("/collection/", {"csv": upload, "game": GAME})
    assert response.status_code == 400
    assert "1,000,000 bytes" in response.content.decode()
    assert nothing_stored()


def test_a_card_id_of_any_length_or_shape_is_a_404_not_an_error(api):
    for card_id in ("x" * 500, "%00", "٣", "../../etc"):
        response = api.put(f"/api/v1/collection/cards/{card_id}/", {"quantity": 1}, format="json")
        assert response.status_code == 404
    assert nothing_stored()


def test_a_card_id_longer_than_any_short_id_is_a_404_even_if_it_starts_with_one(api, card):
    longer = card.short_id + "x" * (13 - len(card.short_id))
    response = api.put(f"/api/v1/collection/cards/{longer}/", {"quantity": 1}, format="json")
    assert response.status_code == 404
    client = Client()
    client.force_login(User.objects.get(username="mallory"))
    assert client.post(f"/collection/cards/{longer}/", {"step": "1"}).status_code == 404
    assert nothing_stored()
