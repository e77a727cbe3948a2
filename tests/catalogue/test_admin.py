import pytest
from django.contrib.auth.models import Group, User

from cardsite.catalogue.models import Card

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator(client):
    user = User.objects.create_user("curator", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name="Curators"))
    client.force_login(user)
    return user


def change_form_data(card: Card, **overrides) -> dict:
    data = {
        "game": card.game_id,
        "card_set": card.card_set_id,
        "number": card.number,
        "name": card.name,
        "card_type": card.card_type_id,
        "rarity": card.rarity_id or "",
        "subtypes": [s.id for s in card.subtypes.all()],
        "factions": [f.id for f in card.factions.all()],
        "keywords": [k.id for k in card.keywords.all()],
        "rules_text": card.rules_text,
        "flavour_text": card.flavour_text,
        "artist": card.artist,
        "stats": '{"cq": 3}',
        "source": card.source,
        "notes": card.notes,
        "rulings-TOTAL_FORMS": "0",
        "rulings-INITIAL_FORMS": "0",
        "errata-TOTAL_FORMS": "0",
        "errata-INITIAL_FORMS": "0",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_a_curator_can_open_the_card_list_and_a_card_with_its_rulings(client, curator):
    insight = Card.objects.get(card_set__code="FF-RB", name="The Insight")
    assert (
        client.get(f"/admin/catalogue/card/?game__id__exact={insight.game_id}").status_code == 200
    )
    page = client.get(f"/admin/catalogue/card/{insight.id}/change/")
    assert page.status_code == 200
    assert "Use of ESP isn" in page.content.decode()


def test_a_curator_can_change_a_cards_stats_through_the_form(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").first()
    response = client.post(
        f"/admin/catalogue/card/{card.id}/change/", change_form_data(card, stats='{"cq": 7}')
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    card.refresh_from_db()
    assert card.stats == {"cq": 7}


def test_the_admin_form_rejects_an_unknown_stat_naming_it(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").first()
    response = client.post(
        f"/admin/catalogue/card/{card.id}/change/", change_form_data(card, stats='{"power": 7}')
    )
    assert response.status_code == 200
    assert "power: unknown stat for Conquest of Fates" in response.content.decode()
    card.refresh_from_db()
    assert "power" not in card.stats


def test_the_admin_form_rejects_a_stat_of_the_wrong_type_naming_it(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").first()
    response = client.post(
        f"/admin/catalogue/card/{card.id}/change/", change_form_data(card, stats='{"cq": "lots"}')
    )
    assert "cq: expected a whole number, got &#x27;lots&#x27;" in response.content.decode()


def test_the_admin_form_rejects_a_faction_of_another_game(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP").first()
    from cardsite.catalogue.models import Faction

    elves = Faction.objects.get(slug="elves")
    response = client.post(
        f"/admin/catalogue/card/{card.id}/change/", change_form_data(card, factions=[elves.id])
    )
    assert "Not Conquest of Fates entries: Elves." in response.content.decode()


def test_an_edited_card_keeps_its_short_id(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").first()
    short_id = card.short_id
    client.post(
        f"/admin/catalogue/card/{card.id}/change/", change_form_data(card, name="Renamed Unit")
    )
    card.refresh_from_db()
    assert (card.name, card.slug, card.short_id) == ("Renamed Unit", "renamed-unit", short_id)


def test_card_types_come_from_the_engines_and_cannot_be_added_by_hand(client, admin_client):
    assert admin_client.get("/admin/catalogue/cardtype/add/").status_code == 403


def test_a_curator_can_leave_a_cards_type_empty_and_mark_values_inferred(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").first()
    response = client.post(
        f"/admin/catalogue/card/{card.id}/change/",
        change_form_data(card, card_type="", inferred='["stats.cq"]'),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    card.refresh_from_db()
    assert (card.card_type, card.inferred) == (None, ["stats.cq"])


def test_the_admin_form_rejects_an_inferred_field_naming_it(client, curator):
    card = Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit").first()
    response = client.post(
        f"/admin/catalogue/card/{card.id}/change/",
        change_form_data(card, inferred='["stats.attack"]'),
    )
    assert response.status_code == 200
    assert "unknown field &#x27;stats.attack&#x27;" in response.content.decode()
