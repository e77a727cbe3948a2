import pytest

from cardsite.catalogue.history import provenance
from cardsite.catalogue.models import Card
from tests.contributions.history_support import (
    RULEBOOK_CARD,
    SAMPLE_CARD,
    approved_card,
    approved_edit,
    curator,
    player,
)

pytestmark = pytest.mark.django_db


def test_a_rulebook_card_s_values_come_from_its_rulebook_passage():
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    origins = provenance(card=card)
    assert {o.origin for o in origins.values()} == {"rulebook"}
    assert origins["name"].passage == card.source
    assert "attack" in origins and "art" in origins


def test_a_sample_card_s_values_come_from_the_unofficial_sample_set():
    origins = provenance(card=Card.objects.get(short_id=SAMPLE_CARD))
    assert {o.origin for o in origins.values()} == {"sample"}


def test_a_card_with_no_passage_holds_data_a_curator_loaded():
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    Card.objects.filter(pk=card.pk).update(source="")
    card.refresh_from_db()
    assert {o.origin for o in provenance(card=card).values()} == {"loaded"}


def test_an_approved_edit_makes_only_its_field_community_sourced_naming_who_and_the_source():
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    ann, cur = player("ann"), curator("cur")
    approved_edit(card, ann, cur, flavour="From the hand of Ann.")
    origins = provenance(card=Card.objects.get(pk=card.pk))
    flavour = origins["flavour"]
    assert flavour.origin == "community"
    assert (flavour.proposed_by, flavour.approved_by) == ("ann", "cur")
    assert flavour.source["url"] == "https://publisher.example/cards/hand-card"
    assert flavour.at is not None
    assert origins["name"].origin == "rulebook"


def test_a_card_the_community_added_is_community_sourced_in_every_field_but_its_art():
    card = approved_card(player("ann"), curator("cur"))
    origins = provenance(card=card)
    assert origins["name"].origin == origins["attack"].origin == "community"
    assert origins["name"].source["text"] == "Printed on the card, page 3"
    assert origins["art"].origin != "community"
    assert card.community == "sourced"


def test_provenance_reads_the_card_s_changes_in_one_query(django_assert_num_queries):
    card = Card.objects.select_related("game", "card_set").get(short_id=RULEBOOK_CARD)
    approved_edit(card, player("ann"), curator("cur"), flavour="New words.")
    with django_assert_num_queries(1):
        provenance(card=card)
