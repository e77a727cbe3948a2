"""A proposal as a field-by-field diff, from -> to: what its pages and its API record show."""

from __future__ import annotations

from cardsite.catalogue.services.edits import ENTRY_FIELDS, FieldDiff, field_labels
from cardsite.contributions.models import Proposal

_SET_LABELS = {
    "code": "Code",
    "name": "Name",
    "release_date": "Release date",
    "description": "Description",
}


def proposal_diff(proposal: Proposal) -> list[FieldDiff]:
    """From the values the card had when it was proposed (`base`) to the proposed ones; a
    ruling or erratum is one entry added, so it has no "from"."""
    if proposal.kind == Proposal.Kind.SET:
        return [
            FieldDiff(k, _SET_LABELS.get(k, k), None, v) for k, v in proposal.changes.items() if v
        ]
    labels = field_labels(proposal.game.engine)
    changes = (
        proposal.applied
        if proposal.status == Proposal.Status.APPROVED and proposal.applied
        else proposal.changes
    )
    # In the order the game's fields are listed, as the diff of an approval is.
    return [
        FieldDiff(
            name, label, None if name in ENTRY_FIELDS else proposal.base.get(name), changes[name]
        )
        for name, label in labels.items()
        if name in changes
    ]
