"""Writes on a deck's history: reverting to a version, moving a card between the deck and
its planned cards, and annotating a version. Nothing here rewrites a version's cards."""

from __future__ import annotations

from django.contrib.auth.models import User

from cardsite.cardlists.decklist import MAX_QUANTITY
from cardsite.cardlists.snapshot import game_snapshot
from decks.models import Deck, DeckVersion
from decks.services.history import (
    REVERTED_SETTINGS,
    VersionNotFound,
    cards_intake,
    deck_state,
    note_text,
    state_at,
)
from decks.services.intake import bounded
from decks.services.write import deck_update
from engines.errors import InputError


def deck_revert(*, deck: Deck, expected_version: int | None, version: int, author: User) -> Deck:
    """A new version equal to version `version` in its cards, planned cards and settings
    (not its visibility). VersionNotFound if it was never kept; DeckConflict as deck_update;
    DeckContentError if a card it held has since left the catalogue."""
    if version == deck.version:
        raise InputError("version", f"The deck is at version {version} already.")
    target = state_at(deck, version)
    return deck_update(
        deck=deck,
        expected_version=expected_version,
        changes={k: target.settings.get(k) for k in REVERTED_SETTINGS},
        intake=cards_intake(target.deck_cards()),
        maybe=target.maybe_cards(),
        author=author,
        note=f"Reverted to version {version}",
    )


def deck_move_card(
    *, deck: Deck, expected_version: int | None, card: str, to_maybe: bool, author: User
) -> Deck:
    """Move every copy of a card from the deck to its planned cards, or back into the deck
    (in the zone its type puts it), as one version. InputError, writing nothing, for a card
    not there, or past the deck's limits (into the deck) or the plan's (out of it)."""
    snap = game_snapshot(deck.game.slug)
    found = snap.cards.get(card)
    if found is None:
        raise InputError("card", f"That card is not a {snap.name} card.")
    state = deck_state(deck)
    cards = state.deck_cards()
    maybe = state.maybe_cards()
    if to_maybe:
        moved = sum(q for (s, _z), q in cards.items() if s == found.short_id)
        cards = {k: q for k, q in cards.items() if k[0] != found.short_id}
        if moved:
            maybe[found.short_id] = maybe.get(found.short_id, 0) + moved
    else:
        moved = maybe.pop(found.short_id, 0)
        zone = found.type_zone or snap.engine.zones[0].slug
        if moved:
            cards[(found.short_id, zone)] = cards.get((found.short_id, zone), 0) + moved
            if cards[(found.short_id, zone)] > MAX_QUANTITY:
                raise InputError(
                    "card",
                    f"A deck holds 1 to {MAX_QUANTITY} copies of a card; "
                    f"this would make {cards[(found.short_id, zone)]}.",
                )
    if not moved:
        raise InputError("card", "That card is not there to move.")
    intake = cards_intake(cards)
    if not to_maybe:
        # As the builder's +: coming into the deck, the deck's limits hold.
        bounded(intake, snap.engine, "card")
    return deck_update(
        deck=deck,
        expected_version=expected_version,
        changes={},
        intake=intake,
        maybe=maybe,
        author=author,
    )


def version_annotate(*, deck: Deck, number: int, note: str) -> DeckVersion:
    """Set the note of a version (its owner's words about it, not its content)."""
    note = note_text(note)
    updated = DeckVersion.objects.filter(deck=deck, number=number).update(note=note)
    if not updated:
        raise VersionNotFound(number)
    return DeckVersion.objects.get(deck=deck, number=number)
