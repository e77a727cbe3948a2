"""A deck's tournament registration sheet, as a PDF: its latest version or the one asked for."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from cardsite.api.errors import as_form_error
from cardsite.limits import spend
from decks.exports.registration import RegistrationSheet, registration_pdf
from decks.history.pages import read_version
from decks.models import Deck
from decks.proxies import PAPERS
from decks.services.history import VersionNotFound
from decks.views.common import readable_or_404
from engines.errors import InputError

OPTIONS = ("paper", "version")


def _plain_400(message: str) -> HttpResponse:
    return HttpResponse(message + "\n", status=400, content_type="text/plain; charset=utf-8")


@require_safe
def deck_registration_pdf(request: HttpRequest, deck_id: str) -> HttpResponse:
    """`paper`: a4 (the default) or letter; `version`: a version number (the latest if not
    given). A bad option is a 400 naming it; a version never kept, a 404."""
    deck = readable_or_404(request, deck_id)
    for name in request.GET:
        if name not in OPTIONS:
            return _plain_400(
                f"Cannot print: {name[:40]}: unknown option; the options are {', '.join(OPTIONS)}"
            )
    paper = request.GET.get("paper", "a4").lower()
    if paper not in PAPERS:
        choices = " or ".join(PAPERS)
        return _plain_400(f"Cannot print: paper: must be {choices}, got {paper[:20]!r}")
    try:
        version = read_version(request.GET.get("version") or str(deck.version), "version")
    except InputError as exc:
        return _plain_400(f"Cannot print: version: {as_form_error(exc)}")
    if version > deck.version:
        raise Http404(f"This deck has no version {version} yet.")
    spend(request, "proxies")
    sheet = RegistrationSheet(deck=deck, version=version)
    try:
        pdf = registration_pdf(
            sheets=[sheet], paper=paper, base_url=request.build_absolute_uri("/")
        )
    except VersionNotFound as exc:
        raise Http404(f"Version {version} of this deck was never kept.") from exc
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{deck.share_key}-v{version}-registration-{paper}.pdf"'
    )
    private = deck.visibility == Deck.Visibility.PRIVATE
    patch_cache_control(response, **{"private" if private else "public": True}, max_age=300)
    return response
