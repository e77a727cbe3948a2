"""A deck's description as safe HTML: CommonMark, with `[[Card Name]]` linking to the card.

Two layers keep hostile text harmless: markdown-it-py never passes raw HTML through (it is
escaped, and it refuses javascript: and data: links), and nh3 then keeps only an allow-list
of tags and attributes whatever markdown-it produced. Headings drop two levels (a deck page
already has its h1 and h2s) and images are off: a description shows no pictures from
elsewhere. Card names are looked up in the game's snapshot, in memory, and only the first
MAX_CARD_LINKS of them, so a description full of brackets costs no more than a short one.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import nh3
from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from cardsite.cardlists.snapshot import GameSnapshot, SnapCard, game_snapshot
from cardsite.catalogue.versioning import catalogue_version
from cardsite.seo import trimmed
from decks.models import Deck
from decks.services.write import DESCRIPTION_MAX
from engines.filters.text import fold

# `[[Name]]` looked up per description; later ones stay as written.
MAX_CARD_LINKS = 100
# A card's name is at most 120 characters (catalogue.models.Card.name).
CARD_LINK = re.compile(r"\[\[([^\[\]\n]{1,120})\]\]")
LINK_SCHEMES = ("http://", "https://", "mailto:")
SUMMARY_CHARS = 200
DESCRIPTION_SECONDS = 24 * 60 * 60

_CLEANER = nh3.Cleaner(
    tags={
        "p",
        "em",
        "strong",
        "a",
        "ul",
        "ol",
        "li",
        "code",
        "pre",
        "blockquote",
        "h3",
        "h4",
        "h5",
        "br",
        "hr",
    },
    # "*": no attribute on every tag (ammonia would allow lang and title).
    attributes={"a": {"href"}, "ol": {"start"}, "*": set()},
    link_rel="nofollow noopener",
    url_schemes={scheme.split(":")[0] for scheme in LINK_SCHEMES},
)
_TEXT_ONLY = nh3.Cleaner(tags=set())

Lookup = Callable[[str], SnapCard | None]


def _lower_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(5, int(token.tag[1]) + 2)}"


def _card_links(lookup: Lookup) -> Callable[[StateCore], None]:
    """A core rule turning `[[Name]]` in plain text (not in code, not inside a link) into a
    link to the card of that name, where the game has one."""
    budget = [MAX_CARD_LINKS]

    def rule(state: StateCore) -> None:
        for block in state.tokens:
            if block.type != "inline" or not block.children:
                continue
            children: list[Token] = []
            depth = 0
            for token in block.children:
                depth += {"link_open": 1, "link_close": -1}.get(token.type, 0)
                if token.type == "text" and depth == 0 and "[[" in token.content:
                    children += _split(token.content, lookup, budget)
                else:
                    children.append(token)
            block.children = children

    return rule


def _split(text: str, lookup: Lookup, budget: list[int]) -> list[Token]:
    tokens: list[Token] = []
    last = 0
    for match in CARD_LINK.finditer(text):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        card = lookup(match.group(1))
        if card is None:
            continue  # stays as written, brackets and all
        tokens.append(_text(text[last : match.start()]))
        link = Token("link_open", "a", 1)
        link.attrs = {"href": card.get_absolute_url()}
        tokens += [link, _text(card.name), Token("link_close", "a", -1)]
        last = match.end()
    tokens.append(_text(text[last:]))
    return [t for t in tokens if t.type != "text" or t.content]


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _absolute(url: str) -> bool:
    # Only links that leave for another site or a mail program: a relative one would mean a
    # page of this site chosen by whoever wrote the text. Card links are made here, not parsed.
    return url.lower().startswith(LINK_SCHEMES)


def _parser(lookup: Lookup) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False})
    md.validateLink = _absolute  # type: ignore[method-assign]
    md.disable("image")
    md.core.ruler.push("lower_headings", _lower_headings)
    md.core.ruler.push("card_links", _card_links(lookup))
    return md


def _snapshot_lookup(snapshot: GameSnapshot) -> Lookup:
    return lambda name: snapshot.by_name.get(fold(name))


def description_html(*, text: str, game: str) -> SafeString:
    """`text` (Markdown) as HTML safe to put in a page, card names linked within `game`."""
    snapshot = game_snapshot(game)
    rendered = _parser(_snapshot_lookup(snapshot)).render(text[:DESCRIPTION_MAX])
    return mark_safe(_CLEANER.clean(rendered))  # cleaned to the allow-list above


def description_summary(*, html_text: str) -> str:
    """A rendered description as one line of plain text, for link previews."""
    # One line, cut at a word, as every page's meta description (cardsite/seo.py).
    return trimmed(html.unescape(_TEXT_ONLY.clean(html_text)), SUMMARY_CHARS)


def deck_description(*, deck: Deck) -> SafeString:
    """The deck's description as safe HTML, rendered once per deck version and catalogue
    version (a card added to the catalogue can turn brackets into a link)."""
    if not deck.description.strip():
        return mark_safe("")
    key = f"deck-description:{deck.share_key}:{deck.version}:{catalogue_version()}"
    cached = cache.get(key)
    if cached is None:
        cached = str(description_html(text=deck.description, game=deck.game.slug))
        cache.set(key, cached, DESCRIPTION_SECONDS)
    return mark_safe(cached)  # stored only after cleaning
