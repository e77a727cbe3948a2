"""A user's printer (the back offsets saved once for every sheet) and the duplex calibration
sheet that measures them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_safe

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from cardsite.limits import spend
from cardsite.theme import MAX_NEXT_CHARS
from decks.proxies import MAX_BACK_OFFSET, PAPERS, back_offset, calibration_sheet
from decks.reading.selectors import saved_back_offsets
from decks.services.printing import print_profile_set
from engines.errors import InputError

OFFSETS = ("back_offset_x", "back_offset_y")


def _plain_400(message: str) -> HttpResponse:
    return HttpResponse(message + "\n", status=400, content_type="text/plain; charset=utf-8")


@require_safe
def calibration_pdf(request: HttpRequest) -> HttpResponse:
    """The two-page duplex calibration sheet; `paper` is a4 (the default) or letter. The same
    for everyone and never shifted by a saved offset, so it is drawn once per paper."""
    for name in request.GET:
        if name != "paper":
            return _plain_400(f"Cannot print: {name[:40]}: unknown option; the option is paper")
    paper = request.GET.get("paper", "a4").lower()
    if paper not in PAPERS:
        return _plain_400(f"Cannot print: paper: must be a4 or letter, got {paper[:20]!r}")
    printing_url = settings.SITE_URL + reverse("decks:printing")
    # Drawing it spends the pictures budget; the sheet once drawn is free.
    pdf = calibration_sheet(paper, printing_url, before_drawing=lambda: spend(request, "images"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="calibration-{paper}.pdf"'
    patch_cache_control(response, public=True, max_age=86400)
    return response


def _back_to(request: HttpRequest) -> str:
    """Where a save returns: the page that sent it (a path on this site), else this page."""
    back_to = request.POST.get("next", "")
    if (
        len(back_to) <= MAX_NEXT_CHARS
        and back_to.startswith("/")
        and url_has_allowed_host_and_scheme(
            back_to, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return back_to
    return reverse("decks:printing")


def _shown(value: float) -> str:
    return f"{value:g}"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def printing_profile(request: HttpRequest) -> HttpResponse:
    """The two back offsets, saved once for every proxy sheet the user prints after."""
    saved = saved_back_offsets(user=request.user) or (0.0, 0.0)
    context: dict[str, Any] = {
        "values": dict(zip(OFFSETS, map(_shown, saved), strict=True)),
        "max_offset": MAX_BACK_OFFSET,
        "papers": list(PAPERS),
    }
    if request.method != "POST":
        return render(request, "decks/printing.html", context)
    try:
        x, y = (back_offset(request.POST.get(name, ""), name) for name in OFFSETS)
        print_profile_set(user=signed_in(request), back_offset_x=x, back_offset_y=y)
    except InputError as exc:
        context.update(
            error=f"{exc.field}: {as_form_error(exc)}",
            values={name: request.POST.get(name, "")[:20] for name in OFFSETS},
        )
        return render(request, "decks/printing.html", context, status=400)
    messages.success(
        request,
        f"Saved: backs are shifted for a printer offset of x {_shown(x)} mm, y {_shown(y)} mm "
        "on every proxy sheet you print.",
    )
    return HttpResponseRedirect(_back_to(request))
