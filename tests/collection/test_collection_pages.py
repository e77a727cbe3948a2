import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from cardsite.collection.models import CollectionCard, CollectionShare
from cardsite.collection.services import collection_set_quantity
from tests.collection.conftest import GAME

pytestmark = pytest.mark.django_db


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def held(user):
    return dict(CollectionCard.objects.filter(owner=user).values_list("card_id", "quantity"))


def test_the_collection_page_needs_a_signed_in_user():
    response = Client().get("/collection/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_collection_page_shows_totals_completion_and_missing_cards(alice, cards):
    for card in cards[:3]:
        collection_set_quantity(owner=alice, card=card, quantity=2)
    page = signed_in(alice).get("/collection/").content.decode()
    assert "Your collection" in page
    size = cards[0].card_set.cards.count()
    assert f"3 / {size}" in page
    assert f"{size - 3} still missing" in page
    assert cards[3].name in page  # a missing card is listed
    assert "6 copies" in page


def test_a_pasted_list_is_imported_and_the_page_says_how_many_copies(alice, cards):
    response = signed_in(alice).post(
        "/collection/", {"game": GAME, "mode": "add", "text": f"3 {cards[0].name}"}, follow=True
    )
    assert "Imported 3 copies" in response.content.decode()
    assert held(alice) == {cards[0].id: 3}


def test_an_import_with_problems_lists_them_by_line_and_stores_nothing(alice, cards):
    text = f"3 {cards[0].name}\n\n2 Nothing Like This"
    response = signed_in(alice).post("/collection/", {"game": GAME, "text": text})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported" in page
    assert "line 3" in page
    assert "Nothing Like This" in page  # the pasted text is kept in the box
    assert held(alice) == {}


def test_an_empty_replace_on_the_page_asks_for_the_box_that_confirms_it(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    client = signed_in(alice)
    form = {"game": GAME, "mode": "replace", "text": "# sold it all\n"}
    asked = client.post("/collection/", form)
    assert asked.status_code == 400
    page = asked.content.decode()
    assert "names no card" in page and 'name="confirm_empty"' in page
    assert held(alice) == {cards[0].id: 5}
    emptied = client.post("/collection/", {**form, "confirm_empty": "1"})
    assert emptied.status_code == 302
    assert held(alice) == {}
    assert 'name="confirm_empty"' not in client.get("/collection/").content.decode()


def test_a_csv_upload_on_the_page_imports_it(alice, cards):
    upload = SimpleUploadedFile(
        "c.csv", f"name,quantity\n{cards[1].name},4\n".encode(), content_type="text/csv"
    )
    response = signed_in(alice).post("/collection/", {"game": GAME, "csv": upload})
    assert response.status_code == 302
    assert held(alice) == {cards[1].id: 4}


def test_the_export_links_download_text_and_csv(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    client = signed_in(alice)
    text = client.get(f"/collection/export/txt?game={GAME}")
    assert text["Content-Disposition"].startswith("attachment")
    assert (
        f"5 {cards[0].name} ({cards[0].card_set.code}) {cards[0].number}" in text.content.decode()
    )
    assert client.get("/collection/export/csv").content.decode().startswith("game,set,number")
    assert client.get("/collection/export/xlsx").status_code == 404


def test_another_users_collection_is_a_404_unless_they_shared_it(alice, bob, cards):
    collection_set_quantity(owner=bob, card=cards[0], quantity=1)
    assert signed_in(alice).get("/collection/bob/").status_code == 404
    assert Client().get("/collection/bob/").status_code == 404
    assert signed_in(alice).get("/collection/nobody-at-all/").status_code == 404
    CollectionShare.objects.create(owner=bob, reader=alice)
    page = signed_in(alice).get("/collection/bob/").content.decode()
    assert "bob's collection" in page
    assert "Add cards" not in page  # read-only: no import form, no export of bob's


def test_the_card_page_shows_the_viewers_copies_with_plus_and_minus(alice, cards):
    card = cards[0]
    client = signed_in(alice)
    url = card.get_absolute_url()
    assert "In your collection: <strong" in client.get(url).content.decode()
    response = client.post(f"/collection/cards/{card.short_id}/", {"step": "1", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url).content.decode()
    assert '<strong class="owned-count">1</strong>' in page
    # The page body is cached for everyone: another visitor sees no buttons and no count.
    assert "In your collection" not in Client().get(url).content.decode()


def test_minus_at_zero_changes_nothing_and_a_bad_step_is_a_400(alice, cards):
    client = signed_in(alice)
    url = f"/collection/cards/{cards[0].short_id}/"
    assert client.post(url, {"step": "-1"}).status_code == 302
    assert held(alice) == {}
    for step in ("2", "NaN", "²", "", "1e9"):
        assert client.post(url, {"step": step}).status_code == 400
    assert held(alice) == {}


def test_plus_through_htmx_answers_the_buttons_alone(alice, cards):
    response = signed_in(alice).post(
        f"/collection/cards/{cards[0].short_id}/",
        {"step": "1", "compact": "1", "next": "/search/?q=x"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert body.startswith('<form class="owned compact"')
    assert "\u00d71" in body
    assert 'value="/search/?q=x"' in body


def test_next_off_the_site_goes_back_to_the_card_instead(alice, cards):
    response = signed_in(alice).post(
        f"/collection/cards/{cards[0].short_id}/", {"step": "1", "next": "//evil.example/"}
    )
    assert response["Location"] == cards[0].get_absolute_url()


def test_search_results_carry_plus_and_minus_for_a_signed_in_viewer_only(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=7)
    query = {"q": cards[0].name, "game": GAME, "view": "list"}
    page = signed_in(alice).get("/search/", query).content.decode()
    assert "\u00d77" in page
    anonymous = Client().get("/search/", query).content.decode()
    assert "owned compact" not in anonymous
    assert "\u00d77" not in anonymous


def test_the_menu_links_the_collection_for_signed_in_users(alice):
    assert 'href="/collection/"' in signed_in(alice).get("/").content.decode()
    assert 'href="/collection/"' not in Client().get("/").content.decode()
