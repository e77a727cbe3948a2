"""A collection in a real browser: + on a card page (htmx, the count changes in place), a
pasted import with a problem shown by line, then the page's totals and missing cards."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card
from tests.browser.conftest import delete_committed, sign_in


@pytest.fixture
def collector(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its rows.
    with django_db_blocker.unblock():
        user = User.objects.create_user("browser-collector", password="a-Long-browser-pass-7")
        cards = list(Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort")[:4])
    yield user, cards
    with django_db_blocker.unblock():
        from cardsite.collection.models import CollectionCard

        delete_committed(CollectionCard.objects.filter(owner=user))
        delete_committed(User.objects.filter(pk=user.pk))


def test_a_collector_adds_cards_by_button_and_by_paste_and_sees_what_is_missing(
    server, page, shoot, collector
):
    user, cards = collector
    sign_in(page, server, user.username, "a-Long-browser-pass-7")

    page.goto(server + cards[0].get_absolute_url())
    owned = page.locator("form.owned")
    expect(owned).to_contain_text("In your collection: 0")
    owned.get_by_role("button", name="One copy more in your collection").click()
    expect(page.locator("form.owned .owned-count")).to_have_text("1")
    shoot("card-page")

    page.goto(server + "/collection/")
    # Closed once something is held: the totals come first.
    page.get_by_role("heading", name="Add cards").click()
    page.get_by_label("Game", exact=True).select_option("conquest-for-the-capital")
    page.get_by_label("Paste a list").fill(f"3 {cards[1].name}\n2 Not A Real Card\n")
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("alert")).to_contain_text("line 2")
    shoot("import-problem")

    page.get_by_label("Paste a list").fill(f"3 {cards[1].name}\n2 {cards[2].name}\n")
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status")).to_contain_text("Imported 5 copies")
    page.locator("details.missing summary").first.click()
    expect(page.locator("details.missing").first).to_contain_text(cards[3].name)
    shoot("collection")

    # Search results carry the same buttons, compact, beside each name.
    page.goto(server + "/search/?game=conquest-for-the-capital&view=list&q=s:CFC-SMP")
    row = page.locator("tr", has=page.get_by_role("link", name=cards[0].name, exact=True))
    expect(row.locator(".owned-count")).to_have_text("\u00d71")
    row.get_by_role("button", name="One copy more in your collection").click()
    expect(row.locator(".owned-count")).to_have_text("\u00d72")
    shoot("search")
    page.goto(server + "/search/?game=conquest-for-the-capital&q=s:CFC-SMP")
    expect(page.locator(".face-grid form.owned.compact").first).to_be_visible()
    shoot("search-faces")
