"""Error answers stay small: the first 100 problems, then how many more; a CSV header of more
than 100 columns is refused before its columns are judged (engines/bounds.py)."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from cardsite.collection.models import CollectionCard
from cardsite.collection.services import MAX_IMPORT_LINES
from decks.services.intake import MAX_LINES
from engines.bounds import MAX_CSV_COLUMNS, MAX_SHOWN_PROBLEMS
from tests.hostile.test_collection_limits import readme_limits

pytestmark = pytest.mark.django_db
GAME = "conquest-for-the-capital"
IMPORT = "/api/v1/collection/import/"
UPLOAD = "/api/v1/collection/import/csv/"
VALIDATE = "/api/v1/decks/validate/"
SMALL = 64 * 1024


@pytest.fixture
def mallory():
    return User.objects.create_user("mallory", password="mallory-pass-42")


@pytest.fixture
def api(mallory):
    client = APIClient()
    client.force_authenticate(mallory)
    return client


def unknown_lines(count: int) -> str:
    return "".join(f"1 No Such Card {i}\n" for i in range(count))


def test_a_collection_list_of_10000_unknown_cards_answers_100_problems_and_a_count(api):
    text = unknown_lines(MAX_IMPORT_LINES)
    response = api.post(IMPORT, {"game": GAME, "text": text}, format="json")
    assert response.status_code == 400
    assert len(response.content) < SMALL
    listed = response.json()["errors"]["text"]
    assert len(listed) == MAX_SHOWN_PROBLEMS + 1
    assert listed[0].startswith("line 1, name: ")
    assert listed[-1] == f"and {MAX_IMPORT_LINES - MAX_SHOWN_PROBLEMS:,} more problems"
    assert not CollectionCard.objects.exists()


def test_a_collection_csv_of_10000_bad_rows_answers_100_problems_and_a_count(api):
    body = "name,quantity\n" + "".join(f"Card {i},lots\n" for i in range(MAX_IMPORT_LINES - 1))
    upload = SimpleUploadedFile("bad.csv", body.encode(), content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 400
    assert len(response.content) < SMALL
    listed = response.json()["errors"]["csv"]
    assert listed[-1] == f"and {MAX_IMPORT_LINES - 1 - MAX_SHOWN_PROBLEMS:,} more problems"


def test_the_collection_page_lists_100_problems_and_says_how_many_more(mallory):
    client = Client()
    client.force_login(mallory)
    response = client.post("/collection/", {"game": GAME, "text": unknown_lines(5_000)})
    assert response.status_code == 400
    page = response.content.decode()
    problems = page[page.index('<ol class="problems">') : page.index("</ol>")]
    assert problems.count("<li>") == MAX_SHOWN_PROBLEMS
    assert "5,000 problems" in page
    assert "and 4,900 more problems" in page


def test_a_decklist_of_1000_unreadable_lines_answers_100_problems_and_a_count(api):
    text = "".join(f"0 Card {i}\n" for i in range(MAX_LINES))
    body = {"game": "conquest-of-orion", "format": "constructed", "text": text}
    response = api.post(VALIDATE, body, format="json")
    assert response.status_code == 200, response.content[:300]
    assert len(response.content) < SMALL
    problems = response.json()["problems"]
    assert len(problems) == MAX_SHOWN_PROBLEMS + 1
    assert problems[-1]["code"] == "more_problems"
    assert problems[-1]["message"].startswith("And 9")
    assert response.json()["legal"] is False


def test_a_collection_csv_header_of_50000_columns_is_refused_naming_the_limit(api):
    header = ",".join(f"c{i}" for i in range(50_000))
    upload = SimpleUploadedFile("wide.csv", f"{header}\n".encode(), content_type="text/csv")
    response = api.post(UPLOAD, {"csv": upload, "game": GAME}, format="multipart")
    assert response.status_code == 400
    assert len(response.content) < 2_000
    message = " ".join(response.json()["errors"]["csv"])
    assert f"at most {MAX_CSV_COLUMNS} columns" in message
    assert "50,000" in message


def test_a_card_csv_header_of_101_columns_is_one_problem_naming_the_limit(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{i}" for i in range(MAX_CSV_COLUMNS + 1)) + "\n")
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_cards", str(path), "--game", GAME, stdout=io.StringIO(), stderr=err)
    assert f"at most {MAX_CSV_COLUMNS} columns" in err.getvalue()


def test_the_readme_states_the_bounds_on_lines_problems_columns_and_drawing():
    table = readme_limits()
    assert "every line break `str.splitlines` knows" in table
    assert "a lone CR" in table
    assert f"the first **{MAX_SHOWN_PROBLEMS}**" in table
    assert f"at most **{MAX_CSV_COLUMNS}** columns" in table
    assert "**60 faces a minute**" in table
    # A save's faces are queued on one drawing thread, however many a request asks for.
    assert "**240 a minute**" in table
    assert "at most **2,000** jobs waiting" in table
