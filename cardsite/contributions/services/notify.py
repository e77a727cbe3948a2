"""Telling a proposer how their proposal ended: on their notifications page always, and by
e-mail when they asked for it (sent after the review commits, through EMAIL_URL's server)."""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from cardsite.contributions.models import Notification, Proposal
from cardsite.seo import absolute

log = logging.getLogger(__name__)


def outcome_text(proposal: Proposal) -> str:
    what = proposal.get_kind_display()
    about = f" ({proposal.card.name})" if proposal.card is not None else ""
    if proposal.status == Proposal.Status.APPROVED:
        return f"Your {what}{about} was approved."
    return f"Your {what}{about} was rejected: {proposal.reason}"[:500]


def tell_proposer(proposal: Proposal) -> Notification:
    """Call inside the review's transaction: the notice is stored with it, the mail sent
    only once it has committed."""
    text = outcome_text(proposal)
    notice = Notification.objects.create(user=proposal.proposer, proposal=proposal, text=text)
    address = proposal.proposer.email
    if proposal.email_me and address:
        transaction.on_commit(lambda: _mail(address, text, proposal.pk))
    return notice


def _mail(address: str, text: str, pk: int) -> None:
    try:
        send_mail(
            f"Your proposal {pk} on cardsite",
            f"{text}\n\n{absolute(reverse('contributions:detail', args=[pk]))}\n",
            None,
            [address],
        )
    except OSError:
        # The review stands whether or not the mail went; the notice page still says it.
        log.warning("could not mail the outcome of proposal %s", pk, exc_info=True)


def notifications_read(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
