"""The proxy form's links to each page of the sheet as a 300 dpi PNG (the API's proxies.png)."""

from __future__ import annotations

from typing import NamedTuple

from django.urls import reverse

from decks.models import Deck


class PageLink(NamedTuple):
    number: int
    label: str
    url: str


def png_pages_url(deck: Deck) -> str:
    return reverse("v1:deck-proxy-page", args=[deck.share_key])


def png_page_links(deck: Deck, *, sheets: int, backs: bool, query: str) -> list[PageLink]:
    """A link to every page after the PDF's calibration page (and its blank back), each
    carrying the form's options (`query`, as the PDF's link has them); with backs, pages
    alternate front, back."""
    base = png_pages_url(deck)
    extra = f"&{query}" if query else ""
    count = sheets * 2 if backs else sheets
    links = []
    for number in range(1, count + 1):
        label = f"{number} {'back' if number % 2 == 0 else 'front'}" if backs else str(number)
        links.append(PageLink(number, label, f"{base}?page={number}{extra}"))
    return links
