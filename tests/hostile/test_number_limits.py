"""Numbers the database cannot store are refused by name when they come in, the same way on
SQLite (which would keep 64 bits) and PostgreSQL (which keeps 32, or 16 for a rarity's order),
and nothing is written."""

import io
import json

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

from cardsite.api.pagination import StablePagination
from cardsite.catalogue.models import Card, Rarity

pytestmark = pytest.mark.django_db


def refused_import(tmp_path, name: str, content: str, game: str) -> str:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_cards", str(path), "--game", game, stdout=io.StringIO(), stderr=err)
    return err.getvalue()


def test_a_collector_number_too_large_to_sort_by_is_refused_naming_line_and_field(tmp_path):
    before = Card.objects.count()
    errors = refused_import(
        tmp_path,
        "cards.csv",
        "set,number,name,cq\nCOF-SMP,900,Fine,1\nCOF-SMP,99999999999,Huge,1\n",
        "conquest-of-fates",
    )
    assert "line 3, number: the number part of a collector number may be at most 2,147,483,647" in (
        errors
    )
    assert Card.objects.count() == before


def test_a_stat_beyond_a_32_bit_integer_is_refused_naming_line_and_field(tmp_path):
    before = Card.objects.count()
    errors = refused_import(
        tmp_path,
        "cards.csv",
        "set,number,name,cq\nCOF-SMP,900,Huge,2147483648\nCOF-SMP,901,Tiny,-2147483649\n",
        "conquest-of-fates",
    )
    assert "line 2, stats.cq: must be between -2,147,483,648 and 2,147,483,647" in errors
    assert "line 3, stats.cq: must be between -2,147,483,648 and 2,147,483,647" in errors
    assert Card.objects.count() == before


def test_the_largest_stat_is_stored_and_ordered_by_alike_everywhere(tmp_path, api):
    path = tmp_path / "cards.csv"
    path.write_text("set,number,name,cq\nCOF-SMP,900,Largest,2147483647\n", encoding="utf-8")
    call_command("import_cards", str(path), "--game", "conquest-of-fates", stdout=io.StringIO())
    response = api.get("/api/v1/cards/", {"q": "order:cq dir:desc", "game": "conquest-of-fates"})
    assert response.status_code == 200
    assert response.json()["results"][0]["name"] == "Largest"


def test_a_rarity_order_beyond_a_small_integer_is_refused_naming_it(tmp_path):
    errors = refused_import(
        tmp_path,
        "rarities.json",
        json.dumps({"rarities": [{"name": "Mythic", "order": 32768}]}),
        "conquest-of-fates",
    )
    assert "order: must be a whole number from 0 to 32,767, got 32768" in errors
    assert not Rarity.objects.filter(name="Mythic").exists()


@pytest.fixture
def curator(client):
    user = User.objects.create_user("curator", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name="Curators"))
    client.force_login(user)
    return user


def test_the_admin_refuses_a_collector_number_too_large_beside_the_field(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP").first()
    data = {
        "game": card.game_id,
        "card_set": card.card_set_id,
        "number": "99999999999",
        "name": card.name,
        "stats": "{}",
        "inferred": "[]",
        "rulings-TOTAL_FORMS": "0",
        "rulings-INITIAL_FORMS": "0",
        "errata-TOTAL_FORMS": "0",
        "errata-INITIAL_FORMS": "0",
    }
    response = client.post(f"/admin/catalogue/card/{card.id}/change/", data)
    assert response.status_code == 200
    assert "may be at most 2,147,483,647" in response.content.decode()
    card.refresh_from_db()
    assert card.number != "99999999999"


def test_the_admin_refuses_a_rarity_order_beyond_a_small_integer(client, curator):
    rarity = Rarity.objects.first()
    response = client.post(
        f"/admin/catalogue/rarity/{rarity.id}/change/",
        {"game": rarity.game_id, "name": rarity.name, "slug": rarity.slug, "order": "40000"},
    )
    assert response.status_code == 200
    assert "less than or equal to 32767" in response.content.decode()
    rarity.refresh_from_db()
    assert rarity.order != 40000


@pytest.mark.parametrize("page", ["1000000001", "9" * 30, "9" * 5000])
@pytest.mark.parametrize("url", ["/api/v1/cards/", "/api/v1/decks/", "/api/v1/games/"])
def test_an_api_page_number_past_the_limit_is_a_400_naming_it_whatever_its_length(api, url, page):
    response = api.get(url, {"page": page})
    assert response.status_code == 400
    (message,) = response.json()["errors"]["page"]
    assert message.startswith(f"Must be one whole number from 1 to {StablePagination.max_page:,}")
    # The refusal quotes the number cut short, not all of it.
    assert len(response.content) < 300


def test_an_api_page_within_the_limit_but_past_the_last_is_still_a_404(api):
    response = api.get("/api/v1/games/", {"page": str(StablePagination.max_page)})
    assert response.status_code == 404
