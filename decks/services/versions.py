"""Writes on a deck's history: reverting to a version, moving a card between the deck and
its planned cards, annotating a version, saving a checkpoint, and the builder's undo and
redo. Nothing here rewrites a closed version's cards: undo and redo are new steps, folded
into the author's open builder version as any +/- is."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from cardsite.cardlists.decklist import MAX_QUANTITY
from cardsite.cardlists.snapshot import game_snapshot
from decks.models import Deck, DeckVersion
from decks.services.history import (
    REDO,
    REVERTED_SETTINGS,
    UNDO,
    CardKey,
    UndoState,
    VersionNotFound,
    cards_intake,
    deck_state,
    latest_version,
    note_text,
    state_at,
    undo_state,
)
from decks.services.intake import bounded
from decks.services.write import DeckConflict, deck_update, write_steps
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


def deck_checkpoint(
    *, deck: Deck, author: User, note: str, expected_version: int | None
) -> DeckVersion:
    """Close the builder's fold at the deck's latest version, with `note` (NOTE_MAX; empty
    keeps the note it has): the next edit starts a new version. Writes no version of its own,
    so the deck's version stays; DeckConflict if it is no longer `expected_version`, so the
    note lands on the version its writer saw."""
    note = note_text(note)
    if expected_version is not None and expected_version != deck.version:
        raise DeckConflict(deck.version)
    fields: dict[str, Any] = {"open": False}
    if note:
        fields["note"] = note
    rows = DeckVersion.objects.filter(deck=deck, number=deck.version)
    if not rows.update(**fields):
        raise VersionNotFound(deck.version)
    return rows.get()


def _apply(
    *,
    deck: Deck,
    expected_version: int | None,
    author: User,
    targets: dict[CardKey, int],
    kind: str,
) -> Deck:
    """Set each card (short id, zone) to its quantity in `targets`, as one builder step of
    `kind` (folding as a +/- does). Writes what differs only; a card the catalogue no longer
    has cannot come back (InputError)."""
    version = expected_version if expected_version is not None else deck.version
    if version != deck.version:
        raise DeckConflict(deck.version)
    snap = game_snapshot(deck.game.slug)
    latest = latest_version(deck)
    now_cards = deck_state(deck).cards
    changes = [
        [s, z, now_cards.get((s, z), 0), q]
        for (s, z), q in sorted(targets.items())
        if now_cards.get((s, z), 0) != q
    ]
    gone = [s for s, _z, _b, a in changes if a and s not in snap.cards]
    if gone:
        raise InputError("card", f"{gone[0]!r} has left the catalogue: it cannot come back.")
    if not changes:
        raise InputError(kind, f"Nothing to {kind}: the deck already holds those cards.")
    write_steps(
        deck=deck, version=version, author=author, latest=latest, changes=changes, kind=kind
    )
    return deck


def _refusal(state: UndoState, verb: str) -> InputError:
    if state.blocked_by:
        return InputError(
            verb,
            f"{state.blocked_by} changed this deck after your last change, so {verb} would "
            f"take back or overwrite theirs: nothing was {verb}ne. The deck is shown as it is "
            "now; its history page can revert to any version.",
        )
    return InputError(verb, f"Nothing to {verb}.")


def _travel(*, deck: Deck, expected_version: int | None, author: User, kind: str) -> Deck:
    """Undo (`kind` UNDO: each card back to its quantity before the latest step) or redo
    (REDO: the step undone last, put back), from the deck's history."""
    state = undo_state(deck, author)
    stack = state.undo if kind == UNDO else state.redo
    if not stack:
        raise _refusal(state, kind)
    side = 2 if kind == UNDO else 3
    targets = {(c[0], c[1]): c[side] for c in stack[-1]}
    return _apply(
        deck=deck, expected_version=expected_version, author=author, targets=targets, kind=kind
    )


def deck_undo(*, deck: Deck, expected_version: int | None, author: User) -> Deck:
    """Take back the author's latest change to the deck's cards (one step of a folded
    version, or a whole version saved at once), from the deck's recorded history, so it
    works after a reload. Refused (InputError) when someone else changed the deck since."""
    return _travel(deck=deck, expected_version=expected_version, author=author, kind=UNDO)


def deck_redo(*, deck: Deck, expected_version: int | None, author: User) -> Deck:
    """Put back the change the author's latest undo took back."""
    return _travel(deck=deck, expected_version=expected_version, author=author, kind=REDO)
