"""The proposal pages as the server sends them, checked by html-validate and the Nu checker."""

import pytest
from django.urls import reverse

from cardsite.catalogue.models import Card
from cardsite.contributions.models import Notification
from tests.browser.markup import html_validate_errors, nu_errors

pytestmark = pytest.mark.django_db


def test_the_proposal_pages_are_valid_html_for_both_validators(
    client, curator, proposal, player, tmp_path, card
):
    Notification.objects.create(user=player, proposal=proposal, text="Your x was approved.")
    client.force_login(curator)
    pages = {
        "proposal": reverse("contributions:detail", args=[proposal.pk]),
        "queue": reverse("contributions:queue"),
    }
    for name, url in pages.items():
        (tmp_path / f"{name}.html").write_bytes(client.get(url).content)
    Card.objects.filter(pk=card.pk).update(name="Changed Meanwhile")
    stale = client.post(reverse("contributions:approve", args=[proposal.pk]))
    assert stale.status_code == 409
    (tmp_path / "stale.html").write_bytes(stale.content)
    client.force_login(player)
    pages = {
        "mine": reverse("contributions:mine"),
        "notifications": reverse("contributions:notifications"),
        "propose": reverse("contributions:propose", args=[card.game.slug])
        + f"?kind=edit&card={card.short_id}",
        "propose-set": reverse("contributions:propose", args=[card.game.slug]) + "?kind=set",
        "propose-ruling": reverse("contributions:propose", args=[card.game.slug])
        + f"?kind=ruling&card={card.short_id}",
    }
    for name, url in pages.items():
        (tmp_path / f"{name}.html").write_bytes(client.get(url).content)
    bad = client.post(pages["propose"], {"c-stars": "99", "source_kind": "rulebook"})
    (tmp_path / "propose-error.html").write_bytes(bad.content)
    errors = html_validate_errors(tmp_path) + nu_errors(tmp_path)
    assert not errors, "\n".join(errors)
