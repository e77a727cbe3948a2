"""Every write to a deck's cards and settings: create, update, set one card's quantity
(branching is in decks.services.variants, reverting in decks.services.versions, deleting and
restoring in decks.services.lifecycle). Each write that changes something records a version
(decks.services.history) in the transaction that bumps the deck's version.

Each write resolves the deck's cards first and refuses, writing nothing, cards that cannot be
known; rules of the format do not stop a save (a deck in progress is rarely legal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cardsite.cardlists.decklist import MAX_QUANTITY
from cardsite.cardlists.snapshot import game_snapshot
from cardsite.catalogue.models import Game
from decks.models import Deck, DeckEntry, MaybeEntry
from decks.public.versioning import decks_changed
from decks.services.history import (
    EDIT,
    MAYBE,
    DeckState,
    Latest,
    deck_state,
    fold_or_record,
    is_keyframe,
    latest_version,
    note_text,
    record_version,
    settings_of,
)
from decks.services.intake import Intake, bounded, intake_deck, intake_quantity
from decks.services.resolve import ResolvedDeck, resolve
from decks.services.validate import format_for
from engines.errors import InputError
from engines.filters.text import fold

NAME_MAX = 120
DESCRIPTION_MAX = 5_000
NO_CARDS = Intake()
# The planned cards beside a deck: at most this many different cards.
MAX_MAYBE = 100
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


def _entry_cards(resolved: ResolvedDeck) -> dict[tuple[str, str], int]:
    cards: dict[tuple[str, str], int] = {}
    for e in resolved.entries:
        key = (e.card.short_id, e.zone)
        cards[key] = cards.get(key, 0) + e.quantity
    return cards


def planned(game: Game, maybe: dict[str, int], field: str = "maybe") -> dict[int, int]:
    """Planned cards by short id, as {card pk: quantity}: InputError naming `field` for an
    unknown card, or past MAX_MAYBE cards or MAX_QUANTITY copies."""
    snap = game_snapshot(game.slug)
    if len(maybe) > MAX_MAYBE:
        raise InputError(field, f"A deck plans at most {MAX_MAYBE} different cards.")
    out: dict[int, int] = {}
    for short_id, quantity in maybe.items():
        card = snap.cards.get(short_id)
        if card is None:
            raise InputError(field, f"{short_id!r} is not a {snap.name} card.")
        if not 1 <= quantity <= MAX_QUANTITY:
            raise InputError(field, f"A planned card's quantity is 1 to {MAX_QUANTITY}.")
        out[card.pk] = quantity
    return out


def _listed_plan(resolved: ResolvedDeck) -> dict[str, int]:
    """A pasted list's sideboard or maybe-board, as {short id: quantity}."""
    return {e.card.short_id: e.quantity for e in resolved.planned}


def _write_maybe(deck: Deck, maybe: dict[int, int]) -> None:
    deck.maybe.all().delete()
    MaybeEntry.objects.bulk_create(
        MaybeEntry(deck=deck, card_id=pk, quantity=q) for pk, q in maybe.items()
    )


def _unchanged(deck: Deck, version: int) -> Deck:
    """A save that changes nothing writes nothing, but only if the deck is still at the version
    the writer read: `deck` may be a copy read before someone else's save, so that its state
    and this save's agree by chance (a rename back to the name it had then), and answering
    "saved" would tell the writer their change is in when another one is."""
    current = Deck.objects.filter(pk=deck.pk).values_list("version", flat=True).first()
    if current != version:
        raise DeckConflict(current or 0)
    return deck


def deck_create(
    *,
    owner: User,
    game: Game,
    format_slug: str,
    name: str,
    description: str = "",
    visibility: str = Deck.Visibility.PRIVATE,
    faction: str | None = None,
    intake: Intake = NO_CARDS,
    forked_from: Deck | None = None,
    note: str = "",
) -> Deck:
    format_for(game.engine, format_slug)
    note = note_text(note)
    fields = {
        "name": _name(name),
        "visibility": _visibility(visibility),
        "description": _description(description),
    }
    resolved = resolve(game=game.slug, intake=intake, faction=faction).known()
    maybe = _listed_plan(resolved)
    maybe_pks = planned(game, maybe, "text") if maybe else {}
    with transaction.atomic():
        deck = Deck.objects.create(
            owner=owner,
            game=game,
            format=format_slug,
            faction_id=resolved.faction.pk if resolved.faction else None,
            forked_from=forked_from,
            parent_version=forked_from.version if forked_from else None,
            **fields,
        )
        _write_entries(deck, resolved)
        if maybe_pks:
            _write_maybe(deck, maybe_pks)
        cards = {**_entry_cards(resolved), **{(s, MAYBE): q for s, q in maybe.items()}}
        record_version(
            deck=deck,
            number=deck.version,
            author=owner,
            note=note,
            before=None,
            after=DeckState(cards, settings_of(deck)),
        )
    return deck


def deck_update(
    *,
    deck: Deck,
    expected_version: int | None,
    changes: dict[str, Any],
    intake: Intake | None = None,
    maybe: dict[str, int] | None = None,
    author: User | None = None,
    note: str = "",
) -> Deck:
    """Apply `changes` (name, description, visibility, format, faction) and, when given, new
    cards and new planned cards ({short id: quantity}), only if the deck is still at
    `expected_version` (None: whatever it is now); raises DeckConflict otherwise. The version
    check and bump are one UPDATE, so of concurrent writers exactly one wins, and only it
    records a version. A save that changes nothing writes nothing."""
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
    note = note_text(note)
    if intake is not None and intake.planned and maybe is not None:
        raise InputError(
            "maybe", "Give the planned cards in the list's sideboard or in `maybe`, not both."
        )
    maybe_pks = planned(deck.game, maybe) if maybe is not None else None
    before = deck_state(deck)
    cards = intake if intake is not None else intake_deck(deck)
    resolved = resolve(game=deck.game.slug, intake=cards, faction=faction).known()
    if resolved.planned:
        # A pasted list's sideboard replaces the plan; a list without one leaves it as it is.
        maybe = _listed_plan(resolved)
        maybe_pks = planned(deck.game, maybe, "text")
    after_settings = {
        **before.settings,
        **{k: v for k, v in fields.items() if k in before.settings},
        "format": format_slug,
        "faction": resolved.faction.name if resolved.faction else None,
    }
    after_cards = {k: q for k, q in before.cards.items() if k[1] == MAYBE and maybe is None}
    after_cards.update(_entry_cards(resolved))
    if maybe is not None:
        after_cards.update({(s, MAYBE): q for s, q in maybe.items()})
    after = DeckState(after_cards, after_settings)
    version = expected_version if expected_version is not None else deck.version
    if after == before:
        return _unchanged(deck, version)
    with transaction.atomic():
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
        if maybe_pks is not None:
            _write_maybe(deck, maybe_pks)
        record_version(
            deck=deck, number=version + 1, author=author, note=note, before=before, after=after
        )
        # Nor a post_save: lists of public decks are told here.
        decks_changed()
    deck.refresh_from_db()
    return deck


@dataclass(frozen=True)
class Current:
    """What a +/- reads before it writes, when the caller read it already (with the deck, in
    one query: decks.reading.editing.deck_for_edit): the deck's cards and latest version."""

    intake: Intake
    latest: Latest | None


@dataclass(frozen=True)
class Stepped:
    """A +/- done: the deck, and its cards after it (None for a planned card's)."""

    deck: Deck
    intake: Intake | None


def deck_set_quantity(
    *,
    deck: Deck,
    expected_version: int | None,
    card: str,
    zone: str | None = None,
    step: int = 0,
    quantity: int | None = None,
    author: User | None = None,
) -> Deck:
    """deck_card_step, for a caller that needs the deck alone."""
    return deck_card_step(
        deck=deck,
        expected_version=expected_version,
        card=card,
        zone=zone,
        step=step,
        quantity=quantity,
        author=author,
    ).deck


def deck_card_step(
    *,
    deck: Deck,
    expected_version: int | None,
    card: str,
    zone: str | None = None,
    step: int = 0,
    quantity: int | None = None,
    author: User | None = None,
    current: Current | None = None,
) -> Stepped:
    """Change one card's quantity by `step`, or set it to `quantity` (0 takes it out), only if
    the deck is still at `expected_version` (None: whatever it is now). The zone MAYBE is the
    planned cards beside the deck.

    The builder's +/- is the commonest write there is, so it touches only what it changes:
    the deck's cards and latest version (`current`, or read here), then the version bump,
    one INSERT, UPDATE or DELETE of that card's row, and one write of the version, folded
    into the author's open builder version when it may be (history.fold_or_record). A change
    that changes nothing writes nothing. Adding past the deck limits (`bounded`) is an
    InputError naming them; taking cards out never is."""
    snap = game_snapshot(deck.game.slug)
    found = snap.cards.get(card)
    if found is None:
        raise InputError("card", f"That card is not a {snap.name} card.")
    zones = [z.slug for z in snap.engine.zones]
    zone = zone or found.type_zone or zones[0]
    if zone not in (*zones, MAYBE):
        raise InputError(
            "zone", f"{snap.name} has no zone {zone!r}; zones: {', '.join([*zones, MAYBE])}."
        )
    version = expected_version if expected_version is not None else deck.version
    if version != deck.version:
        raise DeckConflict(deck.version)
    latest = current.latest if current is not None else latest_version(deck)
    entries = None
    if zone == MAYBE:
        plan = dict(deck.maybe.values_list("card__short_id", "quantity"))
        had = plan.get(found.short_id, 0)
        wanted = max(0, min(MAX_QUANTITY, quantity if quantity is not None else had + step))
        if wanted > had and not had and len(plan) >= MAX_MAYBE:
            raise InputError("card", f"A deck plans at most {MAX_MAYBE} different cards.")
    else:
        entries = current.intake if current is not None else intake_deck(deck)
        changed = intake_quantity(
            entries, short_id=found.short_id, zone=zone, step=step, quantity=quantity
        )
        had, wanted = (
            sum(c.quantity for c in cards.cards if c.short_id == found.short_id and c.zone == zone)
            for cards in (entries, changed)
        )
        if wanted > had:
            bounded(changed, snap.engine, "card")
    if wanted == had:
        return Stepped(_unchanged(deck, version), entries)
    faction_id = deck.faction_id
    settings_changed: dict[str, list[Any]] = {}
    if faction_id is None and entries is not None:
        # As deck_update does: a deck of no stated faction takes the one its cards share.
        inferred = resolve(game=snap.slug, intake=changed).faction
        if inferred is not None:
            faction_id = inferred.pk
            settings_changed["faction"] = [None, inferred.name]
    write_steps(
        deck=deck,
        version=version,
        author=author,
        latest=latest,
        changes=[[found.short_id, zone, had, wanted]],
        kind=EDIT,
        settings_changed=settings_changed,
        faction_id=faction_id,
    )
    return Stepped(deck, changed if entries is not None else None)


def write_steps(
    *,
    deck: Deck,
    version: int,
    author: User | None,
    latest: Latest | None,
    changes: list[list[Any]],
    kind: str,
    settings_changed: dict[str, list[Any]] | None = None,
    faction_id: int | None = None,
) -> None:
    """Write a builder step (`changes`: [short id, zone, had, wanted] each, MAYBE the planned
    cards) if the deck is still at `version`, and record it, folded when it may be; DeckConflict
    otherwise, nothing written. One row's INSERT, UPDATE or DELETE per change."""
    snap = game_snapshot(deck.game.slug)
    faction_id = faction_id if faction_id is not None else deck.faction_id
    now = timezone.now()
    # No savepoint: inside a request's transaction this adds no statements, and nothing is
    # written before the version check, so a conflict is raised after the block, clean.
    with transaction.atomic(savepoint=False):
        updated = Deck.objects.filter(pk=deck.pk, version=version).update(
            version=F("version") + 1, faction_id=faction_id, updated_at=now
        )
        if updated:
            for short_id, zone, had, wanted in changes:
                known = snap.cards.get(str(short_id))
                card: dict[str, Any] = (
                    {"card_id": known.pk} if known is not None else {"card__short_id": short_id}
                )
                rows: Any = (
                    MaybeEntry.objects.filter(deck=deck, **card)
                    if zone == MAYBE
                    else DeckEntry.objects.filter(deck=deck, zone=zone, **card)
                )
                if not wanted:
                    rows.delete()
                elif not had and known is not None:
                    where = {} if zone == MAYBE else {"zone": zone}
                    rows.model.objects.create(deck=deck, card_id=known.pk, quantity=wanted, **where)
                else:
                    rows.update(quantity=wanted)
            deck.version, deck.updated_at, deck.faction_id = version + 1, now, faction_id
            fold_or_record(
                deck=deck,
                number=version + 1,
                author=author,
                latest=latest,
                changes=changes,
                settings_changed=settings_changed or {},
                kind=kind,
                # A keyframe needs the whole deck: read it back, once in KEYFRAME_EVERY writes.
                after=deck_state(deck) if is_keyframe(version + 1) else None,
                now=now,
            )
            # As deck_update: update() sends no post_save, and the cached lists of public
            # decks (a card's "used in", the sitemap's lastmod) must see the new cards and date.
            decks_changed()
    if not updated:
        raise DeckConflict(Deck.objects.get(pk=deck.pk).version)
