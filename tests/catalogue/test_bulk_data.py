import csv
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from cardsite.catalogue.bulk import bulk_folder
from cardsite.catalogue.models import Card
from cardsite.catalogue.selectors import catalogue_document
from tests.contributions.history_support import (
    GAME,
    RULEBOOK_CARD,
    approved_card,
    approved_edit,
    curator,
    player,
)

pytestmark = pytest.mark.django_db


def json_url() -> str:
    return reverse("catalogue:bulk-json", args=[GAME])


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_the_json_download_is_the_catalogue_document_as_an_attachment_with_validators(client):
    response = client.get(json_url())
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert response["ETag"] and response["Last-Modified"]
    document = json.loads(body(response))
    assert document["format"] == "cardsite-catalogue"
    assert {c["community"] for c in document["cards"]} == {""}
    again = client.get(json_url(), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_the_download_is_not_made_again_while_the_catalogue_does_not_change(client):
    body(client.get(json_url()))
    [made] = bulk_folder().glob(f"{GAME}-*.json")
    stamp = made.stat().st_mtime_ns
    body(client.get(json_url()))
    assert [p.stat().st_mtime_ns for p in bulk_folder().glob(f"{GAME}-*.json")] == [stamp]


def test_an_approval_makes_a_new_download_with_the_new_value_and_its_provenance(client):
    first = client.get(json_url())
    body(first)
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    approved_edit(card, player("ann"), curator("cur"), flavour="Ann's words.")
    second = client.get(json_url(), HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    [record] = [c for c in json.loads(body(second))["cards"] if c["short_id"] == RULEBOOK_CARD]
    assert record["flavour"] == "Ann's words."
    origin = record["provenance"]["flavour"]
    assert (origin["origin"], origin["proposed_by"], origin["approved_by"]) == (
        "community",
        "ann",
        "cur",
    )
    assert origin["source"]["url"] == "https://publisher.example/cards/hand-card"
    assert "name" not in record["provenance"]  # rulebook values stay implicit
    assert len(list(bulk_folder().glob(f"{GAME}-*.json"))) == 1  # the old version is pruned


def test_the_csv_download_has_a_provenance_column(client):
    approved_card(player("ann"), curator("cur"))
    response = client.get(reverse("catalogue:bulk-csv", args=[GAME]))
    rows = list(csv.DictReader(io.StringIO(body(response).decode())))
    [added] = [r for r in rows if r["name"] == "Hand Card"]
    assert added["community"] == "sourced"
    assert json.loads(added["provenance"])["name"]["proposed_by"] == "ann"


def test_an_unknown_game_or_format_has_no_download(client):
    assert client.get(reverse("catalogue:bulk-json", args=["no-such-game"])).status_code == 404


def test_the_game_page_links_the_downloads(client):
    page = client.get(reverse("catalogue:game", args=[GAME])).content.decode()
    assert json_url() in page and reverse("catalogue:bulk-csv", args=[GAME]) in page


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_an_export_with_provenance_imports_back(tmp_path, fmt):
    approved_card(player("ann"), curator("cur"))
    path = tmp_path / f"cards.{fmt}"
    call_command(
        "export_cards", "--game", GAME, "--format", fmt, "--output", str(path), stdout=io.StringIO()
    )
    assert "provenance" in path.read_text()
    out = io.StringIO()
    call_command("import_cards", str(path), "--game", GAME, stdout=out, stderr=io.StringIO())
    card = Card.objects.get(game__slug=GAME, name="Hand Card")
    assert card.community == "sourced"
    assert catalogue_document(game=card.game)["cards"]


def test_a_reader_who_waited_for_another_to_make_the_file_is_not_charged_for_making_it():
    import threading
    import time

    from cardsite.catalogue.bulk import bulk_file
    from cardsite.catalogue.models import Game

    game = Game.objects.get(slug=GAME)
    charged: list[str] = []
    waiting = threading.Thread(
        target=lambda: bulk_file(
            game=game, fmt="csv", before_generating=lambda: charged.append("second")
        )
    )

    def first_is_charged() -> None:
        charged.append("first")
        # The second reader asks while the first is about to make the file.
        waiting.start()
        time.sleep(0.3)

    bulk_file(game=game, fmt="csv", before_generating=first_is_charged)
    waiting.join(timeout=30)
    assert charged == ["first"]
