"""A deck as the API shows it: its fields, its live problems and its cards' full records."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from rest_framework.request import Request
from rest_framework.reverse import reverse as api_reverse

from cardsite.catalogue.api.serializers import _DATETIME, card_records
from cardsite.catalogue.versioning import catalogue_version
from decks.models import Deck
from decks.services import check, intake_deck, problem_json, resolve

# A deck's record is rebuilt (and its legality checked again) only when something it shows
# changes: the deck (its version and save time), its owner's name, its fork link (gone while
# the deck it names is deleted), or the catalogue and format settings (the catalogue
# version). The rest of the time it is cached.
DECK_RECORD_SECONDS = 10 * 60


def deck_etag(deck: Deck) -> str:
    return f'"deck-{deck.share_key}-v{deck.version}"'


def deck_record(deck: Deck, request: Request) -> dict[str, Any]:
    key = ":".join(
        [
            "deck-record",
            deck.share_key,
            str(deck.version),
            deck.updated_at.isoformat(),
            deck.owner.get_username(),
            str(getattr(_fork_source(deck), "pk", None)),
            str(catalogue_version()),
            request.get_host(),
        ]
    )
    record = cache.get(key)
    if record is None:
        record = _deck_record(deck, request)
        cache.set(key, record, DECK_RECORD_SECONDS)
    return record


def _fork_source(deck: Deck) -> Deck | None:
    """The deck this one was copied from, unless that one is deleted."""
    forked = deck.forked_from if deck.forked_from_id else None
    return forked if forked is not None and forked.deleted_at is None else None


def _deck_record(deck: Deck, request: Request) -> dict[str, Any]:
    resolved = resolve(
        game=deck.game.slug,
        intake=intake_deck(deck),
        faction=deck.faction.name if deck.faction else None,
    )
    result = check(resolved, deck.format)
    entries = sorted(resolved.entries, key=lambda e: (e.zone, e.card.name))
    pks = [e.card.pk for e in entries]
    records = dict(zip(pks, card_records(pks, {"request": request}), strict=True))
    forked = _fork_source(deck)
    return {
        "id": deck.share_key,
        "url": api_reverse("deck-detail", args=[deck.share_key], request=request),
        "share_url": request.build_absolute_uri(deck.get_absolute_url()),
        "owner": deck.owner.get_username(),
        "game": deck.game.slug,
        "format": deck.format,
        "faction": deck.faction.name if deck.faction else None,
        "name": deck.name,
        "description": deck.description,
        "visibility": deck.visibility,
        "version": deck.version,
        "forked_from": forked.share_key if forked else None,
        "created_at": _DATETIME.to_representation(deck.created_at),
        "updated_at": _DATETIME.to_representation(deck.updated_at),
        "legal": result.legal,
        "problems": [problem_json(p) for p in result.problems],
        "counts": result.counts,
        "entries": [
            {"quantity": e.quantity, "zone": e.zone, "card": records[e.card.pk]} for e in entries
        ],
    }
