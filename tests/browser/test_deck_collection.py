"""A deck against the viewer's collection in a real browser: what it lacks (folded, then
opened), the built decks competing for a card, and unbuilding without JavaScript."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard
from decks.services import Intake, RequestedCard, deck_create
from decks.services.building import deck_build
from tests.browser.conftest import SCREENSHOTS, delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-7"


@pytest.fixture
def shelf(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its decks.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-shelf", password=PASSWORD)
        game = Game.objects.get(slug="conquest-of-orion")
        picks = list(Card.objects.filter(game=game, card_set__is_official=False).order_by("id")[:5])

        def make(name, copies):
            deck = deck_create(
                owner=owner,
                game=game,
                format_slug="constructed",
                name=name,
                visibility="public",
                intake=Intake(tuple(RequestedCard(copies, None, c.short_id) for c in picks)),
            )
            return deck_build(deck=deck, user=owner)

        first, second = make("Armada of Glass", 3), make("Keeper Fleet", 2)
        for card in picks[:3]:
            CollectionCard.objects.create(owner=owner, card=card, quantity=4)
    yield first, second, picks
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_player_sees_what_their_collection_lacks_and_which_built_decks_compete(
    server, page, shoot, shelf, request
):
    first, _, picks = shelf
    sign_in(page, server, "browser-shelf", PASSWORD)
    page.goto(server + first.get_absolute_url())
    section = page.locator("#collection")
    expect(section.get_by_text("Your collection lacks 9 cards for this deck")).to_be_visible()
    expect(
        section.get_by_text(
            f"{picks[0].name}: you own 4, built decks need 5 (1 short)."
            " Competes with Keeper Fleet (2)."
        )
    ).to_be_visible()
    section.get_by_text("Your collection lacks").click()
    expect(section.get_by_role("link", name="Download the missing list (.txt)")).to_be_visible()
    folder = SCREENSHOTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        section.screenshot(path=str(folder / f"collection-section-{width}.png"))
    shoot("deck-page")

    section.get_by_role("button", name="Unbuild: free its copies").click()
    expect(page.locator("#collection").get_by_role("button", name="Mark as built")).to_be_visible()
    expect(page.get_by_text("Competes with")).to_have_count(0)

    page.goto(server + f"/decks/{first.share_key}/edit/")
    panel = page.locator("#deck-panel")
    expect(panel.get_by_text("Your collection lacks 6 cards for this deck")).to_be_visible()
    expect(panel.locator(".owned.short")).to_have_count(2)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        panel.screenshot(path=str(folder / f"builder-panel-{width}.png"))
