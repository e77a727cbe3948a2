"""Collection pages: your own (totals, missing cards, import and export), another user's when
they shared it, and the + and - buttons on card pages and search results."""

from __future__ import annotations

from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.accounts import signed_in
from cardsite.catalogue.models import Game
from cardsite.collection import selectors
from cardsite.collection.page_parts import own_page_parts
from cardsite.collection.services import (
    CollectionImportError,
    collection_adjust,
    collection_export,
    collection_import,
)
from cardsite.collection.services.importing import Mode
from cardsite.collection.services.reading import MAX_IMPORT_BYTES, decode_upload
from engines.bounds import capped, more_problems
from engines.errors import InputError

STEPS = {"1": 1, "-1": -1}
MAX_NEXT_CHARS = 2_000
EXPORTS = {"txt": ("text", "text/plain"), "csv": ("csv", "text/csv")}


def _page(request: HttpRequest, owner: object, **extra: object) -> HttpResponse:
    status = int(str(extra.pop("status", 200)))
    if extra.get("own"):
        # What other apps show you about your own copies (page_parts).
        extra.update(own_page_parts(owner))
    games = selectors.collection_totals(owner=owner)
    context = {
        "owner": owner,
        "games": games,
        "games_held": any(g.owned for g in games),
        "all_games": Game.objects.order_by("name"),
        "max_bytes": MAX_IMPORT_BYTES,
        **extra,
    }
    return render(request, "collection/collection.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def collection_home(request: HttpRequest) -> HttpResponse:
    """Your collection; a POST imports a pasted list or an uploaded CSV, all or nothing."""
    if request.method == "GET":
        imported = request.GET.get("imported", "")[:12]
        shown = imported if imported.isascii() and imported.isdigit() else ""
        return _page(request, request.user, own=True, imported=shown)
    form = {k: request.POST.get(k, "")[:40] for k in ("game", "mode")}
    text = request.POST.get("text", "")
    upload = request.FILES.get("csv")
    try:
        source = {"csv": decode_upload(upload)} if upload is not None else {"text": text}
        result = collection_import(
            owner=signed_in(request),
            game=form["game"] or None,
            mode=cast(Mode, form["mode"] or "add"),
            confirm_empty=bool(request.POST.get("confirm_empty")),
            **source,
        )
    except CollectionImportError as exc:
        # The first problems and how many more: a file of 10,000 bad lines is not answered
        # with 10,000 of them.
        first, more = capped(exc.problems)
        problems: dict[str, object] = {
            "problems": first,
            "problem_count": f"{len(exc.problems):,} problem{'s' * (len(exc.problems) != 1)}",
            "more_problems": more_problems(more) if more else "",
        }
    except InputError as exc:
        # An empty replace is asked again, with the box that confirms it.
        problems = {"error": exc.message, "confirm_empty": exc.field == "confirm_empty"}
    else:
        problems = {}
    if problems:
        return _page(request, request.user, own=True, form=form, text=text, status=400, **problems)
    return HttpResponseRedirect(f"{reverse('collection:home')}?imported={result.copies}")


@require_GET
def collection_of(request: HttpRequest, username: str) -> HttpResponse:
    """Another user's collection, read-only, for the users they shared it with; a 404 for
    everyone else, the same as for a user who does not exist."""
    owner = get_user_model().objects.filter(username=username[:150]).first()
    if owner is None or not selectors.can_read_collection(owner=owner, viewer=request.user):
        raise Http404("No such collection.")
    return _page(request, owner, own=owner == request.user)


@login_required
@require_GET
def collection_export_file(request: HttpRequest, extension: str) -> HttpResponse:
    if extension not in EXPORTS:
        raise Http404("Export as .txt or .csv.")
    kind, media = EXPORTS[extension]
    game = request.GET.get("game") or None
    try:
        body = collection_export(owner=request.user, as_=kind, game=game)  # type: ignore[arg-type]
    except InputError as exc:
        return render(request, "limit.html", {"message": exc.message}, status=400)
    response = HttpResponse(body, content_type=f"{media}; charset=utf-8")
    name = f"collection{'-' + game if game else ''}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_POST
def collection_step(request: HttpRequest, short_id: str) -> HttpResponse:
    """+ or - one copy of a printing; then back to the page it was pressed on (with htmx,
    the buttons alone, redrawn)."""
    step = STEPS.get(request.POST.get("step", ""))
    if step is None:
        return render(request, "limit.html", {"message": "step must be 1 or -1."}, status=400)
    card = selectors.card_for_collection(short_id=short_id)
    if card is None:
        raise Http404("No such card.")
    quantity = collection_adjust(owner=signed_in(request), card=card, delta=step)
    back_to = request.POST.get("next", "")
    if (
        len(back_to) > MAX_NEXT_CHARS
        or not back_to.startswith("/")
        or not url_has_allowed_host_and_scheme(
            back_to, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        back_to = card.get_absolute_url()
    if request.headers.get("HX-Request"):
        compact = bool(request.POST.get("compact"))
        template = f"collection/_owned{'_compact' if compact else ''}.html"
        context = {"card": {"short_id": card.short_id}, "quantity": quantity, "next": back_to}
        return render(request, template, context)
    return HttpResponseRedirect(back_to)
