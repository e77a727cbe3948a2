import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard
from cardsite.collection.services import collection_set_quantity
from tests.collection.conftest import GAME

pytestmark = pytest.mark.django_db
BASE = "/api/v1/collection/"


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def held(user):
    return dict(CollectionCard.objects.filter(owner=user).values_list("card__short_id", "quantity"))


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", BASE),
        ("put", BASE + "cards/x/"),
        ("post", BASE + "import/"),
        ("post", BASE + "import/csv/"),
        ("get", BASE + "export/"),
    ],
)
def test_every_collection_operation_needs_a_signed_in_user(method, path):
    response = getattr(APIClient(), method)(path, {}, format="json")
    assert response.status_code == 401


def test_the_list_is_paged_and_holds_only_the_requesters_own_cards(alice, bob, cards):
    for card in cards:
        collection_set_quantity(owner=alice, card=card, quantity=2)
    collection_set_quantity(owner=bob, card=cards[0], quantity=9)
    page = client_for(alice).get(BASE, {"page_size": 4, "game": GAME}).json()
    assert page["count"] == len(cards)
    assert len(page["results"]) == 4
    assert page["results"][0] == {
        "id": cards[0].short_id,
        "name": cards[0].name,
        "game": GAME,
        "set": cards[0].card_set.code,
        "number": cards[0].number,
        "quantity": 2,
    }
    second = client_for(alice).get(BASE, {"page_size": 4, "page": 2, "game": GAME}).json()
    assert {r["quantity"] for r in second["results"]} == {2}


def test_an_unknown_game_is_a_400_naming_game(alice):
    response = client_for(alice).get(BASE, {"game": "chess"})
    assert response.status_code == 400
    assert "game" in response.json()["errors"]


def test_put_sets_a_quantity_and_0_removes_it(alice, cards):
    api = client_for(alice)
    url = f"{BASE}cards/{cards[0].short_id}/"
    assert api.put(url, {"quantity": 4}, format="json").json() == {
        "id": cards[0].short_id,
        "quantity": 4,
    }
    assert held(alice) == {cards[0].short_id: 4}
    assert api.put(url, {"quantity": 0}, format="json").status_code == 200
    assert held(alice) == {}


@pytest.mark.parametrize("quantity", [1000, -1, "3", 2.5, True, None, "NaN", "²", 10**40])
def test_put_refuses_a_quantity_that_is_not_a_whole_number_0_to_999(alice, cards, quantity):
    response = client_for(alice).put(
        f"{BASE}cards/{cards[0].short_id}/", {"quantity": quantity}, format="json"
    )
    assert response.status_code == 400
    assert "quantity" in response.json()["errors"]
    assert held(alice) == {}


def test_put_for_a_card_that_does_not_exist_is_a_404(alice):
    assert client_for(alice).put(f"{BASE}cards/nope/", {"quantity": 1}).status_code == 404


def test_a_pasted_import_is_all_or_nothing_and_names_each_line(alice, cards):
    api = client_for(alice)
    bad = {"game": GAME, "text": f"2 {cards[0].name}\n3 Not A Card"}
    response = api.post(BASE + "import/", bad, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["text"][0].startswith("line 2")
    assert held(alice) == {}
    good = {"game": GAME, "text": f"2 {cards[0].name}"}
    assert api.post(BASE + "import/", good, format="json").json() == {"printings": 1, "copies": 2}
    assert held(alice) == {cards[0].short_id: 2}


def test_a_csv_upload_imports_and_export_writes_it_back(alice, bob, cards):
    for n, card in enumerate(cards, start=1):
        collection_set_quantity(owner=alice, card=card, quantity=n)
    written = client_for(alice).get(BASE + "export/", {"as": "csv", "game": GAME})
    assert written["Content-Type"].startswith("text/csv")
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("mine.csv", written.content, content_type="text/csv")
    response = client_for(bob).post(
        BASE + "import/csv/", {"csv": upload, "game": GAME}, format="multipart"
    )
    assert response.status_code == 200, response.content
    assert held(bob) == held(alice)


def test_a_text_export_reads_back_as_a_pasted_import(alice, bob, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=12)
    text = client_for(alice).get(BASE + "export/", {"as": "text"}).content.decode()
    body = {"game": GAME, "text": text, "mode": "replace"}
    assert client_for(bob).post(BASE + "import/", body, format="json").status_code == 200
    assert held(bob) == {cards[0].short_id: 12}


def test_an_empty_replace_is_a_400_naming_confirm_empty_until_confirmed(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    api = client_for(alice)
    body = {"game": GAME, "text": "\n# nothing here\n", "mode": "replace"}
    refused = api.post(BASE + "import/", body, format="json")
    assert refused.status_code == 400
    assert "names no card" in refused.json()["errors"]["confirm_empty"][0]
    assert held(alice) == {cards[0].short_id: 5}
    not_json_true = api.post(BASE + "import/", {**body, "confirm_empty": "yes"}, format="json")
    assert not_json_true.status_code == 400 and held(alice) == {cards[0].short_id: 5}
    emptied = api.post(BASE + "import/", {**body, "confirm_empty": True}, format="json")
    assert emptied.status_code == 200
    assert emptied.json() == {"printings": 0, "copies": 0}
    assert held(alice) == {}


def test_a_csv_file_sent_to_the_json_import_is_a_415_naming_the_upload_url(alice):
    csv = SimpleUploadedFile("c.csv", b"set,number,quantity\n", content_type="text/csv")
    response = client_for(alice).post(
        BASE + "import/", {"csv": csv, "game": GAME}, format="multipart"
    )
    assert response.status_code == 415
    assert "/api/v1/collection/import/csv/" in response.json()["detail"]


def test_an_uploaded_csv_of_a_header_alone_replaces_only_when_confirmed(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    api = client_for(alice)

    def upload(**extra: str) -> int:
        csv = SimpleUploadedFile("c.csv", b"set,number,quantity\n", content_type="text/csv")
        body = {"csv": csv, "game": GAME, "mode": "replace", **extra}
        return api.post(BASE + "import/csv/", body, format="multipart").status_code

    assert upload() == 400
    assert held(alice) == {cards[0].short_id: 5}
    assert upload(confirm_empty="true") == 200
    assert held(alice) == {}


def test_an_export_as_anything_else_is_a_400_naming_as(alice):
    response = client_for(alice).get(BASE + "export/", {"as": "xlsx"})
    assert response.status_code == 400
    assert "as" in response.json()["errors"]


def test_no_operation_reads_another_users_collection(alice, bob, cards):
    collection_set_quantity(owner=bob, card=cards[0], quantity=7)
    api = client_for(alice)
    assert api.get(BASE).json()["count"] == 0
    for params in ({"owner": "bob"}, {"user": bob.pk}, {"username": "bob"}):
        assert api.get(BASE, params).json()["count"] == 0
        assert api.get(BASE + "export/", {"as": "csv", **params}).content.decode().count("\n") == 1
    assert Card.objects.filter(owned__owner=bob).count() == 1
