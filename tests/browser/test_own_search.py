"""Searching one's collection in a real browser: what a collector sees, and what a visitor
who is not signed in is told."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-8"


@pytest.fixture
def collector(django_db_blocker):
    with django_db_blocker.unblock():
        user = User.objects.create_user("browser-collector", password=PASSWORD)
        cards = list(Card.objects.filter(game__slug="conquest-of-orion").order_by("name")[:3])
        for quantity, card in enumerate(cards, start=1):
            CollectionCard.objects.create(owner=user, card=card, quantity=quantity)
    yield user, cards
    with django_db_blocker.unblock():
        delete_committed(CollectionCard.objects.filter(owner=user))
        delete_committed(User.objects.filter(pk=user.pk))


def test_a_collector_finds_their_spares_and_a_visitor_is_asked_to_sign_in(
    server, page, collector, shoot
):
    _, cards = collector
    page.goto(server + "/search/?q=own%3E%3D1&view=list")
    expect(page.locator(".dropped-terms li")).to_contain_text(
        "own>=1 was left out: sign in to search your collection"
    )
    shoot("anonymous")

    sign_in(page, server, "browser-collector", PASSWORD)
    page.goto(server + "/search/?q=own%3E%3D2&view=list")
    expect(page.locator(".results-bar .count")).to_have_text("2 cards")
    expect(page.locator(".dropped-terms")).to_have_count(0)
    expect(page.get_by_role("link", name=cards[2].name).first).to_be_visible()
    shoot("spares")

    page.goto(server + "/syntax/#own")
    expect(page.get_by_role("heading", name="Your collection")).to_be_visible()
    shoot("syntax")
