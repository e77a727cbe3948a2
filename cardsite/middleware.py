"""Request hygiene that no single view can do for all of them."""

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse


class NulInPathIsNotFound:
    """A URL path carrying a NUL character names nothing here, but a view would look it up
    all the same, and PostgreSQL refuses a query holding one with an error (a 500). Answer
    404 before any view runs (JSON under /api/, via handler404)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            raise Http404("No page at a path with a NUL character.")
        return self.get_response(request)
