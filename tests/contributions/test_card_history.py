import pytest
from django.urls import reverse

from cardsite.catalogue.models import Card, CardChange
from tests.contributions.history_support import (
    RULEBOOK_CARD,
    approved_card,
    approved_edit,
    curator,
    player,
)

pytestmark = pytest.mark.django_db


def history_url(card: Card) -> str:
    return reverse("contributions:card-history", args=[card.short_id])


def test_the_card_page_marks_community_values_and_lists_the_history_after_an_approval(client):
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    client.get(card.get_absolute_url())  # cached before the approval: the version moves on
    approved_edit(card, player("ann"), curator("cur"), flavour="Ann's own words.")
    page = client.get(card.get_absolute_url()).content.decode()
    assert "Ann&#x27;s own words." in page
    assert 'class="badge community community-mark"' in page
    assert "proposed by ann, approved by cur" in page
    assert "History" in page and "Proposed by ann, approved by cur" in page
    assert 'href="https://publisher.example/cards/hand-card" rel="nofollow ugc noopener"' in page


def test_a_card_the_community_added_is_labelled_community_sourced_on_its_page_and_in_search(
    client,
):
    card = approved_card(player("ann"), curator("cur"))
    assert "community-sourced" in client.get(card.get_absolute_url()).content.decode()
    found = client.get(reverse("catalogue:search"), {"q": "Hand Card"}).content.decode()
    assert 'class="badge community"' in found


def test_the_history_page_shows_every_change_with_no_buttons_for_a_player(client):
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    approved_edit(card, player("ann"), curator("cur"), flavour="One.")
    client.force_login(player("bob"))
    page = client.get(history_url(card)).content.decode()
    assert "Proposed by ann" in page
    assert 'data-action="revert"' not in page and 'data-action="confirm"' not in page


def test_a_curator_reverts_a_change_and_the_revert_is_itself_a_recorded_change(client):
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    before = card.flavour_text
    cur = curator("cur")
    approved_edit(card, player("ann"), cur, flavour="Wrong words.")
    change = CardChange.objects.get(card=card, field="flavour")
    client.force_login(cur)
    page = client.get(history_url(card)).content.decode()
    assert 'data-action="revert"' in page
    response = client.post(reverse("contributions:revert", args=[card.short_id, change.pk]))
    assert response.status_code == 302
    assert Card.objects.get(pk=card.pk).flavour_text == before
    revert = CardChange.objects.get(card=card, reverts=change)
    assert (revert.reviewer, revert.after) == (cur, change.before)
    assert f"revert of change {change.pk}" in client.get(history_url(card)).content.decode()


def test_a_player_who_is_not_a_curator_gets_403_on_revert_and_confirm(client):
    cur = curator("cur")
    card = approved_card(player("ann"), cur)
    change = CardChange.objects.filter(card=card).last()
    client.force_login(player("bob"))
    revert = client.post(reverse("contributions:revert", args=[card.short_id, change.pk]))
    confirm = client.post(reverse("contributions:confirm", args=[card.short_id]))
    assert (revert.status_code, confirm.status_code) == (403, 403)
    assert (
        CardChange.objects.filter(card=card).count()
        == CardChange.objects.filter(card=card, reverts=None).count()
    )
    assert Card.objects.get(pk=card.pk).community == "sourced"


def test_a_second_curator_confirms_a_community_card_but_its_approver_cannot(client):
    approver = curator("cur")
    card = approved_card(player("ann"), approver)
    client.force_login(approver)
    assert 'data-action="confirm"' in client.get(history_url(card)).content.decode()
    refused = client.post(reverse("contributions:confirm", args=[card.short_id]))
    assert refused.status_code == 400
    assert "second curator" in refused.content.decode()
    client.force_login(curator("second"))
    assert client.post(reverse("contributions:confirm", args=[card.short_id])).status_code == 302
    card.refresh_from_db()
    assert card.community == "confirmed"
    assert "confirmed by a second curator" in client.get(card.get_absolute_url()).content.decode()


def test_an_anonymous_revert_changes_nothing(client):
    card = Card.objects.get(short_id=RULEBOOK_CARD)
    approved_edit(card, player("ann"), curator("cur"), flavour="Kept.")
    change = CardChange.objects.get(card=card, field="flavour")
    response = client.post(reverse("contributions:revert", args=[card.short_id, change.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Card.objects.get(pk=card.pk).flavour_text == "Kept."
