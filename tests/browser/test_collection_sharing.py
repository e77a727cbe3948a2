"""The collection's sharing page in a real browser: sharing by username, a pool invitation
accepted by the other player, and how the page looks at desktop width and at 390 px."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.collection.models import Pool
from cardsite.collection.services.pools import pool_create, pool_invite
from cardsite.collection.services.sharing import collection_share
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-7"


@pytest.fixture
def playgroup(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards.
    with django_db_blocker.unblock():
        names = ["browser-ann", "browser-bob", "browser-cleo"]
        users = [User.objects.create_user(n, password=PASSWORD) for n in names]
        collection_share(owner=users[2], reader_username="browser-ann")
        pool = pool_create(user=users[2], name="Thursday night at the shop")
        pool_invite(pool=pool, by=users[2], username="browser-ann")
    yield users
    with django_db_blocker.unblock():
        delete_committed(Pool.objects.filter(name__startswith="Thursday"))
        delete_committed(User.objects.filter(username__in=names))


def test_a_player_shares_their_collection_and_joins_a_pool(server, page, shoot, playgroup):
    sign_in(page, server, "browser-ann", PASSWORD)
    page.goto(server + "/collection/sharing/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sharing your collection")
    expect(page.get_by_role("link", name="browser-cleo's collection")).to_have_attribute(
        "href", "/collection/browser-cleo/"
    )

    page.get_by_label("Let a user read it").fill("nobody-at-all")
    page.get_by_role("button", name="Share", exact=True).click()
    expect(page.locator("#sharing-error")).to_contain_text("There is no user called")
    expect(page.get_by_label("Let a user read it")).to_have_value("nobody-at-all")
    shoot("sharing-refused")

    page.get_by_label("Let a user read it").fill("BROWSER-BOB")
    page.get_by_role("button", name="Share", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("browser-bob can now read your collection.")
    expect(page.get_by_role("button", name="Remove browser-bob")).to_be_visible()

    invitation = page.locator(".invitations li", has_text="Thursday night at the shop")
    expect(invitation).to_contain_text("from browser-cleo")
    shoot("sharing-invited")
    invitation.get_by_role("button", name="Accept").click()
    expect(page.get_by_role("status")).to_contain_text("You joined “Thursday night at the shop”")
    page.get_by_label("Invite a user").fill("browser-bob")
    page.get_by_role("button", name="Invite", exact=True).click()
    members = page.locator(".people li")
    expect(members.filter(has_text="browser-ann (you)")).to_contain_text("member")
    expect(members.filter(has_text="browser-bob").last).to_contain_text(
        "invited by browser-ann, not counted yet"
    )
    expect(page.get_by_role("button", name="Leave the pool")).to_be_visible()
    shoot("sharing-pooled")

    page.get_by_role("button", name="Remove browser-bob").click()
    expect(page.get_by_role("status")).to_have_text(
        "browser-bob can no longer read your collection."
    )
