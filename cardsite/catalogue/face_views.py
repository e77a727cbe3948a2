"""Generated card images: a card's face (drawn once per version of the card) and a game's back."""

from __future__ import annotations

from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
)
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags

from cardsite.catalogue import selectors
from cardsite.catalogue.faces import face_file
from cardsite.catalogue.faces.back import back_file
from cardsite.limits import spend

# The URL stays the same when a card is edited, so browsers revalidate (cheaply, by ETag)
# after an hour rather than keep a stale face for long.
MAX_AGE = 60 * 60


def card_face(request: HttpRequest, short_id: str) -> HttpResponseBase:
    card = selectors.card_get(short_id=short_id.lower())
    if card is None:
        raise Http404(f"No card {short_id!r}.")
    # Drawing a face spends the client's face budget; reading a drawn one is free.
    path = face_file(card, before_drawing=lambda: spend(request, "faces"))
    # The file is named <short_id>-<version>.png, so its name carries the version.
    etag = f'"{path.stem.rsplit("-", 1)[-1]}"'
    wanted = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in wanted or "*" in wanted:
        response: HttpResponseBase = HttpResponseNotModified()
    else:
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            # Another request re-drew an edited card and removed this version meanwhile.
            path = face_file(card, before_drawing=lambda: spend(request, "faces"))
            etag = f'"{path.stem.rsplit("-", 1)[-1]}"'
            handle = path.open("rb")
        response = FileResponse(handle, content_type="image/png")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response


def game_back(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The game's card back (`?landscape=1`: turned for landscape cards), as a PNG."""
    landscape = request.GET.get("landscape", "0")
    if landscape not in ("0", "1"):
        return HttpResponse(
            "landscape: must be 0 or 1\n", status=400, content_type="text/plain; charset=utf-8"
        )
    if selectors.game_get(slug=slug) is None:
        raise Http404(f"No game {slug!r}.")
    try:
        path = back_file(
            slug, landscape=landscape == "1", before_drawing=lambda: spend(request, "images")
        )
    except KeyError:
        raise Http404(f"No game {slug!r}.") from None
    etag = f'"{path.stem.rsplit("-", 1)[-1]}"'
    wanted = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in wanted or "*" in wanted:
        response: HttpResponseBase = HttpResponseNotModified()
    else:
        response = HttpResponse(path.read_bytes(), content_type="image/png")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response
