"""A deck's exports as files to download: its decklist text, its JSON and its Cockatrice
`.cod`."""

from __future__ import annotations

import json
from urllib.parse import quote

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from decks.exports.cockatrice import deck_cod
from decks.exports.text import deck_export, export_filename
from decks.views.common import readable_or_404

TYPES = {
    "txt": "text/plain; charset=utf-8",
    "json": "application/json",
    "cod": "application/xml; charset=utf-8",
}


@require_safe
def deck_export_file(request: HttpRequest, deck_id: str, extension: str) -> HttpResponse:
    if extension not in TYPES:
        raise Http404("Exports are .txt, .json and .cod.")
    deck = readable_or_404(request, deck_id)
    if extension == "cod":
        body = deck_cod(deck, source_url=request.build_absolute_uri(deck.get_absolute_url()))
    elif extension == "txt":
        body = deck_export(deck, "text")["text"].encode("utf-8")
    else:
        text = json.dumps(deck_export(deck, "json"), indent=2, ensure_ascii=False) + "\n"
        body = text.encode("utf-8")
    response = HttpResponse(body, content_type=TYPES[extension])
    response["Content-Disposition"] = attachment(*export_filename(deck, extension))
    # A private deck's list is its owner's: no shared cache may keep it.
    response["Cache-Control"] = "private, no-cache"
    return response


def attachment(ascii_name: str, unicode_name: str) -> str:
    """Content-Disposition for a download: a plain ASCII filename every client reads, and
    RFC 6266's filename* with the name's own letters where they differ."""
    header = f'attachment; filename="{ascii_name}"'
    if unicode_name != ascii_name:
        header += f"; filename*=UTF-8''{quote(unicode_name, safe='')}"
    return header
