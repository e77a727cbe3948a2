"""The deck builder: a new deck, the card pool beside the deck, and every edit to it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.backends.utils import csrf_input
from django.views.decorators.http import require_POST

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from cardsite.catalogue.models import Game
from decks.models import Deck
from decks.reading.editing import deck_for_edit
from decks.reading.pool import PoolPage, pool_page
from decks.reading.selectors import deck_card_counts, planned_cards
from decks.services import (
    Current,
    DeckConflict,
    DeckContentError,
    deck_card_step,
    deck_checkpoint,
    deck_create,
    deck_fork,
    deck_move_card,
    deck_redo,
    deck_set_quantity,
    deck_undo,
    deck_update,
    intake_pasted,
)
from decks.services.history import MAYBE, NOTE_MAX, VersionNotFound
from decks.services.write import MAX_MAYBE
from decks.views.common import ascii_number, owned_or_404, readable_or_404, version_in
from decks.views.edit_cores import edit_core
from decks.views.panel import (
    Choices,
    choices_from,
    panel_changes,
    panel_context,
)
from decks.views.pool import POOL_PAGE, POOL_PAGE_MAX, folded_query, pool_filters
from decks.views.pool_rows import results_context
from engines.errors import InputError
from engines.filters.syntax import QuerySyntaxError

STEPS = {"add": 1, "remove": -1}
# A planned card's +/- (STEPS), or every copy of it moved into the deck or out to the plan.
MOVES = {"to-deck": False, "to-maybe": True}
CARD_ID_MAX = 12
# One planned card as undo posts it back: `short_id*quantity` (panel.maybe_code).
PLANNED = re.compile(rf"([A-Za-z0-9_-]{{1,{CARD_ID_MAX}}})\*([0-9]{{1,2}})")
# Where a no-JavaScript edit returns the page to: a row's or a result's id.
ANCHOR = re.compile(r"[a-z0-9-]{1,60}")


def _panel_or_back(
    request: HttpRequest,
    deck: Deck,
    message: str = "",
    refused: Sequence[str] = (),
    *,
    conflict: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The panel (for htmx) or the builder again, at the same search, grouping, view and row,
    showing `message` and each of the problems that refused a write (`refused`) on its own.
    A refused write's panel is a 400 (builder.js swaps it in all the same); without
    JavaScript the page is loaded again, saying why."""
    choices = choices_from(request.POST, deck.game.engine)
    if request.headers.get("HX-Request"):
        context = {
            **panel_context(deck, choices),
            "message": message,
            "refused": refused,
            "conflict": conflict,
        }
        return render(request, "decks/_panel.html", context, status=status)
    for text in (message, *refused):
        if text:
            messages.warning(request, text)
    anchor = request.POST.get("anchor", "")
    return redirect(choices.url(deck) + (f"#{anchor}" if ANCHOR.fullmatch(anchor) else ""))


def _write(
    request: HttpRequest, deck: Deck, write: Any, notice: str = "", **kwargs: Any
) -> HttpResponse:
    """Run one write service and show the panel (with `notice`, on how a pasted list was
    read), or why the write was refused."""
    try:
        deck = write(deck=deck, expected_version=version_in(request), author=request.user, **kwargs)
    except (DeckConflict, DeckContentError, InputError) as exc:
        return _refused(request, deck, exc)
    return _panel_or_back(request, deck, notice)


def _refused(
    request: HttpRequest, deck: Deck, exc: DeckConflict | DeckContentError | InputError
) -> HttpResponse:
    """The panel as the deck is now, saying why a write was refused."""
    if isinstance(exc, DeckConflict):
        deck.refresh_from_db()
        message = (
            f"The deck changed elsewhere (now version {exc.current}); showing it as it is now."
        )
        return _panel_or_back(request, deck, message, conflict=True)
    if isinstance(exc, DeckContentError):
        refused = [p.message for p in exc.problems]
        return _panel_or_back(request, deck, refused=refused, status=400)
    return _panel_or_back(request, deck, as_form_error(exc), status=400)


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    choices = [
        (f"{g.slug}/{f.slug}", f"{g.name}: {f.name}")
        for g in Game.objects.order_by("name")
        for f in g.engine.formats
    ]
    if request.method != "POST":
        return render(request, "decks/new.html", {"choices": choices})
    game_slug, _, fmt = request.POST.get("game_format", "").partition("/")
    game = next((g for g in Game.objects.filter(slug=game_slug[:60])), None)
    try:
        if game is None:
            raise InputError("game_format", "Choose a game and format.")
        deck = deck_create(
            owner=signed_in(request),
            game=game,
            format_slug=fmt,
            name=request.POST.get("name", ""),
            visibility=request.POST.get("visibility", Deck.Visibility.PRIVATE),
        )
    except InputError as exc:
        context = {"choices": choices, "error": as_form_error(exc)}
        return render(request, "decks/new.html", context, status=400)
    return redirect("decks:edit", deck.share_key)


def _pool_number(request: HttpRequest) -> int:
    """The pool page asked for. InputError beyond a whole number from 1 to POOL_PAGE_MAX;
    a page past the last is the last (pool_page)."""
    number = ascii_number(request.GET.get("page", "1"), 7)
    if number is None or not 1 <= number <= POOL_PAGE_MAX:
        raise InputError("page", f"page is a whole number from 1 to {POOL_PAGE_MAX:,}.")
    return number


def _paging(deck: Deck, choices: Choices, found: PoolPage | None) -> dict[str, str]:
    """The links to the pool's next and previous pages ("" where there is none)."""
    page = found.page if found else None
    return {
        "next_url": choices.url(deck, page=str(page.next_page_number()))
        if page and page.has_next()
        else "",
        "prev_url": choices.url(deck, page=str(page.previous_page_number()))
        if page and page.has_previous()
        else "",
    }


@login_required
def deck_edit(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The builder page: the card pool beside the deck. For htmx, the deck panel alone (a new
    grouping), the pool's results (a new query or view) or its next page (`pool-more`)."""
    deck = owned_or_404(request, deck_id)
    engine = deck.game.engine
    q = request.GET.get("q", "").strip()
    folded = folded_query(q, request.GET, engine)
    htmx = bool(request.headers.get("HX-Request"))
    if folded != q and not htmx:
        # A range or sort sent without JavaScript: the address shows it as the query.
        choices = choices_from({**request.GET.dict(), "q": folded}, engine)
        return redirect(choices.url(deck))
    choices = choices_from({**request.GET.dict(), "q": folded}, engine)
    target = request.headers.get("HX-Target", "") if htmx else ""
    if target == "deck-panel":
        return render(request, "decks/_panel.html", panel_context(deck, choices))
    context: dict[str, Any] = {
        "choices": choices,
        "q": choices.q,
        "search_error": "",
        "note_max": NOTE_MAX,
    }
    status = 200
    found = None
    try:
        number = _pool_number(request)
        found = pool_page(
            deck=deck, q=choices.q, page=number, per_page=POOL_PAGE, viewer=request.user
        )
        context["warnings"] = found.warnings
    except InputError as exc:
        context["search_error"] = as_form_error(exc)
        status = 400
    except QuerySyntaxError as exc:
        context["search_error"] = str(exc)
        status = 400
    cards = found.cards if found else []
    context.update(
        page=found.page if found else None, per_page=POOL_PAGE, **_paging(deck, choices, found)
    )
    if htmx:
        counts = deck_card_counts(deck=deck)
        planned = {p.short_id: p.quantity for p in planned_cards(deck=deck)}
        context.update(
            results_context(deck, choices, cards, counts, planned, csrf=csrf_input(request)),
            deck=deck,
        )
        fragment = "decks/_pool_items.html" if target == "pool-more" else "decks/_results.html"
        return render(request, fragment, context, status=status)
    panel = panel_context(deck, choices, with_export=True)
    results = results_context(
        deck, choices, cards, panel["in_deck"], panel["planned_counts"], csrf=csrf_input(request)
    )
    context.update(panel, **results, filters=pool_filters(deck, choices))
    return render(request, "decks/edit.html", context, status=status)


def _stepped_deck(**kwargs: Any) -> Deck:
    return deck_card_step(**kwargs).deck


@transaction.non_atomic_requests
@login_required
@require_POST
def deck_edit_card(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Add (+1) or remove (-1) one copy of a card. For htmx, only what changed: the rows
    whose quantity, collection count or problems changed (or the group or zone whose rows
    came or went), and the panel's head, as out-of-band fragments (decks/_panel_oob.html).

    Not in the request's transaction: the service's write is its own (and nothing before it
    writes), which spares a +/- the savepoint's two statements: 6 queries in all."""
    card = request.POST.get("card", "")[:CARD_ID_MAX]
    read = deck_for_edit(deck_id=deck_id, user=request.user, card=card)
    if read is None:
        raise Http404("No deck of yours with that id.")
    deck = read.deck
    step: dict[str, Any] = {
        "card": card,
        "zone": request.POST.get("zone", "")[:20] or None,
        "step": STEPS.get(request.POST.get("action", ""), 0),
        "current": Current(read.intake, read.latest),
    }
    if not request.headers.get("HX-Request"):
        return _write(request, deck, _stepped_deck, **step)
    choices = choices_from(request.POST, deck.game.engine)
    before = edit_core(deck, choices, read.intake, read.owned)
    try:
        stepped = deck_card_step(
            deck=deck, expected_version=version_in(request), author=signed_in(request), **step
        )
    except (DeckConflict, DeckContentError, InputError) as exc:
        return _refused(request, deck, exc)
    after = edit_core(deck, choices, stepped.intake or read.intake, read.owned)
    changes = panel_changes(deck, choices, before, after)
    if changes is None:
        return _panel_or_back(request, deck)
    response = render(request, "decks/_panel_oob.html", changes)
    response["HX-Reswap"] = "none"
    return response


@login_required
@require_POST
def deck_edit_maybe(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The cards planned beside the deck: one more or one fewer (add, remove), or every copy
    of a card moved into the deck (to-deck) or out of it to the plan (to-maybe)."""
    deck = owned_or_404(request, deck_id)
    action = request.POST.get("action", "")
    card = request.POST.get("card", "")
    if len(card) > CARD_ID_MAX:
        refused = InputError("card", f"A card id is at most {CARD_ID_MAX} characters.")
        return _panel_or_back(request, deck, as_form_error(refused), status=400)
    if action in STEPS:
        return _write(request, deck, deck_set_quantity, card=card, zone=MAYBE, step=STEPS[action])
    if action in MOVES:
        return _write(request, deck, deck_move_card, card=card, to_maybe=MOVES[action])
    choices = ", ".join([*STEPS, *MOVES])
    refused = InputError("action", f"The action is one of {choices}.")
    return _panel_or_back(request, deck, as_form_error(refused), status=400)


def planned_in(request: HttpRequest) -> dict[str, int] | None:
    """The planned cards undo posts back with the deck's code (`short_id*quantity;...`), or
    None when the form has none (pasting a list leaves the plan as it is). InputError for
    more than MAX_MAYBE or a malformed item; the service checks each card and quantity."""
    if "maybe" not in request.POST:
        return None
    raw = request.POST["maybe"]
    items = raw.split(";") if raw else []
    if len(items) > MAX_MAYBE:
        raise InputError("maybe", f"A deck plans at most {MAX_MAYBE} different cards.")
    planned: dict[str, int] = {}
    for item in items:
        found = PLANNED.fullmatch(item)
        if found is None:
            raise InputError("maybe", "Planned cards are written card*quantity, split by ;.")
        planned[found[1]] = int(found[2])
    return planned


@login_required
@require_POST
def deck_edit_settings(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = owned_or_404(request, deck_id)
    changes = {
        k: request.POST[k].strip()
        for k in ("name", "description", "visibility", "format")
        if k in request.POST
    }
    return _write(request, deck, deck_update, changes=changes)


@login_required
@require_POST
def deck_import(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Replace the deck's cards with a pasted text decklist or deck code; undo sends the
    planned cards too (`maybe`)."""
    deck = owned_or_404(request, deck_id)
    try:
        intake = intake_pasted(request.POST.get("decklist", ""), deck.game.engine)
        planned = planned_in(request)
    except InputError as exc:
        return _panel_or_back(request, deck, as_form_error(exc), status=400)
    # A sideboard found by a blank line is said so, not left to be found among the plan.
    notice = " ".join(p.message for p in intake.problems if p.code == "read_as_sideboard")
    return _write(request, deck, deck_update, notice, changes={}, intake=intake, maybe=planned)


@login_required
@require_POST
def deck_fork_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    return redirect("decks:edit", deck_fork(deck=deck, owner=signed_in(request)).share_key)


@login_required
@require_POST
def deck_undo_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Take back the owner's latest change to the cards, from the deck's history."""
    deck = owned_or_404(request, deck_id)
    return _write(request, deck, deck_undo)


@login_required
@require_POST
def deck_redo_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Put back what the latest undo took back."""
    deck = owned_or_404(request, deck_id)
    return _write(request, deck, deck_redo)


@login_required
@require_POST
def deck_checkpoint_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Close the builder's folded version, with a note: the next edit starts a new one."""
    deck = owned_or_404(request, deck_id)
    try:
        deck_checkpoint(
            deck=deck,
            author=signed_in(request),
            note=request.POST.get("note", "")[: NOTE_MAX + 1],
            expected_version=version_in(request),
        )
    except (DeckConflict, InputError) as exc:
        return _refused(request, deck, exc)
    except VersionNotFound:
        return _panel_or_back(request, deck, "This deck has no saved version to mark.", status=400)
    return _panel_or_back(request, deck, f"Checkpoint saved: version {deck.version}.")
