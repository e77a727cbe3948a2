from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response


class StablePagination(PageNumberPagination):
    """count/next/previous/results pages.

    Every list view orders by a unique key, so pages never overlap or skip.
    """

    page_size_query_param = "page_size"
    max_page_size = 200


class SearchPagination(StablePagination):
    """A page of search results, with what the query could not use and names it might have meant."""

    def get_paginated_response(
        self, data: Any, warnings: list[str] | None = None, suggestions: list[str] | None = None
    ) -> Response:
        response = super().get_paginated_response(data)
        response.data["warnings"] = warnings or []
        response.data["suggestions"] = suggestions or []
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        paginated["properties"]["warnings"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Terms of the query that were ignored, and why.",
        }
        paginated["properties"]["suggestions"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Card names close to the query's words, when nothing matched.",
        }
        return paginated
