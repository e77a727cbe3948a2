"""The "done means" path of proposals in a real browser, at desktop width and 390 px, with
axe: a player adds a card from their hand with a photo of it as the source, a curator
approves it from the review queue with the keyboard, and the card is then found by search."""

import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, CardChange, Game
from cardsite.contributions.models import Curator, Proposal
from tests.browser.conftest import PHONE, delete_committed, sign_in
from tests.browser.test_every_page import SitePage, axe_violations, overflow_at_390

GAME = "conquest-for-the-capital"
PASSWORD = "a-Long-proposing-pass-7"
CARD_NAME = "Lantern of the Hand"


@pytest.fixture
def people(django_db_blocker):
    # Committed for the live server; an hour old, as proposing needs.
    with django_db_blocker.unblock():
        player = User.objects.create_user("browser-player", password=PASSWORD)
        curator = User.objects.create_user("browser-curator", password=PASSWORD)
        User.objects.filter(pk__in=[player.pk, curator.pk]).update(
            date_joined=timezone.now() - timedelta(hours=2)
        )
        Curator.objects.create(user=curator, game=Game.objects.get(slug=GAME))
    yield player, curator
    with django_db_blocker.unblock():
        added = Card.objects.filter(game__slug=GAME, name=CARD_NAME)
        delete_committed(CardChange.objects.filter(card__in=added))
        delete_committed(added)
        delete_committed(Proposal.objects.filter(proposer=player))
        delete_committed(User.objects.filter(pk__in=[player.pk, curator.pk]))


def small_jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (63, 88), (40, 90, 160)).save(out, "JPEG")
    return out.getvalue()


def narrow(page, size: str) -> None:
    # Signing in looks for the header's log-out button, which 390 px folds into the menu.
    if size == "phone":
        page.set_viewport_size(PHONE)


def check_page(page, name: str) -> None:
    problems = axe_violations(page, SitePage(name), ("light", "dark")) + overflow_at_390(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_player_adds_a_card_and_a_curator_approves_it_from_the_keyboard(
    server, page, shoot, people, size
):
    player, curator = people
    sign_in(page, server, player.username, PASSWORD)
    narrow(page, size)

    page.goto(server + f"/games/{GAME}/sets/CFC-RB/")
    page.get_by_role("link", name="Propose a card").click()
    page.get_by_label("Number").fill("977")
    page.get_by_label("Name", exact=False).first.fill(CARD_NAME)
    page.get_by_label("the printed card (photo)").check()
    page.get_by_label("Photo of the printed card").set_input_files(
        {"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": small_jpeg()}
    )
    if size == "desktop":
        shoot("propose")
        check_page(page, "propose")
    page.get_by_role("button", name="Send the proposal").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("new card")
    expect(page.locator("table.diff")).to_contain_text(CARD_NAME)
    expect(page.locator("img.proposal-photo")).to_be_visible()
    if size == "desktop":
        shoot("proposal")
        check_page(page, "proposal")

    page.context.clear_cookies()
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, server, curator.username, PASSWORD)
    narrow(page, size)
    expect(page.locator("header")).to_contain_text("Review (1)")
    page.goto(server + "/review/")
    expect(page.locator(".queue-row")).to_have_count(1)
    if size == "desktop":
        shoot("queue")
        check_page(page, "queue")
    page.keyboard.press("j")
    expect(page.locator(".queue-row").first).to_be_focused()
    page.keyboard.press("a")
    expect(page.get_by_text("Nothing is waiting for review")).to_be_visible()

    page.goto(server + f"/search/?game={GAME}&q=%22{CARD_NAME.replace(' ', '+')}%22")
    expect(page.get_by_role("link", name=CARD_NAME).first).to_be_visible()

    page.context.clear_cookies()
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, server, player.username, PASSWORD)
    narrow(page, size)
    expect(page.locator("header")).to_contain_text("Notifications (1)")
    page.goto(server + "/notifications/")
    expect(page.locator(".notices")).to_contain_text("was approved")
    if size == "desktop":
        shoot("notifications")
