"""The events' pages: thin views over cardsite.events.services and .selectors."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST, require_safe

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from cardsite.catalogue.models import Game
from cardsite.events.models import Event
from cardsite.events.selectors import (
    decks_to_register,
    event_for_reader,
    events_listed,
    events_of,
    registered_lists,
    registration_of,
    registrations_sorted,
    standings_of,
)
from cardsite.events.services import (
    DECKLIST_CHARS,
    MAX_PLAYERS,
    NAME_MAX,
    DeckCheck,
    EventForbidden,
    RegistrationRefused,
    StandingIn,
    deck_check,
    event_create,
    event_publish,
    registration_submit,
    standings_set,
)
from cardsite.limits import spend
from decks.exports.registration import RegistrationSheet, SheetHeader, registration_pdf
from decks.proxies import PAPERS
from decks.reading.selectors import deck_for_reader
from decks.views.common import ascii_number
from decks.views.exports import attachment
from engines.errors import InputError

# A date and time as a form sends it ("2026-11-27T10:00"), with room for seconds.
DATETIME_CHARS = 32


def _event(key: str) -> Event:
    event = event_for_reader(key=key[:40])
    if event is None:
        raise Http404("No such event.")
    return event


def _organised(request: HttpRequest, key: str) -> Event:
    """The event, for its organiser only: anyone else is told there is no such page."""
    event = _event(key)
    if event.organiser_id != request.user.id:
        raise Http404("No such page.")
    return event


def _when(request: HttpRequest, field: str) -> datetime:
    raw = request.POST.get(field, "")[: DATETIME_CHARS + 1]
    parsed = parse_datetime(raw) if len(raw) <= DATETIME_CHARS else None
    if parsed is None:
        raise InputError(field, "Give a date and time, e.g. 2026-12-05 10:00.")
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


def _formats() -> list[tuple[str, str]]:
    return [
        (f"{g.slug}/{f.slug}", f"{g.name}: {f.name}")
        for g in Game.objects.order_by("name")
        for f in g.engine.formats
    ]


def event_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "events/list.html",
        {"events": events_listed(), "mine": events_of(user=request.user)},
    )


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    context = {"choices": _formats(), "name_max": NAME_MAX}
    if request.method != "POST":
        return render(request, "events/new.html", context)
    game_slug, _, fmt = request.POST.get("game_format", "").partition("/")
    game = Game.objects.filter(slug=game_slug[:60]).first()
    try:
        if game is None:
            raise InputError("game_format", "Choose a game and format.")
        spend(request, "events")
        event = event_create(
            organiser=signed_in(request),
            game=game,
            format_slug=fmt[:40],
            name=request.POST.get("name", ""),
            starts_at=_when(request, "starts_at"),
            deadline=_when(request, "deadline"),
            visibility=request.POST.get("visibility", Event.Visibility.PUBLIC)[:10],
        )
    except InputError as exc:
        return render(
            request, "events/new.html", {**context, "error": as_form_error(exc)}, status=400
        )
    return redirect("events:organise", event.key)


def _event_page(request: HttpRequest, event: Event, **extra: object) -> HttpResponse:
    now = timezone.now()
    context = {
        "event": event,
        "open": not event.published and now <= event.deadline,
        "decks": decks_to_register(event=event, user=request.user),
        "mine": registration_of(event=event, user=request.user),
        "lists": registered_lists(event=event, user=request.user) if event.published else [],
        "standings": standings_of(event=event, user=request.user) if event.published else [],
        "organiser": event.organiser_id == request.user.id,
        **extra,
    }
    return render(request, "events/event.html", context, status=400 if "error" in extra else 200)


def event_detail(request: HttpRequest, key: str) -> HttpResponse:
    return _event_page(request, _event(key))


@login_required
@require_POST
def event_register(request: HttpRequest, key: str) -> HttpResponse:
    event = _event(key)
    deck = deck_for_reader(deck_id=request.POST.get("deck", "")[:40], user=request.user)
    try:
        if deck is None or deck.owner_id != request.user.id:
            raise InputError("deck", "Choose one of your decks.")
        registration_submit(event=event, player=signed_in(request), deck=deck)
    except InputError as exc:
        return _event_page(request, event, error=as_form_error(exc))
    except RegistrationRefused as refused:
        return _event_page(
            request, event, error=refused.message, problems=[p.message for p in refused.problems]
        )
    return redirect("events:event", event.key)


def _organiser_page(
    request: HttpRequest, event: Event, *, status: int = 200, **extra: object
) -> HttpResponse:
    context = {
        "event": event,
        "lists": registered_lists(event=event, user=request.user),
        "max_players": MAX_PLAYERS,
        "decklist_chars": DECKLIST_CHARS,
        **extra,
    }
    return render(request, "events/organise.html", context, status=status)


@login_required
def event_organise(request: HttpRequest, key: str) -> HttpResponse:
    return _organiser_page(request, _organised(request, key))


@login_required
@require_POST
def event_check(request: HttpRequest, key: str) -> HttpResponse:
    event = _organised(request, key)
    text = request.POST.get("text", "")
    try:
        checked: DeckCheck = deck_check(
            event=event,
            organiser=signed_in(request),
            player=request.POST.get("player", "")[:150],
            text=text,
        )
    except (InputError, EventForbidden) as exc:
        message = as_form_error(exc) if isinstance(exc, InputError) else str(exc)
        return _organiser_page(request, event, status=400, check_error=message)
    return _organiser_page(request, event, checked=checked, check_text=text[:DECKLIST_CHARS])


@login_required
@require_POST
def event_standings(request: HttpRequest, key: str) -> HttpResponse:
    event = _organised(request, key)
    players = request.POST.getlist("player")[: MAX_PLAYERS + 1]
    ranks = request.POST.getlist("rank")[: MAX_PLAYERS + 1]
    try:
        standings = []
        for player, raw in zip(players, ranks, strict=False):
            if not raw.strip():
                continue
            rank = ascii_number(raw.strip(), 3)
            if rank is None:
                raise InputError("standings", f"A rank is a whole number from 1 to {MAX_PLAYERS}.")
            standings.append(StandingIn(player[:150], rank))
        standings_set(event=event, organiser=signed_in(request), standings=standings)
    except InputError as exc:
        return _organiser_page(request, event, status=400, standings_error=as_form_error(exc))
    return redirect("events:organise", event.key)


@login_required
@require_POST
def event_publish_view(request: HttpRequest, key: str) -> HttpResponse:
    event = _organised(request, key)
    try:
        if request.POST.get("confirm") != "yes":
            raise InputError("confirm", "Tick the box to confirm publishing.")
        event_publish(event=event, organiser=signed_in(request))
    except InputError as exc:
        return _organiser_page(request, event, status=400, publish_error=as_form_error(exc))
    return redirect("events:event", event.key)


def _sheets_pdf(request: HttpRequest, event: Event, player: str | None) -> HttpResponse:
    paper = request.GET.get("paper", "a4")[:10].lower()
    if paper not in PAPERS:
        return HttpResponse(
            f"paper must be {' or '.join(PAPERS)}.\n", status=400, content_type="text/plain"
        )
    rows = registrations_sorted(event=event, player=player)
    if player is not None and not rows:
        raise Http404("No such player in this event.")
    spend(request, "proxies")
    day = event.starts_at.date().isoformat()
    sheets = [
        RegistrationSheet(
            deck=r.deck,
            version=r.version,
            header=SheetHeader(event.name, day, r.player.get_username(), str(r.player.pk)),
            format_slug=event.format,
        )
        for r in rows
    ]
    pdf = registration_pdf(sheets=sheets, paper=paper, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    name = f"{event.key}-{player or 'all'}-registration.pdf"
    response["Content-Disposition"] = attachment(name, name)
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_safe
def event_sheets(request: HttpRequest, key: str) -> HttpResponse:
    """Every registration sheet in one PDF, sorted by player: the organiser's."""
    return _sheets_pdf(request, _organised(request, key), None)


@login_required
@require_safe
def event_sheet(request: HttpRequest, key: str, player: str) -> HttpResponse:
    """One player's registration sheet: the organiser's."""
    return _sheets_pdf(request, _organised(request, key), player[:150])
