"""A deck as the API shows it: its fields, its live problems and its cards' full records; and
any kept version of it in the same shape."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.core.cache import cache
from rest_framework.request import Request
from rest_framework.reverse import reverse as api_reverse

from cardsite.catalogue.api.serializers import _DATETIME, card_records
from cardsite.catalogue.versioning import catalogue_version
from decks.history.reads import readable_parent
from decks.models import Deck, DeckVersion
from decks.services import (
    Intake,
    RequestedCard,
    ResolvedDeck,
    check,
    game_snapshot,
    intake_deck,
    problem_json,
    resolve,
)
from decks.services.history import settings_of, state_at

# A deck's record is rebuilt (and its legality checked again) only when something it shows
# changes: the deck (its version and save time), its owner's name, the parent this reader
# may see (gone while the deck it names is deleted, or private to someone else), or the
# catalogue and format settings (the catalogue version). The rest of the time it is cached.
DECK_RECORD_SECONDS = 10 * 60


def deck_etag(deck: Deck) -> str:
    return f'"deck-{deck.share_key}-v{deck.version}"'


def _cached(parts: list[str], deck: Deck, parent: Deck | None, request: Request) -> str:
    """A record's cache key: what it shows besides the deck's own rows. The parent is the one
    this reader may see, so one reader's record never answers for another's."""
    return ":".join(
        [
            *parts,
            deck.owner.get_username(),
            str(getattr(parent, "pk", None)),
            str(catalogue_version()),
            request.get_host(),
        ]
    )


def deck_record(deck: Deck, request: Request) -> dict[str, Any]:
    parent = readable_parent(deck, request.user)
    key = _cached(
        ["deck-record", deck.share_key, str(deck.version), deck.updated_at.isoformat()],
        deck,
        parent,
        request,
    )
    record = cache.get(key)
    if record is None:
        faction = deck.faction.name if deck.faction else None
        record = _record(
            deck,
            request,
            version=deck.version,
            settings=settings_of(deck),
            resolved=resolve(game=deck.game.slug, intake=intake_deck(deck), faction=faction),
            maybe=dict(deck.maybe.values_list("card_id", "quantity")),
            parent=parent,
            updated_at=deck.updated_at,
        )
        cache.set(key, record, DECK_RECORD_SECONDS)
    return record


def version_record(deck: Deck, version: DeckVersion, request: Request) -> dict[str, Any]:
    """A kept version of the deck as a deck read shows a deck: its cards and settings then,
    its legality by today's rules and cards, `updated_at` the time it was saved. A version
    never changes, so its record is cached as the deck's is (VersionNotFound if its history
    cannot rebuild it)."""
    parent = readable_parent(deck, request.user)
    key = _cached(
        ["deck-version-record", deck.share_key, str(version.number)], deck, parent, request
    )
    record = cache.get(key)
    if record is None:
        state = state_at(deck, version.number)
        intake = Intake(
            tuple(RequestedCard(q, None, s, z) for (s, z), q in sorted(state.deck_cards().items()))
        )
        settings = {**settings_of(deck), **state.settings}
        snap = game_snapshot(deck.game.slug)
        # A planned card the catalogue no longer has is left out, as resolve leaves out such
        # a card of the deck (there it is also named among the problems).
        maybe = {snap.cards[s].pk: q for s, q in state.maybe_cards().items() if s in snap.cards}
        record = _record(
            deck,
            request,
            version=version.number,
            settings=settings,
            resolved=resolve(game=deck.game.slug, intake=intake, faction=settings["faction"]),
            maybe=maybe,
            parent=parent,
            updated_at=version.created_at,
        )
        cache.set(key, record, DECK_RECORD_SECONDS)
    return record


def _record(
    deck: Deck,
    request: Request,
    *,
    version: int,
    settings: Mapping[str, Any],
    resolved: ResolvedDeck,
    maybe: Mapping[int, int],
    parent: Deck | None,
    updated_at: datetime,
) -> dict[str, Any]:
    """The record of a deck at a version: its settings then, its cards resolved and its
    planned cards ({card pk: quantity})."""
    result = check(resolved, settings["format"])
    entries = sorted(resolved.entries, key=lambda e: (e.zone, e.card.name))
    pks = list(dict.fromkeys([*(e.card.pk for e in entries), *maybe]))
    records = dict(zip(pks, card_records(pks, {"request": request}), strict=True))
    planned = sorted(maybe.items(), key=lambda item: (records[item[0]]["name"], item[0]))
    return {
        "id": deck.share_key,
        "url": api_reverse("deck-detail", args=[deck.share_key], request=request),
        "share_url": request.build_absolute_uri(deck.get_absolute_url()),
        "owner": deck.owner.get_username(),
        "game": deck.game.slug,
        "format": settings["format"],
        "faction": settings["faction"],
        "name": settings["name"],
        "description": settings["description"],
        "visibility": settings["visibility"],
        "version": version,
        "forked_from": parent.share_key if parent else None,
        "parent": {"id": parent.share_key, "version": deck.parent_version} if parent else None,
        "created_at": _DATETIME.to_representation(deck.created_at),
        "updated_at": _DATETIME.to_representation(updated_at),
        "legal": result.legal,
        "problems": [problem_json(p) for p in result.problems],
        "counts": result.counts,
        "entries": [
            {"quantity": e.quantity, "zone": e.zone, "card": records[e.card.pk]} for e in entries
        ],
        "maybe": [{"quantity": q, "card": records[pk]} for pk, q in planned],
    }
