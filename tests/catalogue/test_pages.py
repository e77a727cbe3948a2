import pytest

from cardsite.catalogue.models import Card

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_five_games(client):
    page = client.get("/").content.decode()
    for name in [
        "Conquest of Fates",
        "Conquest of Orion",
        "Fate Foretold",
        "Conquest for the Capital",
        "Star Trek - Conquest Alpha: Tactics",
    ]:
        assert name in page


def test_a_game_page_shows_its_sets_with_the_sample_set_labelled(client):
    page = client.get("/games/conquest-of-orion/").content.decode()
    assert "ORI-RB" in page and "ORI-SMP" in page
    assert "unofficial sample" in page
    assert "Guardian" in page


def test_an_unknown_game_page_is_a_404(client):
    assert client.get("/games/magic/").status_code == 404


def test_a_card_page_shows_its_stats_rulings_and_errata(client):
    insight = Card.objects.get(card_set__code="FF-RB", name="The Insight")
    page = client.get(insight.get_absolute_url()).content.decode()
    assert "another player" in page
    assert "Use of ESP" in page
    assert "unofficial sample" not in page.split("<main>")[1].split("</main>")[0]


def test_a_sample_card_page_is_labelled_unofficial_sample(client):
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    page = client.get(card.get_absolute_url()).content.decode()
    assert "unofficial sample" in page.split("<main>")[1]


def test_the_short_link_redirects_to_the_card_page(client):
    card = Card.objects.get(card_set__code="ORI-RB", name="Heliokraken")
    response = client.get(f"/c/{card.short_id}")
    assert response.status_code == 302
    assert response["Location"] == f"/cards/{card.short_id}/heliokraken/"
    assert client.get(response["Location"]).status_code == 200


def test_a_card_url_with_an_old_slug_redirects_to_the_current_one(client):
    card = Card.objects.get(card_set__code="ORI-RB", name="Heliokraken")
    response = client.get(f"/cards/{card.short_id}/old-name/")
    assert response.status_code == 301
    assert response["Location"] == card.get_absolute_url()


def test_an_unknown_short_link_is_a_404(client):
    assert client.get("/c/zzzzzzzz").status_code == 404
