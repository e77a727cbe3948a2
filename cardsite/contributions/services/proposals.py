"""Proposing a change to the catalogue, and a curator's approval or rejection of it.

A proposal is checked whole when it is made, by the importer's own checks, so an invalid one
is refused at once naming its field, and nothing is stored. An approval checks it again
against the card as it is then: a field somebody changed meanwhile is not overwritten
unless the curator chooses so (StaleProposal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.catalogue.selectors import card_queryset
from cardsite.catalogue.services.edits import (
    ENTRY_FIELDS,
    card_art_record,
    card_edit,
    card_set_add,
    card_values,
    edit_check,
    field_labels,
    set_check,
)
from cardsite.contributions.limits import (
    MAX_REASON,
)
from cardsite.contributions.models import Proposal
from cardsite.contributions.selectors import is_curator
from cardsite.contributions.services.files import file_approve
from cardsite.contributions.services.intake import (
    SourceInput,
    close,
    proposer_check,
    source_check,
    store_open,
)
from cardsite.contributions.services.photos import clean_photo
from engines.bounds import plain_text
from engines.errors import InputError

Kind = Proposal.Kind
# Which kinds are about one card, and the field a ruling or erratum adds to.
_ABOUT_A_CARD = {Kind.EDIT, Kind.RULING, Kind.ERRATUM, Kind.IMAGE}
_ENTRY_OF = {Kind.RULING: "rulings", Kind.ERRATUM: "errata"}


@dataclass(frozen=True)
class StaleField:
    field: str
    label: str
    then: Any
    now: Any
    proposed: Any


class StaleProposal(Exception):
    """The card changed after the proposal was made, in fields it also changes: a curator
    chooses, per field, the proposed value or the current one."""

    def __init__(self, fields: list[StaleField]) -> None:
        self.fields = fields
        names = ", ".join(f.field for f in fields)
        super().__init__(f"the card changed since this was proposed, in: {names}")


class ProposalClosed(Exception):
    """The proposal was reviewed already (409)."""


@dataclass
class _Checked:
    changes: dict[str, Any]
    base: dict[str, Any] = field(default_factory=dict)


def _check(
    *, game: Game, kind: str, card: Card | None, changes: Mapping[str, Any] | None
) -> _Checked:
    if kind in _ABOUT_A_CARD and card is None:
        raise InputError("card", "this kind of proposal is about a card: name it")
    if card is not None and card.game_id != game.pk:
        raise InputError("card", "the card belongs to another game")
    if card is not None and card.is_sample:
        raise InputError(
            "card", "sample cards are the site's own made-up examples; propose official cards"
        )
    if kind == Kind.IMAGE:
        return _Checked(changes={})
    if kind == Kind.SET:
        checked_set = set_check(game=game, values=changes or {})
        # Stored as JSON until approved, when set_check reads the ISO date back.
        when = checked_set.get("release_date")
        return _Checked(changes={**checked_set, "release_date": when.isoformat() if when else None})
    if kind in _ENTRY_OF:
        entry_field = _ENTRY_OF[Kind(kind)]
        changes = {entry_field: (changes or {}).get(entry_field, changes)}
    checked = edit_check(game=game, card=card if kind != Kind.CARD else None, changes=changes or {})
    if not checked.diff:
        raise InputError("changes", "these changes leave the card as it is")
    if not CardSet.objects.filter(
        game=game, code__iexact=checked.clean.set_code, is_official=True
    ).exists():
        # A player's card is an official card of the game; a sample set is the site's own.
        raise InputError("set", "a card from the game belongs to an official set, not a sample set")
    names = {d.field for d in checked.diff}
    base = (
        {f: checked.before.get(f) for f in names if f not in ENTRY_FIELDS}
        if kind != Kind.CARD
        else {}
    )
    return _Checked(changes={k: v for k, v in (changes or {}).items() if k in names}, base=base)


def proposal_create(
    *,
    proposer: User,
    game: Game,
    kind: str,
    source: SourceInput,
    card: Card | None = None,
    changes: Mapping[str, Any] | None = None,
    note: str = "",
    photo: UploadedFile | None = None,
    email_me: bool = False,
) -> Proposal:
    """Store a proposal, or refuse it storing nothing: InputError naming the field at fault,
    PermissionDenied for an account younger than MIN_ACCOUNT_AGE, LimitReached past
    MAX_OPEN_PER_USER open proposals. (The per-request throttles are the caller's: they
    count requests, which a service does not see.)"""
    if kind not in Kind.values or kind == Kind.BULK:
        raise InputError(
            "kind", f"a proposal is one of: {', '.join(k for k in Kind.values if k != Kind.BULK)}"
        )
    note = proposer_check(proposer, note)
    if kind == Kind.IMAGE and photo is None:
        raise InputError("photo", "a card image proposal needs the image")
    source = source_check(source, photo is not None)
    checked = _check(game=game, kind=kind, card=card, changes=changes)
    proposal = Proposal(
        game=game,
        card=card,
        kind=kind,
        proposer=proposer,
        changes=checked.changes,
        base=checked.base,
        source_kind=source.kind,
        source_text=source.text,
        source_url=source.url,
        note=note,
        email_me=email_me,
    )
    content = clean_photo(photo, photo.size) if photo is not None else None
    return store_open(proposal, file_field="photo", content=content)


def _reviewable(proposal: Proposal, reviewer: User) -> Proposal:
    """The proposal, locked, if `reviewer` may review it now."""
    if not is_curator(reviewer, proposal.game_id):
        raise PermissionDenied(f"Only a curator of {proposal.game.name} may review its proposals.")
    if proposal.proposer_id == reviewer.pk:
        raise PermissionDenied("Nobody reviews their own proposal.")
    locked = Proposal.objects.select_for_update().get(pk=proposal.pk)
    if locked.status != Proposal.Status.OPEN:
        raise ProposalClosed(f"This proposal was {locked.status} already.")
    return locked


def stale_fields(proposal: Proposal, changes: Mapping[str, Any]) -> list[StaleField]:
    """The fields the card changed in since `proposal` was made, to values other than the
    proposed ones."""
    if proposal.card_id is None or not proposal.base:
        return []
    now = card_values(card_queryset().get(pk=proposal.card_id))
    labels = field_labels(proposal.game.engine)
    return [
        StaleField(name, labels.get(name, name), then, now.get(name), changes.get(name))
        for name, then in proposal.base.items()
        if name in changes and now.get(name) != then and now.get(name) != changes.get(name)
    ]


def proposal_approve(
    *,
    proposal: Proposal,
    reviewer: User,
    edits: Mapping[str, Any] | None = None,
    resolve: Mapping[str, str] | None = None,
) -> Proposal:
    """Write the proposal to the catalogue, in one transaction with its review. `edits`
    replace or add proposed values (approve with edits); `resolve` says, per stale field,
    "proposed" or "current". StaleProposal when a stale field is left unresolved;
    InputError when the approved values are not valid for the card as it is now."""
    with transaction.atomic():
        proposal = _reviewable(proposal, reviewer)
        if proposal.kind == Kind.BULK:
            return _approve_file(proposal, reviewer, edits)
        if proposal.card_id is not None:
            # Approvals of one card's proposals queue here, so that each is judged stale or
            # not against the card as the one before it left it, never both against the same.
            Card.objects.select_for_update().filter(pk=proposal.card_id).first()
        changes = {**proposal.changes, **(edits or {})}
        stale = stale_fields(proposal, changes)
        choices = dict(resolve or {})
        unresolved = [s for s in stale if choices.get(s.field) not in ("proposed", "current")]
        if unresolved:
            raise StaleProposal(unresolved)
        for s in stale:
            if choices[s.field] == "current":
                del changes[s.field]
        source = {**proposal.source_dict(), "proposal": proposal.pk}
        card = proposal.card
        if proposal.kind == Kind.SET:
            card_set_add(game=proposal.game, values=changes)
        elif proposal.kind == Kind.IMAGE:
            assert card is not None  # proposal_create refuses an image that names no card
            # The photo was cleaned when proposed; approving makes a copy of it public.
            with proposal.photo.open("rb") as handle:
                art = default_storage.save("art/" + proposal.photo.name.rsplit("/", 1)[-1], handle)
            try:
                card_art_record(
                    card=card,
                    stored_name=art,
                    author=proposal.proposer,
                    reviewer=reviewer,
                    source=source,
                    proposal=proposal.pk,
                )
            except BaseException:
                default_storage.delete(art)
                raise
        elif changes:
            card, _ = card_edit(
                game=proposal.game,
                card=card if proposal.kind != Kind.CARD else None,
                changes=changes,
                author=proposal.proposer,
                reviewer=reviewer,
                source=source,
                proposal=proposal.pk,
            )
        return close(
            proposal, reviewer=reviewer, status=Proposal.Status.APPROVED, card=card, applied=changes
        )


def _approve_file(proposal: Proposal, reviewer: User, edits: Mapping[str, Any] | None) -> Proposal:
    if edits:
        raise InputError("changes", "a card file is approved as it is, or rejected")
    file_approve(proposal=proposal, reviewer=reviewer)
    return close(proposal, reviewer=reviewer, status=Proposal.Status.APPROVED)


def proposal_reject(*, proposal: Proposal, reviewer: User, reason: str) -> Proposal:
    """Close the proposal unwritten, with the reason its proposer is told."""
    reason = plain_text(reason or "")
    if not reason:
        raise InputError("reason", "a rejection says why, for the proposer")
    if len(reason) > MAX_REASON:
        raise InputError("reason", f"a reason may be at most {MAX_REASON:,} characters")
    with transaction.atomic():
        proposal = _reviewable(proposal, reviewer)
        return close(proposal, reviewer=reviewer, status=Proposal.Status.REJECTED, reason=reason)
