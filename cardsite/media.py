"""Uploaded and rendered files under MEDIA_URL, served by Django itself only with DEBUG on
(`make run`); a production front server serves MEDIA_ROOT, and must leave out jobs/ too.

Job results are private: only the job's owner may read them, through the job result views,
which check. So are a deck's pictures (decks/exports/images.py), which show a private deck's cards
to nobody but its owner. So nothing under those folders is served here, however the path is
spelled."""

import posixpath
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.utils._os import safe_join
from django.views.static import serve

from decks.exports.images import FOLDER as DECK_IMAGES
from decks.models import Job

PRIVATE_FOLDERS = (str(Job._meta.get_field("result").upload_to).strip("/"), DECK_IMAGES)


def _private(path: str) -> bool:
    """Whether `path`, read as django.views.static.serve reads it, names anything in a private
    folder (or outside MEDIA_ROOT); symbolic links are followed."""
    root = Path(settings.MEDIA_ROOT).resolve()
    try:
        wanted = Path(safe_join(root, posixpath.normpath(path).lstrip("/"))).resolve()
    except (SuspiciousFileOperation, ValueError):
        return True
    return any(
        wanted == root / folder or (root / folder) in wanted.parents for folder in PRIVATE_FOLDERS
    )


def media_file(request: HttpRequest, path: str) -> HttpResponseBase:
    if not settings.DEBUG or _private(path):
        raise Http404("No such file.")
    return serve(request, path, document_root=settings.MEDIA_ROOT)
