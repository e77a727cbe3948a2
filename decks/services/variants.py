"""Branching a deck: a named variant of one's own deck, or a copy of someone else's.

Both are decks of their own that remember the deck and the version they branched from
(Deck.forked_from and Deck.parent_version, the API's `parent`)."""

from __future__ import annotations

from django.contrib.auth.models import User

from decks.models import Deck
from decks.services.intake import intake_deck
from decks.services.write import NAME_MAX, deck_create


def deck_branch(*, deck: Deck, owner: User, name: str | None = None, note: str = "") -> Deck:
    """A variant of `deck` owned by `owner`, with its cards and settings as they are now.

    A variant of one's own deck keeps its visibility (a public deck's "vs. aggro" is meant
    to be seen with it); a copy of someone else's deck starts private."""
    own = deck.owner_id == owner.pk
    return deck_create(
        owner=owner,
        game=deck.game,
        format_slug=deck.format,
        name=name if name is not None else f"{deck.name[: NAME_MAX - 7]} (copy)",
        description=deck.description,
        visibility=deck.visibility if own else Deck.Visibility.PRIVATE,
        faction=deck.faction.name if deck.faction else None,
        intake=intake_deck(deck),
        forked_from=deck,
        note=note,
    )


def deck_fork(*, deck: Deck, owner: User) -> Deck:
    """A private copy of a deck someone can read, owned by `owner`: a variant by another
    name."""
    return deck_branch(deck=deck, owner=owner)
