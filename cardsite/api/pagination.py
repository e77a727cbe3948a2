from collections.abc import Sequence
from typing import Any

from django.core.paginator import Paginator
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class StablePagination(PageNumberPagination):
    """count/next/previous/results pages.

    Every list view orders by a unique key, so pages never overlap or skip. `page` and
    `page_size` are held to the schema: a value that is not a whole number in range is a 400
    naming it (DRF would quietly fall back to the first page or the default size, so a client's
    typo read as a different request); a page past the last one is a 404.
    """

    page_size_query_param = "page_size"
    max_page_size = 200
    page_size_query_description = f"Results per page, 1 to {max_page_size}."
    # No ?page=last: the schema says a page is a number.
    last_page_strings = ()
    # Far past any list's last page (a 404), but short enough to read: int() refuses a run of
    # more than 4,300 digits with an error, a 500.
    max_page = 1_000_000_000

    def get_page_size(self, request: Request) -> int:
        return self._whole_number(
            request, self.page_size_query_param, self.page_size, self.max_page_size
        )

    def get_page_number(self, request: Request, paginator: Paginator) -> int:
        return self._whole_number(request, self.page_query_param, 1, self.max_page)

    def _whole_number(self, request: Request, name: str, default: int, most: int) -> int:
        values = request.query_params.getlist(name)
        if not values:
            return default
        # One value only: with two, which one would count is an accident of the framework.
        raw = values[-1] if len(values) == 1 else ""
        digits = raw.isascii() and raw.isdigit() and len(raw) <= len(str(most))
        if not digits or not 1 <= int(raw) <= most:
            shown = raw if len(raw) <= 40 else f"{raw[:40]}…"
            raise ValidationError(
                {name: [f"Must be one whole number from 1 to {most:,}, got {shown!r}."]}
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            parameter["schema"]["maximum"] = (
                self.max_page_size
                if parameter["name"] == self.page_size_query_param
                else self.max_page
            )
        return parameters


class SearchPagination(StablePagination):
    """A page of search results, with what the query could not use and names it might have meant."""

    def get_paginated_response(
        self, data: Any, warnings: Sequence[Any] = (), suggestions: list[str] | None = None
    ) -> Response:
        response = super().get_paginated_response(data)
        response.data["warnings"] = [str(w) for w in warnings]
        response.data["dropped"] = [w.as_json() for w in warnings]
        response.data["suggestions"] = suggestions or []
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        paginated["properties"]["warnings"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Terms of the query that were ignored, and why, as sentences.",
        }
        nullable_string = {"type": "string", "nullable": True}
        paginated["properties"]["dropped"] = {
            "type": "array",
            "description": "The same terms, one object each: the term as typed, where it "
            "starts in `q`, why it was ignored, and the nearest valid term with `q` rewritten "
            "to use it (null when nothing valid is near).",
            "items": {
                "type": "object",
                "properties": {
                    "term": {"type": "string"},
                    "position": {"type": "integer"},
                    "reason": {"type": "string"},
                    "suggestion": nullable_string,
                    "query": nullable_string,
                },
                "required": ["term", "position", "reason", "suggestion", "query"],
            },
        }
        paginated["properties"]["suggestions"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Card names close to the query's words, when nothing matched.",
        }
        return paginated
