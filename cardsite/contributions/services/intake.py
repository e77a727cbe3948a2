"""What every proposal shares, a single card's as a whole card file's: its source checked, its
proposer allowed, its storing under the open-proposal limit, and its closing by a review.

A proposal of one card (proposals.py) and a card file (files.py) call these, so the two
refuse and store the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.validators import URLValidator
from django.db import models, transaction
from django.utils import timezone

from cardsite.collection.services.owner_lock import lock_owner
from cardsite.contributions.limits import (
    MAX_NOTE,
    MAX_OPEN_PER_USER,
    MAX_SOURCE_TEXT,
    MIN_ACCOUNT_AGE,
)
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.notify import tell_proposer
from cardsite.limits import LimitReached
from engines.bounds import plain_text
from engines.errors import InputError


@dataclass(frozen=True)
class SourceInput:
    """Where a proposal's facts come from: a rulebook passage, the printed card (a photo),
    or a publisher's page."""

    kind: str
    text: str = ""
    url: str = ""


def source_check(source: SourceInput, has_photo: bool) -> SourceInput:
    """The source, trimmed, or InputError naming `source` (or `photo`) and what it lacks."""
    if source.kind not in Proposal.Source.values:
        raise InputError(
            "source",
            "every proposal needs a source: a rulebook passage (rulebook), the printed card "
            "with a photo (printed_card) or a publisher's page (publisher)",
        )
    text = plain_text(source.text or "")
    url = (source.url or "").strip()
    if len(text) > MAX_SOURCE_TEXT:
        raise InputError("source", f"a source's text may be at most {MAX_SOURCE_TEXT:,} characters")
    if source.kind == Proposal.Source.RULEBOOK and not text:
        raise InputError("source", "a rulebook source names its passage, e.g. '§4.2, page 9'")
    if source.kind == Proposal.Source.PRINTED_CARD and not has_photo:
        raise InputError("photo", "a printed card as the source needs a photo of it")
    if source.kind == Proposal.Source.PUBLISHER:
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            raise InputError(
                "source", "a publisher's page is given by its http(s) address"
            ) from None
        if len(url) > 500:
            raise InputError("source", "an address may be at most 500 characters")
    return SourceInput(source.kind, text, url)


def proposer_check(proposer: User, note: str) -> str:
    """The note, trimmed, if `proposer` may propose: PermissionDenied for an account younger
    than MIN_ACCOUNT_AGE, InputError for a note past MAX_NOTE."""
    if timezone.now() - proposer.date_joined < MIN_ACCOUNT_AGE:
        raise PermissionDenied(
            "An account may propose once it is an hour old: this keeps throwaway accounts "
            "from flooding the review queue."
        )
    note = plain_text(note)
    if len(note) > MAX_NOTE:
        raise InputError("note", f"a note may be at most {MAX_NOTE:,} characters")
    return note


def store_open(
    proposal: Proposal, *, file_field: str = "", content: ContentFile | None = None
) -> Proposal:
    """Save `proposal` with `content` as its `file_field` file, unless its proposer has
    MAX_OPEN_PER_USER open proposals already (LimitReached). Nothing is left behind on a
    refusal or a failure, not even the file."""
    stored = ""
    try:
        with transaction.atomic():
            # Queue one proposer's proposals, so that two at once cannot both be the 50th.
            lock_owner(owner=proposal.proposer)
            open_ = Proposal.objects.filter(proposer=proposal.proposer, status=Proposal.Status.OPEN)
            if open_.count() >= MAX_OPEN_PER_USER:
                raise LimitReached(
                    code="open_proposals",
                    message=f"You have {MAX_OPEN_PER_USER} open proposals, the most one "
                    "account may have; propose more once curators have reviewed some.",
                )
            if content is not None:
                field = Proposal._meta.get_field(file_field)
                assert isinstance(field, models.FileField)  # the photo or the card file
                stored = default_storage.save(f"{field.upload_to}{content.name}", content)
                getattr(proposal, file_field).name = stored
            proposal.save()
    except BaseException:
        if stored:
            default_storage.delete(stored)
        raise
    return proposal


def close(proposal: Proposal, *, reviewer: User, status: str, **fields: Any) -> Proposal:
    """Record the review of `proposal` (locked, in the review's transaction) and tell its
    proposer."""
    proposal.status = status
    proposal.reviewer = reviewer
    proposal.reviewed_at = timezone.now()
    for name, value in fields.items():
        setattr(proposal, name, value)
    proposal.save()
    tell_proposer(proposal)
    return proposal
