"""Uploaded card art, served by the site itself under every settings.

Whitenoise serves only static files and Django's `static()` helper serves media only with
DEBUG on, so without this view every art URL is a 404 in production. Only a file some card
names as its art is served: the rest of media/ (job results, cached faces, print copies)
stays private, whatever its name.
"""

from __future__ import annotations

import mimetypes

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from cardsite.catalogue.models import Card

# A stored name is never reused for other content (the storage adds a suffix to a taken
# name, and replaced art keeps its own file), so a browser may keep the file for a year.
ART_MAX_AGE = 365 * 24 * 60 * 60
ART_FOLDER = "art/"


@require_safe
def card_art(request: HttpRequest, name: str) -> FileResponse:
    stored = ART_FOLDER + name
    content_type, _ = mimetypes.guess_type(name)
    if not (content_type or "").startswith("image/"):
        raise Http404("Not card art.")
    if not Card.objects.filter(art=stored).exists():
        raise Http404("No card has this art.")
    try:
        handle = default_storage.open(stored, "rb")
    except FileNotFoundError:
        raise Http404("The art file is missing.") from None
    response = FileResponse(handle, content_type=content_type)
    patch_cache_control(response, public=True, max_age=ART_MAX_AGE, immutable=True)
    return response
