"""Request hygiene that no single view can do for all of them."""

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse

from cardsite.api.errors import json_or_html_404
from cardsite.api.parsers import BAD_TEXT, bad_text_message


class NulInPathIsNotFound:
    """A URL path carrying a NUL character names nothing here, but a view would look it up
    all the same, and PostgreSQL refuses a query holding one with an error (a 500). Answer
    404 before any view runs (JSON under /api/). Answered, not raised: with DEBUG on, a raised
    Http404 would be Django's HTML debug page even under /api/."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            return json_or_html_404(request, Http404("No page at a path with a NUL character."))
        return self.get_response(request)


class BodyTooLarge:
    """A body past DATA_UPLOAD_MAX_MEMORY_SIZE is a 413 naming the limit, before anything
    reads it. Django would raise RequestDataTooBig where the body is first read, which it
    answers with its bare HTML 400, even under /api/. A multipart body's files do not count
    towards the limit (the art and CSV uploads have their own), only its other fields, which
    Django counts as it parses them: that RequestDataTooBig is answered as the 413 too, where a
    page's form is first read (TextHygiene, next, reads it) or where an API view's parser does."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MAX_UPLOAD_BODY:
            # Files and all: refused before Django spools a single byte of them to disk.
            return _too_large(
                request, f" with its files; this one is {length:,}", settings.MAX_UPLOAD_BODY
            )
        if limit is None or length <= limit:
            return self.get_response(request)
        if request.content_type != "multipart/form-data":
            return _too_large(request, f"; this one is {length:,}")
        if not request.path.startswith("/api/"):
            # Read here rather than in TextHygiene, whose RequestDataTooBig would be a 400.
            try:
                request.POST  # noqa: B018 - parsed now, kept on the request for the view
            except RequestDataTooBig:
                return _too_large(request, _FIELDS)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # An API view's multipart parser, past the limit in a form's fields.
        if isinstance(exception, RequestDataTooBig):
            return _too_large(request, _FIELDS)
        return None


_FIELDS = ", files aside; this one's other fields are more"


def _too_large(request: HttpRequest, said: str, limit: int | None = None) -> HttpResponse:
    limit = limit if limit is not None else settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = f"A request body is at most {limit:,} bytes{said}."
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "too_large", "detail": message}, status=413)
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


class TextHygiene:
    """A query string or form holding a NUL character is refused with a 400 before any view
    runs: PostgreSQL cannot store or even compare such text (a 500 there, a quiet no-match on
    SQLite), so no view should see it. API bodies are checked by the API's parsers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        fields = [request.GET]
        forms = ("application/x-www-form-urlencoded", "multipart/form-data")
        if not request.path.startswith("/api/") and request.content_type in forms:
            fields.append(request.POST)
        for data in fields:
            for key, values in data.lists():
                if BAD_TEXT.search(key) or any(BAD_TEXT.search(v) for v in values):
                    return _refused(request, key)
        return self.get_response(request)


def _refused(request: HttpRequest, key: str) -> HttpResponse:
    message = bad_text_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "invalid", "detail": message}, status=400)
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
