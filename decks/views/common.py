"""What several deck pages share: finding the deck, its exports, and reading the version a
form was built from."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone

from decks.exports.text import deck_code, deck_text
from decks.history.pages import versions_kept
from decks.history.variants import variant_count
from decks.models import Deck
from decks.reading.selectors import deck_for_reader
from decks.services import ResolvedDeck, intake_deck, resolve
from decks.tts import tts_file_path
from decks.tts.links import LINK_HOURS


def readable_or_404(request: HttpRequest, deck_id: str) -> Deck:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    return deck


def owned_or_404(request: HttpRequest, deck_id: str) -> Deck:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None or deck.owner_id != request.user.id:
        raise Http404("No deck of yours with that id.")
    return deck


def export_context(deck: Deck, resolved: ResolvedDeck | None = None) -> dict[str, Any]:
    """What decks/_export.html shows: the text and the code to copy, and the files. Pass the
    deck as the page already resolved it, or it is resolved here."""
    resolved = resolved or resolve(game=deck.game.slug, intake=intake_deck(deck))
    return {
        "export": {
            "text": deck_text(deck, resolved),
            "code": deck_code(deck, resolved),
            "txt_url": reverse("decks:export-file", args=[deck.share_key, "txt"]),
            "cod_url": reverse("decks:export-file", args=[deck.share_key, "cod"]),
            "json_url": reverse("decks:export-file", args=[deck.share_key, "json"]),
            # Signed for a private deck: the file's sheet links must work outside the site.
            "tts_url": tts_file_path(deck, timezone.now()),
            "tts_hours": LINK_HOURS,
        }
    }


def tabs_context(request: HttpRequest, deck: Deck, kept: int | None = None) -> dict[str, Any]:
    """The numbers on a deck's tabs (decks/_tabs.html): two queries, or one when the page
    already counted the versions."""
    return {
        "versions_kept": versions_kept(deck) if kept is None else kept,
        "variant_count": variant_count(deck, request.user),
    }


def ascii_number(raw: str | None, most_digits: int) -> int | None:
    """`raw` as a whole number of at most `most_digits` ASCII digits, else None. ASCII only:
    str.isdigit() also takes "²", which int() refuses."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= most_digits:
        return int(raw)
    return None


def version_in(request: HttpRequest) -> int | None:
    """The deck version a form was built from: None when absent, and -1 (a version no deck
    has, so the write is refused as stale) when it is not a version number."""
    raw = request.POST.get("version", "")
    if not raw:
        return None
    number = ascii_number(raw, 9)
    return -1 if number is None else number
