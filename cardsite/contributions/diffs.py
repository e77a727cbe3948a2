"""A proposal as a field-by-field diff, from -> to: what its pages and its API record show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardsite.catalogue.services.edits import ENTRY_FIELDS, field_labels
from cardsite.contributions.models import Proposal

_SET_LABELS = {
    "code": "Code",
    "name": "Name",
    "release_date": "Release date",
    "description": "Description",
}


@dataclass(frozen=True)
class Line:
    field: str
    label: str
    before: Any
    after: Any


def proposal_diff(proposal: Proposal) -> list[Line]:
    """From the values the card had when it was proposed (`base`) to the proposed ones; a
    ruling or erratum is one entry added, so it has no "from"."""
    if proposal.kind == Proposal.Kind.SET:
        return [Line(k, _SET_LABELS.get(k, k), None, v) for k, v in proposal.changes.items() if v]
    labels = field_labels(proposal.game.engine)
    changes = (
        proposal.applied
        if proposal.status == Proposal.Status.APPROVED and proposal.applied
        else proposal.changes
    )
    return [
        Line(
            name,
            labels.get(name, name),
            None if name in ENTRY_FIELDS else proposal.base.get(name),
            value,
        )
        for name, value in sorted(
            changes.items(), key=lambda kv: list(labels).index(kv[0]) if kv[0] in labels else 999
        )
    ]
