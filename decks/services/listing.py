"""Whether each deck of a list is legal in its own format, cheaply enough for a page of them.

Checking a deck costs a resolve and its format's rules, so a list cannot afford one per deck
per request. Each answer is kept in the shared cache under what it depends on: the deck (its
id, version and save time; an admin save moves the time without the version) and the
catalogue version (which card and format-setting writes move). A page then costs one cache
read; the decks not found are read in one query together and checked once each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from enum import StrEnum

from django.core.cache import cache

from cardsite.catalogue.versioning import catalogue_version
from decks.models import Deck, DeckEntry
from decks.services.intake import Intake, RequestedCard
from decks.services.resolve import resolve
from decks.services.validate import check
from engines.errors import InputError

LEGALITY_SECONDS = 24 * 60 * 60


class Standing(StrEnum):
    LEGAL = "legal"
    NOT_LEGAL = "not legal"
    # The deck's format or faction is not one its game has now: it cannot be checked.
    UNKNOWN = "unknown"


def _key(deck: Deck, version: int) -> str:
    saved = int(deck.updated_at.timestamp() * 1_000_000)
    return f"deck-standing:{deck.pk}:{deck.version}:{saved}:{version}"


def _standing(deck: Deck, intake: Intake) -> Standing:
    try:
        resolved = resolve(
            game=deck.game.slug,
            intake=intake,
            faction=deck.faction.name if deck.faction else None,
        )
        result = check(resolved, deck.format)
    except InputError:
        return Standing.UNKNOWN
    return Standing.LEGAL if result.legal else Standing.NOT_LEGAL


def standings(*, decks: Sequence[Deck]) -> dict[int, Standing]:
    """Each deck's standing in its own format, by deck id. The decks need their game and
    faction loaded (decks_listed does); at most one query, for the decks not cached."""
    if not decks:
        return {}
    version = catalogue_version()
    keys = {deck.pk: _key(deck, version) for deck in decks}
    cached = cache.get_many(list(keys.values()))
    found = {pk: Standing(cached[key]) for pk, key in keys.items() if key in cached}
    missing = [deck for deck in decks if deck.pk not in found]
    if not missing:
        return found
    cards: dict[int, list[RequestedCard]] = defaultdict(list)
    rows = (
        DeckEntry.objects.filter(deck_id__in=[deck.pk for deck in missing])
        .order_by("deck_id", "zone", "id")
        .values_list("deck_id", "card_id", "card__short_id", "quantity", "zone")
    )
    for deck_id, pk, short_id, quantity, zone in rows:
        cards[deck_id].append(RequestedCard(quantity=quantity, short_id=short_id, zone=zone, pk=pk))
    fresh = {deck.pk: _standing(deck, Intake(tuple(cards[deck.pk]))) for deck in missing}
    cache.set_many({keys[pk]: str(s) for pk, s in fresh.items()}, LEGALITY_SECONDS)
    return {**found, **fresh}
