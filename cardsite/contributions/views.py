"""A player's pages: the propose form, their own proposals, and their notifications."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from cardsite.accounts import signed_in
from cardsite.catalogue.models import Card, Game
from cardsite.contributions import forms, selectors
from cardsite.contributions.limits import MAX_NOTE, MAX_PHOTO_BYTES, MAX_SOURCE_TEXT, spend_proposal
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.notify import notifications_read
from cardsite.contributions.services.proposals import SourceInput, proposal_create
from engines.errors import InputError

PAGE_SIZE = 50
KIND_WORDS = {
    "card": "Propose a card",
    "edit": "Propose a change",
    "ruling": "Add a ruling",
    "erratum": "Add an erratum",
    "image": "Add a photo of the card",
    "set": "Propose a set",
}


def refused(request: HttpRequest, message: str, status: int, title: str) -> HttpResponse:
    """A short page saying why the request was refused (403, 404 or 409)."""
    context = {"message": message, "title": title}
    return render(request, "contributions/refused.html", context, status=status)


def page_of(request: HttpRequest, items: Any, size: int = PAGE_SIZE) -> Page:
    return Paginator(items, size).get_page(request.GET.get("page", "1")[:8])


@login_required
@require_http_methods(["GET", "POST"])
def propose(request: HttpRequest, game: str) -> HttpResponse:
    """The form of one kind of proposal; a post stores it, or shows the refusal beside the
    field it names."""
    the_game = get_object_or_404(Game, slug=game)
    kind = request.GET.get("kind", "card")[:10]
    if kind not in KIND_WORDS:
        kind = "card"
    card: Card | None = None
    short_id = request.GET.get("card", "")[:12]
    # A new card or set is about no card yet, whatever the link carried.
    if short_id and forms.about_a_card(kind):
        card = get_object_or_404(Card, short_id=short_id, game=the_game)
    if forms.about_a_card(kind) and card is None:
        raise Http404("This kind of proposal is about a card: open it from the card's page.")
    initial = {"set": request.GET.get("set", "")[:20]} if kind == "card" else None
    fields = forms.propose_fields(game=the_game, kind=kind, card=card, initial=initial)
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        changes = forms.posted_changes(kind=kind, fields=fields, data=request.POST)
        for f in fields:
            f.value = request.POST.get(f.input_name, "")
        try:
            spend_proposal(request)
            proposal = proposal_create(
                proposer=signed_in(request),
                game=the_game,
                kind=kind,
                card=card,
                changes=changes,
                source=SourceInput(
                    kind=request.POST.get("source_kind", "")[:20],
                    text=request.POST.get("source_text", ""),
                    url=request.POST.get("source_url", ""),
                ),
                note=request.POST.get("note", ""),
                photo=request.FILES.get("photo"),
                email_me=bool(request.POST.get("email_me"))
                and bool(getattr(request.user, "email", "")),
            )
        except InputError as exc:
            errors[exc.field if exc.field else "changes"] = exc.message
            status = 400
        except PermissionDenied as exc:
            return refused(request, str(exc), 403, "Not yet")
        else:
            return HttpResponseRedirect(reverse("contributions:detail", args=[proposal.pk]))
    known = {f.name for f in fields} | {"source", "photo", "note"}
    context = {
        "game": the_game,
        "card": card,
        "kind": kind,
        "heading": KIND_WORDS[kind],
        "fields": fields,
        "errors": errors,
        # A refusal naming no field on the form (`changes`, `card`...) shows above it.
        "general_errors": {k: v for k, v in errors.items() if k not in known},
        "sources": Proposal.Source.choices,
        "posted": request.POST if request.method == "POST" else {},
        "max_note": MAX_NOTE,
        "max_source": MAX_SOURCE_TEXT,
        "max_photo_mb": MAX_PHOTO_BYTES // (1024 * 1024),
    }
    return render(request, "contributions/propose.html", context, status=status)


@login_required
@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    page = page_of(request, selectors.proposals_of(user=request.user))
    return render(request, "contributions/mine.html", {"page": page})


@login_required
@require_GET
def notifications(request: HttpRequest) -> HttpResponse:
    """The user's notices, newest first; seeing them marks them read."""
    page = page_of(request, selectors.notifications_of(user=request.user))
    notices = list(page.object_list)
    notifications_read(user=signed_in(request))
    return render(request, "contributions/notifications.html", {"page": page, "notices": notices})
