"""Where each value of a card came from, read from its recorded changes (CardChange).

A field's origin is its newest change when it has one (a community source, with who proposed
and who approved it), else the card's set says it is sample data, else the rulebook passage the
card was loaded from, or "loaded" when a curator loaded it with no passage.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from cardsite.catalogue.card_fields import field_labels
from cardsite.catalogue.models import Card, CardChange

# The fields a card shows, besides its stats (by key): the card CSV's column names.
SHOWN_FIELDS = (
    "name",
    "type",
    "subtypes",
    "factions",
    "rarity",
    "keywords",
    "text",
    "flavour",
    "artist",
    "set",
    "number",
    "rulings",
    "errata",
    "art",
)
COMMUNITY = "community"
SAMPLE = "sample"
RULEBOOK = "rulebook"
LOADED = "loaded"


@dataclass(frozen=True)
class Origin:
    """Where one value came from. `source` is the change's source (kind, text, url...) for a
    community value; `passage` the card's rulebook passage for a rulebook value."""

    origin: str
    source: dict[str, Any] = field(default_factory=dict)
    proposed_by: str = ""
    approved_by: str = ""
    at: datetime.datetime | None = None
    passage: str = ""

    @property
    def is_community(self) -> bool:
        return self.origin == COMMUNITY

    def record(self) -> dict[str, Any]:
        """The origin as an export writes it."""
        out: dict[str, Any] = {"origin": self.origin}
        if self.origin == COMMUNITY:
            out.update(
                source=public_source(self.source),
                proposed_by=self.proposed_by,
                approved_by=self.approved_by,
                at=self.at.isoformat() if self.at else None,
            )
        return out


def public_source(source: dict[str, Any]) -> dict[str, Any]:
    """A change's source without the stored name of a proposal's photo: that file stays
    private unless it became the card's image, which the card's own `art` says."""
    return {k: v for k, v in source.items() if k != "photo"}


def _username(user: Any) -> str:
    return user.get_username() if user is not None else ""


def _community(change: CardChange) -> Origin:
    return Origin(
        COMMUNITY,
        source=dict(change.source or {}),
        proposed_by=_username(change.author),
        approved_by=_username(change.reviewer),
        at=change.at,
    )


def card_fields(card: Card) -> list[str]:
    """Every field the card's page shows, stats by their keys, in the page's order."""
    stats = [s.key for s in card.game.engine.stats]
    return [*SHOWN_FIELDS[:9], *stats, *SHOWN_FIELDS[9:]]


def provenance(*, card: Card, changes: list[CardChange] | None = None) -> dict[str, Origin]:
    """Each shown field of `card` with its origin. One query for the card's changes, unless
    the caller has them (oldest first) already."""
    if changes is None:
        changes = card_history(card=card)
    newest: dict[str, CardChange] = {}
    for change in changes:
        newest[change.field] = change
    added = newest.get("card")
    if card.is_sample:
        fallback = Origin(SAMPLE)
    elif card.source:
        fallback = Origin(RULEBOOK, passage=card.source)
    else:
        fallback = Origin(LOADED)
    out: dict[str, Origin] = {}
    for name in card_fields(card):
        if (field_change := newest.get(name)) is not None:
            out[name] = _community(field_change)
        elif added is not None and name != "art":
            # The addition set every field it gave; one it left empty is still the card's.
            out[name] = _community(added)
        else:
            out[name] = fallback
    return out


def provenance_record(*, card: Card, changes: list[CardChange] | None = None) -> dict[str, Any]:
    """The origins an export writes: the fields the community wrote. The others take the
    card's own origin (sample, rulebook or loaded), which its set and `source` already say,
    so it is left implicit and a file of 100,000 cards stays small."""
    return {
        name: origin.record()
        for name, origin in provenance(card=card, changes=changes).items()
        if origin.is_community
    }


def card_history(*, card: Card) -> list[CardChange]:
    """Every accepted change of `card`, oldest first, with who proposed and approved each. Only
    accepted ones exist as changes: an open or rejected proposal never is one, so this is safe
    to show anyone."""
    return list(
        CardChange.objects.filter(card=card)
        .select_related("author", "reviewer")
        .order_by("at", "id")
    )


# The two changes that are not of a field: a card's addition and its image.
_WHOLE_CARD_LABELS = {"card": "Card added", "art": "Image"}


def change_record(change: CardChange, labels: dict[str, str] | None = None) -> dict[str, Any]:
    """One change as its record: `labels` is the game's field_labels, passed in by a caller
    listing many changes so that it is built once."""
    if labels is None:
        labels = field_labels(change.card.game.engine)
    label = _WHOLE_CARD_LABELS.get(change.field) or labels.get(change.field, change.field)
    return {
        "id": change.pk,
        "field": change.field,
        "label": label,
        "from": change.before,
        "to": change.after,
        "author": _username(change.author) or None,
        "reviewer": _username(change.reviewer) or None,
        "source": public_source(dict(change.source or {})),
        "at": change.at,
        "proposal": change.proposal,
        "reverts": change.reverts_id,
    }


def card_change_get(*, card: Card, pk: int) -> CardChange | None:
    """One recorded change of `card`: every accepted change is public."""
    return CardChange.objects.select_related("card__game").filter(card=card, pk=pk).first()
