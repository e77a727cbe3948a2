"""How catalogue pages present themselves to search engines and link previews: each page's
meta description, canonical URL and, for a card, its Open Graph title and image (its face).

Only what the catalogue holds is said: a card's type line and rules text as stored (no type
is named where the rulebook gives none), and an unofficial sample says so first."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from cardsite.catalogue.faces import LANDSCAPE, PORTRAIT
from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.embeds import oembed_link
from cardsite.seo import DESCRIPTION_CHARS, PageMeta, absolute, trimmed

SAMPLE_CARD = "Unofficial sample card (made up, not from a rulebook)."
COMMUNITY_CARD = "Community-sourced: transcribed by players, with their sources."
SAMPLE_SET = "An unofficial sample set: every name and number in it is made up."


def type_line(card: Card) -> str:
    """The card's type and classifications as its page shows them, or "" without a type."""
    if card.card_type is None:
        return ""
    subtypes = ", ".join(s.name for s in card.subtypes.all())
    return f"{card.card_type.name} — {subtypes}" if subtypes else card.card_type.name


def card_meta(card: Card) -> PageMeta:
    line = type_line(card)
    parts = [SAMPLE_CARD] if card.is_sample else []
    if card.community:
        parts.append(COMMUNITY_CARD)
    if line:
        parts.append(f"{line}.")
    if card.rules_text.strip():
        parts.append(card.rules_text)
    else:
        parts.append(f"A {card.game.name} card, {card.card_set.name} #{card.number}.")
    width, height = LANDSCAPE if card.is_landscape else PORTRAIT
    canonical = absolute(card.get_absolute_url())
    return PageMeta(
        description=trimmed(" ".join(parts)),
        canonical=canonical,
        title=f"{card.name} · {card.game.name}",
        image=absolute(reverse("catalogue:card-face", args=[card.short_id])),
        image_width=width,
        image_height=height,
        image_alt=f"Card face of {card.name}",
        oembed=oembed_link(canonical),
    )


def home_meta(games: Iterable[Game]) -> PageMeta:
    names = ", ".join(game.name for game in games)
    return PageMeta(
        description=trimmed(
            f"Every card of {names}: rules text and stats from each rulebook, searchable, with "
            "public decklists, printable proxies and playtesting."
        ),
        canonical=absolute(reverse("catalogue:home")),
    )


def game_meta(game: Game) -> PageMeta:
    """`game` as game_get gives it: its sets already read, its cards counted (card_count)."""
    about = game.description
    # An annotation of game_get's query: an instance attribute the model does not declare.
    count: int = vars(game)["card_count"]
    # Kept whole however long the game's own description is.
    note = (
        " Includes an unofficial sample set."
        if any(not s.is_official for s in game.sets.all())
        else ""
    )
    text = (
        f"{game.name}: {count} cards, with the sets, deck formats and keywords the "
        f"rulebook gives. {about}"
    )
    return PageMeta(
        description=trimmed(text, DESCRIPTION_CHARS - len(note)) + note,
        canonical=absolute(game.get_absolute_url()),
    )


def set_meta(card_set: CardSet, card_count: int, page: int) -> PageMeta:
    # Kept whole, at the end, however long the set's name.
    note = f" {SAMPLE_SET}" if not card_set.is_official else ""
    text = (
        f"{card_set.name} ({card_set.code}), a {card_set.game.name} set of {card_count} cards: "
        "every card's type, stats and rules text."
    )
    path = reverse("catalogue:set", args=[card_set.game.slug, card_set.code])
    return PageMeta(
        description=trimmed(text, DESCRIPTION_CHARS - len(note)) + note,
        # Each page of a long set is its own page (the grid or list view is not): the view
        # and any other parameter are left out, the page number kept past the first.
        canonical=absolute(path if page <= 1 else f"{path}?page={page}"),
    )
