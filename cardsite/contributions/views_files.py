"""A curator's card file proposed whole: its page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from cardsite.accounts import signed_in
from cardsite.catalogue.models import Game
from cardsite.contributions import selectors
from cardsite.contributions.forms_files import posted_source
from cardsite.contributions.limits import MAX_BULK_BYTES, MAX_NOTE, MAX_SOURCE_TEXT, spend_proposal
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.files import file_propose
from cardsite.contributions.views import refused
from engines.errors import InputError


@login_required
@require_http_methods(["GET", "POST"])
def propose_file(request: HttpRequest, game: str) -> HttpResponse:
    the_game = get_object_or_404(Game, slug=game)
    if not selectors.is_curator(request.user, the_game.pk):
        return refused(
            request,
            f"A card file is proposed by a curator of {the_game.name}; players propose cards "
            "one at a time.",
            403,
            "Curators only",
        )
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise InputError("file", "choose the card file (CSV) to propose")
            spend_proposal(request)
            proposal = file_propose(
                curator=signed_in(request),
                game=the_game,
                upload=upload,
                source=posted_source(request.POST),
                note=request.POST.get("note", ""),
                email_me=bool(request.POST.get("email_me"))
                and bool(getattr(request.user, "email", "")),
            )
        except InputError as exc:
            errors[exc.field or "file"] = exc.message
            status = 400
        except PermissionDenied as exc:
            return refused(request, str(exc), 403, "Not yet")
        else:
            return HttpResponseRedirect(reverse("contributions:detail", args=[proposal.pk]))
    context = {
        "game": the_game,
        "errors": errors,
        "sources": Proposal.Source.choices,
        "posted": request.POST if request.method == "POST" else {},
        "max_note": MAX_NOTE,
        "max_source": MAX_SOURCE_TEXT,
        "max_file_mb": MAX_BULK_BYTES // (1024 * 1024),
    }
    return render(request, "contributions/propose_file.html", context, status=status)
