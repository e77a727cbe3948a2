"""Every write to a deck: create, update, set one card's quantity, fork (deleting and
restoring are in decks.services.lifecycle).

Each write resolves the deck's cards first and refuses, writing nothing, cards that cannot be
known; rules of the format do not stop a save (a deck in progress is rarely legal).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cardsite.catalogue.models import Game
from cardsite.catalogue.search.text import fold
from decks.models import Deck, DeckEntry
from decks.services.intake import Intake, bounded, intake_deck, intake_quantity
from decks.services.resolve import ResolvedDeck, resolve
from decks.services.snapshot import game_snapshot
from decks.services.validate import format_for
from decks.versioning import decks_changed
from engines.errors import InputError

NAME_MAX = 120
DESCRIPTION_MAX = 5_000
NO_CARDS = Intake()
EDITABLE = ("name", "description", "visibility", "format", "faction")


class DeckConflict(Exception):
    """The deck changed since the version the writer read: nothing was written."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the deck is at version {current}")
        self.current = current


def _name(value: str) -> str:
    name = value.strip()
    if not name:
        raise InputError("name", "A deck needs a name.")
    if len(name) > NAME_MAX:
        raise InputError("name", f"A deck's name is at most {NAME_MAX} characters.")
    return name


def _description(value: str) -> str:
    if len(value) > DESCRIPTION_MAX:
        raise InputError(
            "description", f"A deck's description is at most {DESCRIPTION_MAX:,} characters."
        )
    return value


def _visibility(value: str) -> str:
    if value not in Deck.Visibility.values:
        raise InputError("visibility", f"Visibility is one of {', '.join(Deck.Visibility.values)}.")
    return value


def _write_entries(deck: Deck, resolved: ResolvedDeck) -> None:
    deck.entries.all().delete()
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=deck, card_id=e.card.pk, quantity=e.quantity, zone=e.zone)
        for e in resolved.entries
    )


def deck_create(
    *,
    owner: Any,
    game: Game,
    format_slug: str,
    name: str,
    description: str = "",
    visibility: str = Deck.Visibility.PRIVATE,
    faction: str | None = None,
    intake: Intake = NO_CARDS,
    forked_from: Deck | None = None,
) -> Deck:
    format_for(game.engine, format_slug)
    fields = {
        "name": _name(name),
        "visibility": _visibility(visibility),
        "description": _description(description),
    }
    resolved = resolve(game=game.slug, intake=intake, faction=faction).known()
    with transaction.atomic():
        deck = Deck.objects.create(
            owner=owner,
            game=game,
            format=format_slug,
            faction_id=resolved.faction.pk if resolved.faction else None,
            forked_from=forked_from,
            **fields,
        )
        _write_entries(deck, resolved)
    return deck


def deck_update(
    *,
    deck: Deck,
    expected_version: int | None,
    changes: dict[str, Any],
    intake: Intake | None = None,
) -> Deck:
    """Apply `changes` (name, description, visibility, format, faction) and, when given, new
    cards, only if the deck is still at `expected_version` (None: whatever it is now);
    raises DeckConflict otherwise. The version check and bump are one UPDATE, so of
    concurrent writers exactly one wins."""
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise InputError(sorted(unknown)[0], "This field cannot be changed.")
    format_slug = changes.get("format", deck.format)
    format_for(deck.game.engine, format_slug)
    fields: dict[str, Any] = {}
    if "name" in changes:
        fields["name"] = _name(changes["name"])
        # An UPDATE sends no pre_save: the folded name is kept here.
        fields["search_name"] = fold(fields["name"])
    if "visibility" in changes:
        fields["visibility"] = _visibility(changes["visibility"])
    if "description" in changes:
        fields["description"] = _description(changes["description"])
    faction = changes.get("faction", deck.faction.name if deck.faction else None)
    cards = intake if intake is not None else intake_deck(deck)
    resolved = resolve(game=deck.game.slug, intake=cards, faction=faction).known()
    with transaction.atomic():
        version = expected_version if expected_version is not None else deck.version
        updated = Deck.objects.filter(pk=deck.pk, version=version).update(
            version=F("version") + 1,
            format=format_slug,
            faction_id=resolved.faction.pk if resolved.faction else None,
            updated_at=timezone.now(),
            **fields,
        )
        if not updated:
            raise DeckConflict(Deck.objects.get(pk=deck.pk).version)
        if intake is not None:
            _write_entries(deck, resolved)
        # Nor a post_save: lists of public decks are told here.
        decks_changed()
    deck.refresh_from_db()
    return deck


def deck_set_quantity(
    *,
    deck: Deck,
    expected_version: int | None,
    card: str,
    zone: str | None = None,
    step: int = 0,
    quantity: int | None = None,
) -> Deck:
    """Change one card's quantity by `step`, or set it to `quantity` (0 takes it out), only if
    the deck is still at `expected_version` (None: whatever it is now).

    The builder's +/- is the commonest write there is, so it touches only what it changes:
    one read of the entries, then the version bump and one INSERT, UPDATE or DELETE of that
    card's row. A change that changes nothing writes nothing. Adding past the deck limits
    (`bounded`) is an InputError naming them; taking cards out never is."""
    snap = game_snapshot(deck.game.slug)
    found = snap.cards.get(card)
    if found is None:
        raise InputError("card", f"That card is not a {snap.name} card.")
    zones = [z.slug for z in snap.engine.zones]
    zone = zone or found.type_zone or zones[0]
    if zone not in zones:
        raise InputError("zone", f"{snap.name} has no zone {zone!r}; zones: {', '.join(zones)}.")
    current = intake_deck(deck)
    changed = intake_quantity(
        current, short_id=found.short_id, zone=zone, step=step, quantity=quantity
    )
    had, wanted = (
        sum(c.quantity for c in cards.cards if c.short_id == found.short_id and c.zone == zone)
        for cards in (current, changed)
    )
    version = expected_version if expected_version is not None else deck.version
    if version != deck.version:
        raise DeckConflict(deck.version)
    if wanted == had:
        return deck
    if wanted > had:
        bounded(changed, snap.engine, "card")
    faction_id = deck.faction_id
    if faction_id is None:
        # As deck_update does: a deck of no stated faction takes the one its cards share.
        inferred = resolve(game=snap.slug, intake=changed).faction
        faction_id = inferred.pk if inferred else None
    now = timezone.now()
    with transaction.atomic():
        updated = Deck.objects.filter(pk=deck.pk, version=version).update(
            version=F("version") + 1, faction_id=faction_id, updated_at=now
        )
        if not updated:
            raise DeckConflict(Deck.objects.get(pk=deck.pk).version)
        row = DeckEntry.objects.filter(deck=deck, card_id=found.pk, zone=zone)
        if not wanted:
            row.delete()
        elif not had:
            DeckEntry.objects.create(deck=deck, card_id=found.pk, quantity=wanted, zone=zone)
        else:
            row.update(quantity=wanted)
    deck.version, deck.updated_at, deck.faction_id = version + 1, now, faction_id
    return deck


def deck_fork(*, deck: Deck, owner: Any) -> Deck:
    """A private copy of a deck someone can read, owned by `owner`."""
    return deck_create(
        owner=owner,
        game=deck.game,
        format_slug=deck.format,
        name=f"{deck.name[: NAME_MAX - 7]} (copy)",
        description=deck.description,
        faction=deck.faction.name if deck.faction else None,
        intake=intake_deck(deck),
        forked_from=deck,
    )
