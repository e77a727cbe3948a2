"""The proxy sheet's form (paper, card size, bleed, gap, backs and the printer's back offset)
and its first page's preview."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from cardsite.api.errors import as_form_error
from cardsite.limits import spend
from decks.exports.preview import PREVIEW_DPI, preview_png
from decks.exports.printing import deck_order, options_for, order_cards
from decks.models import Deck
from decks.proxies import (
    MAX_BACK_OFFSET,
    MAX_BLEED,
    MAX_GAP,
    MAX_SHEET_CARDS,
    PAPERS,
    SIZES,
    SheetOptions,
    pages_for,
)
from decks.reading.selectors import saved_back_offsets
from decks.tts import tts_file_path
from decks.views.common import readable_or_404
from decks.views.proxy_pages import png_page_links, png_pages_url
from engines.errors import InputError

TIMES = "\N{MULTIPLICATION SIGN}"


def _paper_label(name: str, size: tuple[float, float]) -> str:
    return f"{name.capitalize()} ({size[0]:g} {TIMES} {size[1]:g} mm)"


def _size_label(name: str, size: tuple[float, float]) -> str:
    millimetres = f"{size[0]:g} {TIMES} {size[1]:g} mm"
    if name == f"{size[0]:g}x{size[1]:g}":
        return millimetres
    return f"{name.replace('x', f' {TIMES} ')} in ({millimetres})"


def _values(options: SheetOptions) -> dict[str, str]:
    """The options as parse_options reads them."""
    return {
        "paper": options.paper,
        "size": options.size,
        "bleed": f"{options.bleed:g}",
        "gap": f"{options.gap:g}",
        "backs": "1" if options.backs else "0",
        "back_offset_x": f"{options.back_offset_x:g}",
        "back_offset_y": f"{options.back_offset_y:g}",
    }


def _query(options: SheetOptions, saved: tuple[float, float]) -> str:
    """The options as a query string, leaving out what the sheet would take anyway: the
    defaults, and the user's saved offsets."""
    defaults = _values(SheetOptions(back_offset_x=saved[0], back_offset_y=saved[1]))
    return urlencode({k: v for k, v in _values(options).items() if v != defaults[k]})


@require_safe
def deck_proxies_form(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The sheet's options as a GET form that submits to the PDF, with the first page drawn
    beside it; a bad option is shown beside the form (a 400)."""
    deck = readable_or_404(request, deck_id)
    saved = saved_back_offsets(user=request.user)
    known = saved or (0.0, 0.0)
    context: dict[str, Any] = {
        "deck": deck,
        "saved": saved and dict(zip(("x", "y"), map("{:g}".format, saved), strict=True)),
        "max_offset": MAX_BACK_OFFSET,
        "papers": [(name, _paper_label(name, size)) for name, size in PAPERS.items()],
        "sizes": [(name, _size_label(name, size)) for name, size in SIZES.items()],
        "max_bleed": MAX_BLEED,
        "max_gap": MAX_GAP,
        "max_cards": MAX_SHEET_CARDS,
        "dpi": PREVIEW_DPI,
        # Playing on a virtual table is the other way to try a deck without its cards.
        "tts_url": tts_file_path(deck, timezone.now()),
    }
    status = 200
    try:
        options = options_for(request.GET, user=request.user)
        order = deck_order(deck, options)
    except InputError as exc:
        # The values as sent, so the one at fault can be corrected where it is.
        start = _values(SheetOptions(back_offset_x=known[0], back_offset_y=known[1]))
        sent = {k: request.GET.get(k, v)[:20] for k, v in start.items()}
        context.update(error=f"{exc.field}: {as_form_error(exc)}", values=sent)
        status = 400
    else:
        query = _query(options, known)
        cards = order_cards(order)
        paper_mm = PAPERS[options.paper]
        context.update(
            values=_values(options),
            preview_size=[round(mm / 25.4 * PREVIEW_DPI) for mm in paper_mm],
            cards=cards,
            pages=pages_for(cards),
            preview_url=_with(reverse("decks:proxies-preview", args=[deck.share_key]), query),
            pdf_url=_with(reverse("decks:proxies", args=[deck.share_key]), query),
            png_url=png_pages_url(deck),
            png_pages=png_page_links(
                deck, sheets=pages_for(cards), backs=options.backs, query=query
            ),
            # Offered to a signed-in user whose sheet's offsets are not the saved ones.
            unsaved=(options.back_offset_x, options.back_offset_y) != known,
        )
    return render(request, "decks/proxies.html", context, status=status)


def _with(url: str, query: str) -> str:
    return f"{url}?{query}" if query else url


@require_safe
def deck_proxies_preview(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The first page of the sheet as a PNG; a bad option or too large a sheet is a 400
    naming it, as for the PDF. Drawing one spends the PDF's budget; reading a drawn one is
    free, so trying options back and forth costs nothing."""
    deck = readable_or_404(request, deck_id)
    try:
        order = deck_order(deck, options_for(request.GET, user=request.user))
    except InputError as exc:
        return HttpResponse(
            f"Cannot preview: {exc.field}: {as_form_error(exc)}\n",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    png = preview_png(deck=deck, order=order, before_drawing=lambda: spend(request, "proxies"))
    response = HttpResponse(png, content_type="image/png")
    private = deck.visibility == Deck.Visibility.PRIVATE
    # One directive only: Django writes a False one out as "public=False".
    patch_cache_control(response, **{"private" if private else "public": True}, max_age=300)
    return response
