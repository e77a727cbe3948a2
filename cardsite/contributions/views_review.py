"""A proposal's page and its photo, the curators' review queue, and their approve and reject
buttons. Every read goes through proposal_get: a proposal is its proposer's and its game's
curators', and a 404 to anybody else."""

from __future__ import annotations

import mimetypes
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from cardsite.accounts import signed_in
from cardsite.catalogue.services.edits import field_labels
from cardsite.contributions import forms, selectors
from cardsite.contributions.diffs import proposal_diff
from cardsite.contributions.limits import MAX_REASON
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.proposals import (
    ProposalClosed,
    StaleField,
    StaleProposal,
    proposal_approve,
    proposal_reject,
    stale_fields,
)
from cardsite.contributions.views import page_of, refused
from engines.errors import InputError

# The kinds whose proposed values a curator may edit before approving: plain card fields.
EDITABLE = {Proposal.Kind.CARD, Proposal.Kind.EDIT}
MAX_AGE_DAYS = 3650


def _visible(request: HttpRequest, pk: int) -> Proposal:
    proposal = selectors.proposal_get(user=request.user, pk=pk)
    if proposal is None:
        raise Http404("No such proposal.")
    return proposal


def _edits_posted(proposal: Proposal, data: Any) -> dict[str, str]:
    """The proposed values a curator changed before approving (`c-<field>`)."""
    edits: dict[str, str] = {}
    for name, value in proposal.changes.items():
        key = forms.PREFIX + name
        if key in data and data[key].strip() != forms.shown(value).strip():
            edits[name] = data[key].replace("\r\n", "\n")
    return edits


def _detail(
    request: HttpRequest,
    proposal: Proposal,
    *,
    status: int = 200,
    stale: list[StaleField] | None = None,
    errors: dict[str, str] | None = None,
) -> HttpResponse:
    reviewing = (
        proposal.status == Proposal.Status.OPEN
        and proposal.proposer_id != request.user.pk
        and selectors.is_curator(request.user, proposal.game_id)
    )
    labels = field_labels(proposal.game.engine)
    editable = (
        [
            (
                forms.PREFIX + name,
                labels.get(name, name),
                forms.shown(request.POST.get(forms.PREFIX + name, value)),
            )
            for name, value in proposal.changes.items()
        ]
        if reviewing and proposal.kind in EDITABLE
        else []
    )
    context = {
        "proposal": proposal,
        "diff": [
            (line.label, forms.shown(line.before), forms.shown(line.after))
            for line in proposal_diff(proposal)
        ],
        "reviewing": reviewing,
        "editable": editable,
        "stale": [
            (s, forms.shown(s.then), forms.shown(s.now), forms.shown(s.proposed))
            for s in stale or []
        ],
        "carried": [(k, v) for k, v in request.POST.items() if k.startswith(forms.PREFIX)],
        "errors": errors or {},
        "max_reason": MAX_REASON,
    }
    return render(request, "contributions/proposal.html", context, status=status)


@login_required
@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail(request, _visible(request, pk))


@login_required
@require_GET
def photo(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The proposal's photo, to whoever may read the proposal, and never kept by a shared
    cache: until it is approved it is private."""
    proposal = _visible(request, pk)
    if not proposal.photo:
        raise Http404("This proposal has no photo.")
    kind = mimetypes.guess_type(proposal.photo.name)[0] or "application/octet-stream"
    response = FileResponse(proposal.photo.open("rb"), content_type=kind)
    response["Cache-Control"] = "private, max-age=3600"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _back(request: HttpRequest, proposal: Proposal) -> HttpResponseRedirect:
    target = request.POST.get("next", "")[:2000]
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(reverse("contributions:detail", args=[proposal.pk]))


def _review_refused(request: HttpRequest, exc: Exception) -> HttpResponse:
    if isinstance(exc, ProposalClosed):
        return refused(request, str(exc), 409, "Already reviewed")
    return refused(request, str(exc), 403, "Not yours to review")


@login_required
@require_POST
def approve(request: HttpRequest, pk: int) -> HttpResponse:
    """Approve, with the curator's edits and, for a stale proposal, their choice per field."""
    proposal = _visible(request, pk)
    resolve = {
        key.removeprefix("resolve-"): str(value)[:10]
        for key, value in request.POST.items()
        if key.startswith("resolve-")
    }
    try:
        proposal_approve(
            proposal=proposal,
            reviewer=signed_in(request),
            edits=_edits_posted(proposal, request.POST),
            resolve=resolve,
        )
    except StaleProposal as exc:
        return _detail(request, proposal, status=409, stale=exc.fields)
    except InputError as exc:
        return _detail(request, proposal, status=400, errors={exc.field: exc.message})
    except (PermissionDenied, ProposalClosed) as exc:
        return _review_refused(request, exc)
    return _back(request, proposal)


@login_required
@require_POST
def reject(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = _visible(request, pk)
    try:
        proposal_reject(
            proposal=proposal, reviewer=signed_in(request), reason=request.POST.get("reason", "")
        )
    except InputError as exc:
        return _detail(request, proposal, status=400, errors={exc.field: exc.message})
    except (PermissionDenied, ProposalClosed) as exc:
        return _review_refused(request, exc)
    return _back(request, proposal)


def _days(text: str) -> int:
    text = text.strip()[:5]
    return min(int(text), MAX_AGE_DAYS) if text.isdigit() else 0


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    """The open proposals of the curator's games, filtered by game, kind and age."""
    games = selectors.curated_games(request.user)
    if not games:
        return refused(
            request,
            "The review queue is for curators: a game's curators are named by the site's "
            "admins, from the players who know the game's cards.",
            403,
            "Curators only",
        )
    game = request.GET.get("game", "")[:50]
    kind = request.GET.get("kind", "")[:10]
    kind = kind if kind in Proposal.Kind.values else ""
    order = "newest" if request.GET.get("order") == "newest" else "oldest"
    days = _days(request.GET.get("days", ""))
    filters = {"game": game, "kind": kind, "order": order, "days": days}
    proposals = selectors.review_queue(
        curator=request.user,
        game=game,
        kind=kind,
        oldest_first=order == "oldest",
        older_than_days=days,
    )
    page = page_of(request, proposals)
    rows = [(p, bool(stale_fields(p, p.changes))) for p in page.object_list]
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "games": games,
        "kinds": [k for k in Proposal.Kind.choices],
        "filters": filters,
        "page": page,
        "rows": rows,
        "query": query.urlencode(),
        "here": request.get_full_path(),
        "max_reason": MAX_REASON,
    }
    return render(request, "contributions/queue.html", context)
