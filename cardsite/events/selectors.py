"""Reads of events, always through who is asking. An event (public or unlisted) is read by its
key; its registered lists are the organiser's, each player's own, and everyone's once the
standings are published, except a private deck's list, which stays the organiser's and its
player's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.urls import reverse

from cardsite.catalogue.versioning import catalogue_version
from cardsite.events.models import Event, Registration
from cardsite.events.services import locked_legality
from decks.history.pages import version_url
from decks.models import Deck
from decks.services import game_snapshot
from decks.services.history import DeckState, state_at
from engines.rules import Problem

# A locked list's legality is checked once per catalogue version, then read from the cache.
LEGALITY_SECONDS = 24 * 60 * 60
# Events listed on /events/, newest first.
LISTED = 100


def event_for_reader(*, key: str) -> Event | None:
    """The event with this key: public and unlisted ones are both read by whoever holds it."""
    return Event.objects.select_related("game", "organiser").filter(key=key).first()


def events_listed() -> QuerySet[Event]:
    """Public events, the latest first."""
    return Event.objects.filter(visibility=Event.Visibility.PUBLIC).select_related("game")[:LISTED]


def events_of(*, user: Any) -> QuerySet[Event]:
    """The events the user organises or is registered in, of any visibility."""
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    return (
        Event.objects.filter(Q(organiser_id=user.id) | Q(registrations__player_id=user.id))
        .distinct()
        .select_related("game")[:LISTED]
    )


def registration_of(*, event: Event, user: Any) -> Registration | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Registration.objects.filter(event=event, player_id=user.id).select_related("deck").first()
    )


@dataclass(frozen=True)
class ListLine:
    short_id: str
    name: str
    zone: str
    quantity: int
    sample: bool
    url: str | None


@dataclass(frozen=True)
class RegisteredList:
    registration: Registration
    player: str
    deck_name: str
    version: int
    rank: int | None
    # None: the reader may not see this list (a private deck's, to anyone but its organiser
    # and its player).
    cards: tuple[ListLine, ...] | None
    legal: bool | None
    problems: tuple[Problem, ...]
    # The registered version in the API and on the deck's history page, for a public deck
    # only: an unlisted or private deck's key is not given to readers it was not given to.
    version_url: str | None
    version_page: str | None = None


def may_list(event: Event, user: Any) -> bool:
    """Whether the user may read the event's registered lists (all, or only their own)."""
    return event.published or getattr(user, "is_authenticated", False)


def _lines(event: Event, state: DeckState) -> tuple[ListLine, ...]:
    snap = game_snapshot(event.game.slug)
    lines = []
    for (short_id, zone), quantity in state.deck_cards().items():
        card = snap.cards.get(short_id)
        lines.append(
            ListLine(
                short_id,
                card.name if card else short_id,
                zone,
                quantity,
                bool(card and not card.official),
                card.get_absolute_url() if card else None,
            )
        )
    return tuple(sorted(lines, key=lambda line: (line.zone, line.name)))


def _legality(
    event: Event, registration: Registration, state: DeckState
) -> tuple[bool, tuple[Problem, ...]]:
    key = (
        f"event-list-legal:{event.pk}:{event.format}:{registration.deck_id}:"
        f"{registration.version}:{catalogue_version()}"
    )
    found: tuple[bool, tuple[Problem, ...]] | None = cache.get(key)
    if found is None:
        result = locked_legality(event.game, event.format, state)
        found = (result.legal, result.problems)
        cache.set(key, found, LEGALITY_SECONDS)
    return found


def registered_lists(*, event: Event, user: Any) -> list[RegisteredList]:
    """The lists the user may read: every one for the organiser; after publishing, every one
    (a private deck's without its cards); before, only the user's own. Sorted by player."""
    viewer = getattr(user, "id", None)
    organiser = viewer is not None and event.organiser_id == viewer
    rows = Registration.objects.filter(event=event).select_related("player", "deck")
    if not (organiser or event.published):
        rows = rows.filter(player_id=viewer) if viewer is not None else rows.none()
    out = []
    for registration in rows.order_by("player__username", "id"):
        deck = registration.deck
        own = registration.player_id == viewer
        readable = organiser or own or deck.visibility != Deck.Visibility.PRIVATE
        state = state_at(deck, registration.version) if readable else None
        legal, problems = _legality(event, registration, state) if state else (None, ())
        public = deck.visibility == Deck.Visibility.PUBLIC and deck.deleted_at is None
        out.append(
            RegisteredList(
                registration=registration,
                player=registration.player.get_username(),
                # The name it had at the locked version, as its cards.
                deck_name=str(state.settings.get("name") or deck.name) if state else "",
                version=registration.version,
                rank=registration.rank,
                cards=_lines(event, state) if state else None,
                legal=legal,
                problems=problems,
                version_url=reverse(
                    "v1:deck-version", kwargs={"id": deck.share_key, "number": registration.version}
                )
                if public and readable
                else None,
                version_page=version_url(deck, registration.version)
                if public and readable
                else None,
            )
        )
    return out


def standings_of(*, event: Event, user: Any) -> list[RegisteredList]:
    """The published standings, by rank (players without one last), for anyone; the
    organiser sees them before publishing too."""
    if not (event.published or event.organiser_id == getattr(user, "id", None)):
        return []
    lists = registered_lists(event=event, user=user)
    return sorted(lists, key=lambda r: (r.rank is None, r.rank or 0, r.player))


# Decks offered in the register form's select, by name.
DECKS_OFFERED = 200


def decks_to_register(*, event: Event, user: Any) -> list[tuple[str, str]]:
    """The (id, name) of the user's own decks of the event's game: any format, since the
    event's own format is what a registration is checked against."""
    if not getattr(user, "is_authenticated", False):
        return []
    decks = Deck.objects.filter(owner_id=user.id, game_id=event.game_id, deleted_at__isnull=True)
    return list(decks.order_by("name", "id").values_list("share_key", "name")[:DECKS_OFFERED])


def registrations_sorted(*, event: Event, player: str | None = None) -> list[Registration]:
    """The event's registrations by player (one player's, if named), for the organiser's
    sheets: the caller has checked the reader is the organiser."""
    rows = Registration.objects.filter(event=event).select_related("player", "deck", "deck__game")
    if player is not None:
        rows = rows.filter(player__username=player)
    return list(rows.order_by("player__username", "id"))
