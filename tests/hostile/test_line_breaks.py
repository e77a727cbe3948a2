"""Line limits counted as the parsers split lines: every line break str.splitlines knows, and
csv's lone CR, counts, so no kind of line break slips a file past its limit
(engines/bounds.py)."""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard
from cardsite.collection.services import MAX_IMPORT_LINES
from decks.services.intake import MAX_LINES
from engines.bounds import CSV_BREAKS, count_lines

pytestmark = pytest.mark.django_db
GAME = "conquest-for-the-capital"
IMPORT = "/api/v1/collection/import/"
UPLOAD = "/api/v1/collection/import/csv/"
VALIDATE = "/api/v1/decks/validate/"
# Every break str.splitlines() knows, and CR LF (one break).
BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r\n"]
IDS = ["CR", "VT", "FF", "FS", "GS", "RS", "NEL", "LS", "PS", "CRLF"]


@pytest.fixture
def api():
    client = APIClient()
    client.force_authenticate(User.objects.create_user("mallory", password="mallory-pass-42"))
    return client


def errors(response, field):
    assert response.status_code == 400, response.content[:500]
    return " ".join(response.json()["errors"][field])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a",
        "a\n",
        "a\r\nb",
        "a\r\rb",
        "\r\n\r\n",
        "a\n\r",
        "x\x85y\u2028",
        "\u2029",
        "a\x1cb\x0b",
    ],
)
def test_lines_are_counted_exactly_as_splitlines_splits_them(text):
    assert count_lines(text) == len(text.splitlines())


def test_csv_lines_are_counted_as_the_csv_module_reads_them():
    assert count_lines("a\rb\r\nc\nd", CSV_BREAKS) == 4
    assert count_lines("a\x0bb\x85c\u2028d", CSV_BREAKS) == 1


@pytest.mark.parametrize("brk", BREAKS, ids=IDS)
def test_a_collection_list_past_10000_lines_by_any_line_break_is_refused(api, brk):
    text = brk.join(["1 No Such Card"] * (MAX_IMPORT_LINES + 1))
    message = errors(api.post(IMPORT, {"game": GAME, "text": text}, format="json"), "text")
    assert f"at most {MAX_IMPORT_LINES:,} lines" in message
    assert f"has {MAX_IMPORT_LINES + 1:,}" in message
    assert not CollectionCard.objects.exists()


@pytest.mark.parametrize("brk", BREAKS, ids=IDS)
def test_a_decklist_past_1000_lines_by_any_line_break_is_refused(api, brk):
    text = brk.join(["1 No Such Card"] * (MAX_LINES + 1))
    body = {"game": "conquest-of-orion", "format": "constructed", "text": text}
    assert f"at most {MAX_LINES:,} lines" in errors(api.post(VALIDATE, body), "text")


@pytest.mark.parametrize("brk", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
def test_a_collection_csv_past_10000_lines_by_csv_line_ends_is_refused(api, brk):
    body = brk.join(["name,quantity", *["No Such Card,1"] * MAX_IMPORT_LINES])
    upload = SimpleUploadedFile("big.csv", body.encode(), content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert f"at most {MAX_IMPORT_LINES:,} lines" in errors(response, "csv")
    assert not CollectionCard.objects.exists()


def test_a_collection_csv_with_cr_line_ends_is_read_line_by_line(api):
    card = Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort").first()
    body = f"set,number,quantity\rCFC-SMP,{card.number},2\rCFC-SMP,nope,1\r"
    upload = SimpleUploadedFile("mac.csv", body.encode(), content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert "line 3, set: " in errors(response, "csv")
    upload = SimpleUploadedFile("mac.csv", body.encode()[:-15], content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 200, response.content
    assert CollectionCard.objects.get().quantity == 2


def test_a_card_csv_with_cr_line_ends_imports_and_names_its_lines(tmp_path):
    header = "set,number,name,type,factions,keywords,attack,defence,stars,timing,text"
    rows = ["CFC-SMP,301,Cr Card,Battle,Dwarves,,1,1,,,", "CFC-SMP,302,Bad Card,Battle,,,lots,1,,,"]
    path = tmp_path / "mac.csv"
    path.write_bytes("\r".join([header, *rows]).encode())
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_cards", str(path), "--game", GAME, stdout=io.StringIO(), stderr=err)
    assert "line 3, stats.attack: expected a whole number, got 'lots'" in err.getvalue()
    path.write_bytes("\r".join([header, rows[0]]).encode())
    call_command("import_cards", str(path), "--game", GAME, stdout=io.StringIO())
    assert Card.objects.get(card_set__code="CFC-SMP", number="301").name == "Cr Card"


def test_a_card_json_file_with_cr_line_ends_names_its_lines_as_an_editor_shows_them(tmp_path):
    cards = [{"set": "COF-SMP", "number": str(900 + i), "name": f"Unit {i}"} for i in range(3)]
    cards[2]["stats"] = {"cq": "high"}
    path = tmp_path / "mac.json"
    path.write_text(json.dumps({"cards": cards}, indent=2).replace("\n", "\r"), newline="")
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command(
            "import_cards",
            str(path),
            "--game",
            "conquest-of-fates",
            stdout=io.StringIO(),
            stderr=err,
        )
    # {"cards": [ on line 2, then five lines per card: the third card starts on line 13.
    assert "line 13, stats.cq: expected a whole number, got 'high'" in err.getvalue()
    path.write_text('{"cards": [\r  {"name": "x",}\r]}', newline="")
    with pytest.raises(CommandError):
        call_command(
            "import_cards",
            str(path),
            "--game",
            "conquest-of-fates",
            stdout=io.StringIO(),
            stderr=err,
        )
    assert "line 2: not valid JSON" in err.getvalue()
    assert "(column 16)" in err.getvalue()
