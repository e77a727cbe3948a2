from rest_framework.pagination import PageNumberPagination


class StablePagination(PageNumberPagination):
    """count/next/previous/results pages.

    Every list view orders by a unique key, so pages never overlap or skip.
    """

    page_size_query_param = "page_size"
    max_page_size = 200
