"""Writes of events: creating one, registering a deck (locking its version), entering the
standings and publishing them. Each refusal names its limit (InputError, LimitReached,
EventForbidden) and writes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from cardsite.catalogue.models import Game
from cardsite.events.models import Event, Registration
from decks.history.diff import Diff, diff_states
from decks.models import Deck, DeckVersion
from decks.services import CheckResult, check, format_for, game_snapshot, intake_pasted, resolve
from decks.services.history import DeckState, VersionNotFound, cards_intake, state_at
from decks.services.resolve import ResolvedDeck
from engines.errors import InputError
from engines.rules import Problem

# Players one event takes: the largest open events of the games here, with room to spare.
MAX_PLAYERS = 512
# An event's name, as a deck's.
NAME_MAX = 120
# How far ahead an event may be set: further than this is a typo, not a plan.
MAX_AHEAD = timedelta(days=2 * 365)
# A decklist pasted for a deck check: as the API's importer takes one (lines are held to
# cardsite.cardlists.decklist.MAX_LINES by the parser itself).
DECKLIST_CHARS = 100_000


class EventForbidden(Exception):
    """Only the event's organiser may do this."""


class RegistrationRefused(Exception):
    """The deck is not legal in the event's format; `problems` says why."""

    def __init__(self, message: str, problems: tuple[Problem, ...]) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems


def _name(name: str) -> str:
    name = name.strip()
    if not name:
        raise InputError("name", "An event needs a name.")
    if len(name) > NAME_MAX:
        raise InputError("name", f"An event's name is at most {NAME_MAX} characters.")
    return name


def _times(starts_at: datetime, deadline: datetime, now: datetime) -> None:
    if starts_at > now + MAX_AHEAD:
        raise InputError("starts_at", f"An event starts at most {MAX_AHEAD.days} days ahead.")
    if deadline > starts_at:
        raise InputError("deadline", "The decklist deadline is at or before the event's start.")
    if deadline <= now:
        raise InputError("deadline", "The decklist deadline must be in the future.")


def event_create(
    *,
    organiser: User,
    game: Game,
    format_slug: str,
    name: str,
    starts_at: datetime,
    deadline: datetime,
    visibility: str = Event.Visibility.PUBLIC,
) -> Event:
    format_for(game.engine, format_slug)
    name = _name(name)
    now = timezone.now()
    _times(starts_at, deadline, now)
    if visibility not in Event.Visibility.values:
        raise InputError("visibility", "An event is public or unlisted.")
    # How many events one organiser creates a day is the "events" throttle's, counted by the
    # views (cardsite.limits.spend) as every other per-client budget is.
    return Event.objects.create(
        organiser=organiser,
        game=game,
        format=format_slug,
        name=name,
        starts_at=starts_at,
        deadline=deadline,
        visibility=visibility,
    )


def _organised(event: Event, user: User) -> None:
    if event.organiser_id != user.pk:
        raise EventForbidden("Only the event's organiser may do this.")


def _open(event: Event, what: str) -> None:
    if event.published:
        raise InputError("event", f"The event's standings are published: its {what} are frozen.")


def locked_legality(game: Game, format_slug: str, state: DeckState) -> CheckResult:
    """A locked list's legality in the event's format (not the deck's own), by today's rules."""
    resolved = resolve(
        game=game.slug, intake=cards_intake(state.cards), faction=state.settings.get("faction")
    )
    return check(resolved, format_slug)


def registration_submit(*, event: Event, player: User, deck: Deck) -> Registration:
    """Register `deck` (the player's own, of the event's game) for the event at its current
    version, or replace the player's registered list with it. Refused after the deadline, once
    published, beyond MAX_PLAYERS, or when the deck is not legal in the event's format."""
    if deck.owner_id != player.pk or deck.deleted_at is not None:
        raise InputError("deck", "Register one of your own decks.")
    if deck.game_id != event.game_id:
        raise InputError("deck", f"The event is for {event.game.name}; this deck is not.")
    with transaction.atomic():
        # The event's row, locked: registrations of one event queue here, so the player cap
        # and the one-registration-a-player rule hold under concurrent requests.
        event = Event.objects.select_for_update().select_related("game").get(pk=event.pk)
        _open(event, "registrations")
        if timezone.now() > event.deadline:
            raise InputError(
                "deadline", f"Registration closed at the decklist deadline, {event.deadline:%c}."
            )
        existing = Registration.objects.filter(event=event, player=player).first()
        if existing is None and Registration.objects.filter(event=event).count() >= MAX_PLAYERS:
            raise InputError("event", f"The event is full: it takes at most {MAX_PLAYERS} players.")
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        # Close the builder's fold, or the owner's next edits would join the registered
        # version and change the list after it was locked.
        DeckVersion.objects.filter(deck=locked, number=locked.version, open=True).update(open=False)
        try:
            state = state_at(locked, locked.version)
        except VersionNotFound as missing:
            raise InputError(
                "deck", "This deck's current version was not kept: save a change and try again."
            ) from missing
        result = locked_legality(event.game, event.format, state)
        if not result.legal:
            raise RegistrationRefused(
                f"{locked.name} is not legal in {result.format.name}.", result.problems
            )
        registration, _ = Registration.objects.update_or_create(
            event=event, player=player, defaults={"deck": locked, "version": locked.version}
        )
        return registration


@dataclass(frozen=True)
class StandingIn:
    player: str
    rank: int


def standings_set(*, event: Event, organiser: User, standings: list[StandingIn]) -> None:
    """Replace the event's standings: one rank, 1 to the number of players, per registered
    player (players left out have none)."""
    _organised(event, organiser)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _open(event, "standings")
        registered = {
            r.player.get_username(): r
            for r in Registration.objects.filter(event=event).select_related("player")
        }
        players = len(registered)
        if len(standings) > players:
            raise InputError(
                "standings", f"The event has {players} players: at most {players} standings."
            )
        seen: set[str] = set()
        for standing in standings:
            if standing.player not in registered:
                raise InputError("standings", f"{standing.player!r} is not registered.")
            if standing.player in seen:
                raise InputError("standings", f"{standing.player!r} is ranked twice.")
            if not 1 <= standing.rank <= players:
                raise InputError("standings", f"A rank is between 1 and {players}.")
            seen.add(standing.player)
        Registration.objects.filter(event=event).update(rank=None)
        for standing in standings:
            registration = registered[standing.player]
            registration.rank = standing.rank
            registration.save(update_fields=["rank", "updated_at"])


def event_publish(*, event: Event, organiser: User) -> Event:
    """Publish the standings and open the lists; registrations and standings freeze."""
    _organised(event, organiser)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _open(event, "standings")
        event.published_at = timezone.now()
        event.save(update_fields=["published_at"])
        return event


def _presented(game: Game, text: str) -> tuple[DeckState, ResolvedDeck]:
    if len(text) > DECKLIST_CHARS:
        raise InputError("text", f"A decklist is at most {DECKLIST_CHARS:,} characters.")
    resolved = resolve(game=game.slug, intake=intake_pasted(text, game.engine))
    cards: dict[tuple[str, str], int] = {}
    for e in resolved.entries:
        cards[(e.card.short_id, e.zone)] = cards.get((e.card.short_id, e.zone), 0) + e.quantity
    return DeckState(cards), resolved


@dataclass(frozen=True)
class DeckCheck:
    registration: Registration
    # From the registered list (before) to what the player presented (after).
    diff: Diff
    # Lines of the presented list that were not read as cards.
    problems: tuple[Problem, ...]


def deck_check(*, event: Event, organiser: User, player: str, text: str) -> DeckCheck:
    """What the player presents (a pasted decklist or deck code) against their registered
    list: cards missing, extra, or in other quantities. Reads only; the organiser's alone."""
    _organised(event, organiser)
    registration = (
        Registration.objects.filter(event=event, player__username=player)
        .select_related("deck", "player")
        .first()
    )
    if registration is None:
        raise InputError("player", f"{player!r} is not registered.")
    registered = state_at(registration.deck, registration.version)
    presented, resolved = _presented(event.game, text)
    snap = game_snapshot(event.game.slug)
    diff = diff_states(snap, DeckState(registered.deck_cards()), presented)
    return DeckCheck(registration, diff, resolved.problems)
