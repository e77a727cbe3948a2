"""One page of a deck's proxy sheet as a 300 dpi PNG, through the API."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from cardsite.limits import spend
from decks.api.proxies import SHEET_LIMIT, SHEET_PARAMETERS
from decks.exports.printing import deck_order, options_for
from decks.exports.sheet_pages import (
    PAGE_DIGITS,
    PAGE_DPI,
    page_count,
    page_pixels,
    parse_page,
    sheet_page_png,
)
from decks.models import Deck
from decks.reading.selectors import deck_for_reader

PAGE_HEADER = "X-Page-Count"


def _pixels(paper: str) -> str:
    return " \N{MULTIPLICATION SIGN} ".join(str(n) for n in page_pixels(paper)) + " px"


PAGES = (
    f"One page of the PDF (`proxies.pdf` with the same options) after its calibration page, "
    f"as a PNG at {PAGE_DPI} dpi with that resolution in the file (A4: {_pixels('a4')}, "
    f"Letter: {_pixels('letter')}). Without backs, page k is the k-th page of cards; with "
    "`backs=1`, page 2k-1 is the k-th page of cards and page 2k its backs. "
    f"`{PAGE_HEADER}` gives the number of pages. Only drawing a page spends the `proxies` "
    "budget; a page drawn before is read from its file. " + SHEET_LIMIT
)


class DeckProxyPageView(APIView):
    """GET /api/v1/decks/{id}/proxies.png?page=N: one page of the deck's proxies as a PNG."""

    # Reading a page drawn before costs next to nothing; drawing one spends the `proxies`
    # budget (below), as the proxy preview does.
    throttle_scope = "read"
    permission_classes = [AllowAny]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The PNG bypasses renderers; errors must still be JSON even for Accept: image/png.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        summary="One page of a deck's proxies, as a 300 dpi PNG",
        description=PAGES,
        parameters=[
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1, "maximum": 10**PAGE_DIGITS - 1},
                description=f"1 (default) to the page count given in `{PAGE_HEADER}`; past it "
                "is a 400 naming `page` and the count.",
            ),
            *SHEET_PARAMETERS,
            OpenApiParameter(
                PAGE_HEADER,
                int,
                location=OpenApiParameter.HEADER,
                response=[200],
                description="How many pages the sheet has with these options.",
            ),
        ],
        responses={
            (200, "image/png"): OpenApiResponse(
                OpenApiTypes.BINARY, description=f"The page, a PNG at {PAGE_DPI} dpi."
            )
        },
    )
    def get(self, request: Request, id: str) -> HttpResponse:
        deck = deck_for_reader(deck_id=id, user=request.user)
        if deck is None:
            raise NotFound("No deck with that id, or it is private.")
        # `page` is this view's; parse_options refuses any name it does not know.
        options = options_for(
            {k: v for k, v in request.query_params.items() if k != "page"}, user=request.user
        )
        order = deck_order(deck, options)
        count = page_count(order)
        page = parse_page(request.query_params.get("page"), count)
        png = sheet_page_png(
            deck=deck, order=order, page=page, before_drawing=lambda: spend(request, "proxies")
        )
        response = HttpResponse(png, content_type="image/png")
        response["Content-Disposition"] = f'inline; filename="{deck.share_key}-page-{page}.png"'
        response[PAGE_HEADER] = str(count)
        private = deck.visibility == Deck.Visibility.PRIVATE
        # One directive only: Django writes a False one out as "public=False".
        patch_cache_control(response, **{"private" if private else "public": True}, max_age=300)
        return response
