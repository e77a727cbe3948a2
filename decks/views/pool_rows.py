"""The pool's cards as decks/_pool_items.html shows them: each card's row, or its face, with
the deck's controls and the owner's collection controls (results_context).

Written here rather than in the template: a pool page is sixty cards of thirty values each,
and Django's template engine spends more on looking up and escaping those values one node
at a time than the rest of the page's answer costs (about 10 of 20 ms for a page of sixty,
decks/_pool_items.html before this). Each value is escaped here, once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from cardsite.collection.selectors import own_quantities
from decks.models import Deck
from decks.reading.pool import PoolCard
from decks.views.panel import Choices, key_stats, stats_html

SAMPLE_BADGE = (
    ' <span class="badge sample" title="An unofficial sample card: made up, not from a '
    'rulebook">sample</span>'
)
COMMUNITY_BADGE = ' <span class="badge community">community</span>'

_FORM_HEAD = (
    '<li id="result-{id}" class="result{in_deck_class}" data-card="{id}" draggable="true">\n'
    '  <form method="post" action="{card_url}" data-edit="card">\n'
    '    {csrf}<input type="hidden" name="card" value="{id}"><input type="hidden" name="zone" '
    'value="" data-drop-zone>{fields}<input type="hidden" name="anchor" value="result-{id}">\n'
)
_REMOVE = (
    '<button type="submit" name="action" value="remove" class="step" data-action="remove" '
    'aria-label="One fewer {name} in the deck"{remove_disabled}>\u2212</button>'
)
_ADD = (
    '<button type="submit" name="action" value="add" class="add" id="add-{id}" '
    'data-action="add" data-nav="result" aria-label="Add {name}" aria-keyshortcuts="a +">'
    "{add_text}</button>"
)
_MAYBE = (
    '<button type="submit" name="action" value="add" formaction="{maybe_url}" class="add-maybe" '
    'id="maybe-add-{id}" data-action="maybe" aria-label="Maybe: {name}" '
    'aria-keyshortcuts="m">Maybe</button>'
)
_FACE = (
    '    <a href="{url}" class="face{landscape_class}" data-action="zoom" data-zoom '
    'draggable="false"><img src="{face_url}" alt="{name}" loading="lazy" draggable="false" '
    "{size}></a>\n"
    '    <span class="in-deck badge-count" data-in-deck>{in_deck_text}</span>\n'
    '    <span class="caption">{name}{sample}</span>\n'
    '    <span class="result-line">\n      '
    + _REMOVE
    + "\n      "
    + _ADD
    + "\n      "
    + _MAYBE
    + "\n    </span>\n"
    '    <span class="in-deck" data-planned>{planned_text}</span>\n'
)
_ROW = (
    '    <span class="result-add">' + _REMOVE + _ADD + "</span>\n"
    '    <span class="result-name"><a href="{url}" draggable="false">{name}</a>{sample}'
    "{community}\n"
    "      <small>{kind_line}</small></span>\n"
    '    <span class="result-side">{stats}\n'
    '      <span class="in-deck" data-in-deck>{in_deck_text}</span>\n'
    '      <span class="in-deck" data-planned>{planned_text}</span></span>\n    ' + _MAYBE + "\n"
)
# Outside the deck's form: a form of its own, for the owner's collection (the markup of
# collection/_owned_compact.html).
_OWN = (
    "  </form>\n"
    '  <div class="result-own"><span class="own-label" title="Copies in your collection">own'
    '</span> <form class="owned compact" method="post" action="{own_url}" '
    'data-hx-post="{own_url}" data-hx-target="this" data-hx-swap="outerHTML">{csrf}'
    '<input type="hidden" name="next" value="{builder_next}"><input type="hidden" '
    'name="compact" value="1"><span class="owned-count" title="Copies in your collection">'
    '\u00d7{owned}</span><button type="submit" name="step" value="-1" aria-label="One copy '
    'fewer in your collection"{own_disabled}>\u2212</button><button type="submit" name="step" '
    'value="1" aria-label="One copy more in your collection">+</button></form></div>\n'
    "</li>\n"
)
FACE_MARKUP = _FORM_HEAD + _FACE + _OWN
ROW_MARKUP = _FORM_HEAD + _ROW + _OWN


@dataclass(frozen=True)
class PageParts:
    """What every card of a pool page shares, escaped once."""

    images: bool
    card_url: str
    maybe_url: str
    builder_next: str
    # The CSRF field and the query's hidden fields, already markup.
    csrf: str
    fields: str

    @classmethod
    def of(
        cls,
        *,
        images: bool,
        card_url: str,
        maybe_url: str,
        builder_next: str,
        csrf: str,
        fields: str,
    ) -> PageParts:
        return cls(images, escape(card_url), escape(maybe_url), escape(builder_next), csrf, fields)


def card_markup(
    parts: PageParts,
    *,
    short_id: str,
    name: str,
    url: str,
    face_url: str,
    own_url: str,
    kind_line: str,
    is_sample: bool,
    community: bool,
    stats: SafeString,
    landscape: bool,
    in_deck: int,
    planned: int,
    owned: int,
) -> SafeString:
    markup = FACE_MARKUP if parts.images else ROW_MARKUP
    return mark_safe(
        markup.format(
            id=escape(short_id),
            name=escape(name),
            url=escape(url),
            face_url=escape(face_url),
            own_url=escape(own_url),
            kind_line=escape(kind_line),
            sample=SAMPLE_BADGE if is_sample else "",
            community=COMMUNITY_BADGE if community else "",
            stats=f'<span class="key-stats">{stats}</span>' if stats else "",
            landscape_class=" landscape" if landscape else "",
            size='width="350" height="250"' if landscape else 'width="250" height="350"',
            in_deck_class=" in-deck-some" if in_deck else "",
            in_deck_text=f"{in_deck} in deck" if in_deck else "",
            planned_text=f"{planned} maybe" if planned else "",
            remove_disabled="" if in_deck else " disabled",
            add_text="+" if parts.images else "+ Add",
            owned=owned,
            own_disabled="" if owned else " disabled",
            card_url=parts.card_url,
            maybe_url=parts.maybe_url,
            builder_next=parts.builder_next,
            csrf=parts.csrf,
            fields=parts.fields,
        )
    )


def _url_for(name: str, *placeholders: str) -> Callable[..., str]:
    """reverse() once, with placeholders, then filled in per card: a short id and a slug
    need no quoting, and reverse() costs more than the rest of a pool row."""
    pattern = reverse(name, args=placeholders)

    def fill(*values: str) -> str:
        url = pattern
        for placeholder, value in zip(placeholders, values, strict=True):
            url = url.replace(placeholder, value, 1)
        return url

    return fill


def results_context(
    deck: Deck,
    choices: Choices,
    cards: list[PoolCard] | None,
    in_deck: Mapping[str, int],
    planned: Mapping[str, int],
    *,
    csrf: str,
) -> dict[str, Any]:
    """Search results as rows or faces (decks/views/pool_rows.py), each with its key stats,
    the copies already in the deck and those planned beside it, the copies the owner's own
    collection holds (one read for all of them, behind its + and - buttons), and the links
    that switch between the two views. `csrf` is the request's CSRF field, as markup."""
    engine = deck.game.engine
    sideways = set(engine.face.landscape_types)
    results = None
    if cards is not None:
        held = own_quantities(owner=deck.owner, card_ids=[c.id for c in cards])
        card_url = _url_for("catalogue:card", "SHORTID", "SLUG")
        face_url = _url_for("catalogue:card-face", "SHORTID")
        own_url = _url_for("collection:step", "SHORTID")
        parts = PageParts.of(
            images=choices.view == "images",
            card_url=reverse("decks:edit-card", args=[deck.share_key]),
            maybe_url=reverse("decks:edit-maybe", args=[deck.share_key]),
            builder_next=choices.url(deck),
            csrf=csrf,
            fields=format_html(
                '<input type="hidden" name="q" value="{}"><input type="hidden" name="group" '
                'value="{}"><input type="hidden" name="view" value="{}">',
                choices.q,
                choices.group,
                choices.view,
            ),
        )
        results = [
            card_markup(
                parts,
                short_id=card.short_id,
                name=card.name,
                url=card_url(card.short_id, card.slug),
                face_url=face_url(card.short_id),
                own_url=own_url(card.short_id),
                kind_line=" · ".join([card.type_name or "type not given", *card.faction_names]),
                is_sample=card.is_sample,
                community=bool(card.community),
                stats=stats_html(key_stats(engine, card.stats)),
                landscape=card.type_name in sideways,
                in_deck=in_deck.get(card.short_id, 0),
                planned=planned.get(card.short_id, 0),
                owned=held.get(card.id, 0),
            )
            for card in cards
        ]
    return {
        "results": results,
        # Where the collection's + and - return to without JavaScript: this search.
        "builder_next": choices.url(deck),
        "views": [
            (value, label, choices.url(deck, view=value), value == choices.view)
            for value, label in (("list", "List"), ("images", "Images"))
        ],
    }
