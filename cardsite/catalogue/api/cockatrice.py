"""A game's Cockatrice card database as the API answers it: an XML attachment, validated as
the bulk downloads are (an ETag of the catalogue's version, public but revalidated), so a
reader holding the current file gets a 304 and no query for the cards."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.cache import get_conditional_response

from cardsite.catalogue.cockatrice import card_database
from cardsite.catalogue.models import Game
from cardsite.catalogue.versioning import catalogue_version

EXPORT_AS = ("cockatrice",)
CONTENT_TYPE = "application/xml; charset=utf-8"


def cockatrice_response(request: HttpRequest, game: Game) -> HttpResponseBase:
    # The site's address is part of it: every picurl in the file is absolute.
    seed = f"{catalogue_version()}|{game.slug}|{request.build_absolute_uri('/')}"
    etag = f'"cockatrice-{hashlib.sha256(seed.encode()).hexdigest()[:32]}"'
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        return unchanged
    body = card_database(
        game=game,
        face_url=lambda short_id: request.build_absolute_uri(
            reverse("catalogue:card-face", args=[short_id])
        ),
        source_url=request.build_absolute_uri(game.get_absolute_url()),
    )
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{game.slug}-cockatrice.xml"'
    response["ETag"] = etag
    # Public, but revalidated: an approval changes the catalogue's version, so the ETag.
    response["Cache-Control"] = "public, max-age=0, must-revalidate"
    return response
