"""A card's provenance in a real browser: a community change is marked on the card page and
listed under History, and a curator reverts it from the card's history page."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, CardChange, Game
from cardsite.catalogue.versioning import bump_catalogue_version
from cardsite.contributions.services.curators import curator_add
from cardsite.contributions.services.proposals import (
    SourceInput,
    proposal_approve,
    proposal_create,
)
from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-browser-pass-7"
GAME = "conquest-for-the-capital"


@pytest.fixture
def storied(django_db_blocker):
    # Committed, so the live server's thread sees it; put back afterwards.
    with django_db_blocker.unblock():
        old = timezone.now() - dt.timedelta(days=2)
        ann = User.objects.create_user("browser-ann", password=PASSWORD, date_joined=old)
        cur = User.objects.create_user("browser-curator", password=PASSWORD, date_joined=old)
        game = Game.objects.get(slug=GAME)
        curator_add(user=cur, game=game)
        card = Card.objects.filter(game=game, card_set__is_official=True).order_by("id")[0]
        flavour = card.flavour_text
        proposal = proposal_create(
            proposer=ann,
            game=game,
            kind="edit",
            card=card,
            changes={"flavour": "Words a player read off the printed card."},
            source=SourceInput("publisher", url="https://publisher.example/cards/elves"),
        )
        proposal_approve(proposal=proposal, reviewer=cur)
    yield card
    with django_db_blocker.unblock():
        CardChange.objects.filter(card=card).delete()
        Card.objects.filter(pk=card.pk).update(flavour_text=flavour)
        bump_catalogue_version()
        delete_committed(User.objects.filter(pk__in=[ann.pk, cur.pk]))


def test_a_curator_sees_the_mark_and_history_then_reverts_the_change(server, page, storied, shoot):
    page.goto(server + storied.get_absolute_url())
    expect(page.locator(".flavour .community-mark")).to_be_visible()
    history = page.locator(".card-history")
    expect(history).to_contain_text("Proposed by browser-ann, approved by browser-curator")
    expect(history.get_by_role("link", name="publisher's page")).to_have_attribute(
        "rel", "nofollow ugc noopener"
    )
    shoot("card-page")

    sign_in(page, server, "browser-curator", PASSWORD)
    page.goto(f"{server}/cards/{storied.short_id}/history/")
    expect(page.get_by_role("heading", name=f"History of {storied.name}")).to_be_visible()
    shoot("history-page")
    page.locator('[data-action="revert"]').first.click()
    expect(page.locator(".history li")).to_have_count(2)
    expect(page.locator(".history li").last).to_contain_text("revert of change")
    shoot("history-after-revert")
