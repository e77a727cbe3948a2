"""Deck descriptions: Markdown made safe, with [[Card Name]] linked to the card's page."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card, Game
from decks.public.description import (
    MAX_CARD_LINKS,
    deck_description,
    description_html,
    description_summary,
)
from decks.services import deck_create, deck_update, game_snapshot
from decks.services.write import DESCRIPTION_MAX

pytestmark = pytest.mark.django_db
GAME = "conquest-of-orion"


def render(text):
    return str(description_html(text=text, game=GAME))


@pytest.fixture
def glider():
    return Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")


def test_markdown_becomes_html_with_headings_below_the_pages_own():
    out = render("# Plan\n\n## Early\n\nPlay *fast*, **hit hard**.\n\n- one\n- two\n\n> wait\n")
    assert "<h3>Plan</h3>" in out and "<h4>Early</h4>" in out
    assert "<em>fast</em>" in out and "<strong>hit hard</strong>" in out
    assert "<ul>\n<li>one</li>" in out and "<blockquote>" in out
    assert "<h1" not in out and "<h2" not in out


def test_a_card_name_in_double_brackets_links_to_its_page_whatever_its_case_or_accents(glider):
    out = render("Open with [[CLOUDGLIDER]], then [[Clóudglider]].")
    link = f'<a href="{glider.get_absolute_url()}" rel="nofollow noopener">Cloudglider</a>'
    assert out.count(link) == 2
    assert "[[" not in out


def test_an_unknown_name_or_another_games_card_stays_as_written():
    other = Card.objects.filter(game__slug="fate-foretold").first()
    out = render(f"[[No Such Card]] and [[{other.name}]]")
    assert "[[No Such Card]]" in out and f"[[{other.name}]]" in out
    assert "<a " not in out


def test_brackets_in_code_or_inside_a_link_are_left_alone(glider):
    out = render(
        "`[[Cloudglider]]`\n\n    [[Cloudglider]]\n\n[see [[Cloudglider]]](https://example.com)"
    )
    assert glider.get_absolute_url() not in out
    assert "<code>[[Cloudglider]]</code>" in out
    assert '<a href="https://example.com" rel="nofollow noopener">see [[Cloudglider]]</a>' in out


ALLOWED = {"p", "em", "strong", "a", "ul", "ol", "li", "code", "pre", "blockquote"}
ALLOWED |= {"h3", "h4", "h5", "br", "hr"}


class Elements(HTMLParser):
    """Every element of a fragment with its attributes, as a browser would read them."""

    def __init__(self, fragment):
        super().__init__()
        self.found = []
        self.feed(fragment)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "![x](https://example.com/track.png)",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](java&#x09;script:alert(1))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "<javascript:alert(1)>",
        "[x](vbscript:msgbox)",
        '<a href="https://e.com" onclick="x()">a</a>',
        "<iframe src=https://e.com></iframe>",
        '<p style="position:fixed">x</p>',
        '[x](https://e.com "title")',
        "[x]: javascript:alert(1)\n\n[x]",
        "<svg><script>alert(1)</script></svg>",
    ],
)
def test_hostile_markdown_comes_out_harmless(hostile):
    for tag, attrs in Elements(render(hostile)).found:
        assert tag in ALLOWED, tag
        assert set(attrs) <= {"href", "rel", "start"}, attrs
        if "href" in attrs:
            assert attrs["href"].startswith(("https:", "http:", "mailto:", "/")), attrs


def test_links_to_elsewhere_are_marked_nofollow():
    out = render("[site](https://example.com/x?a=1&b=2)")
    assert out == (
        '<p><a href="https://example.com/x?a=1&amp;b=2" rel="nofollow noopener">site</a></p>\n'
    )


def test_only_the_first_5000_characters_are_rendered():
    out = render("a" * DESCRIPTION_MAX + "TAIL")
    assert "TAIL" not in out and "a" * 100 in out


def test_five_hundred_links_are_bounded_and_cost_no_queries(glider):
    game_snapshot(GAME)
    text = "[[Cloudglider]]" * 150 + "[[Zq]]" * 350
    assert len(text) <= DESCRIPTION_MAX
    with CaptureQueriesContext(connection) as queries:
        out = render(text)
    assert len(queries) == 0
    # Only the first MAX_CARD_LINKS are looked up; the rest stay as written.
    assert out.count("<a ") == MAX_CARD_LINKS
    assert out.count("[[Cloudglider]]") == 150 - MAX_CARD_LINKS
    assert out.count("[[Zq]]") == 350


def test_a_summary_is_one_line_of_plain_text_for_link_previews():
    summary = description_summary(html_text=render("# Plan\n\n**Swarm** & win.\n\n" + "x " * 300))
    assert summary.startswith("Plan Swarm & win. x x")
    assert len(summary) <= 200 and summary.endswith("…") and "<" not in summary


def test_a_decks_description_is_rendered_once_per_version(glider):
    owner = User.objects.create_user("writer", password="x-Long-pass-9")
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=GAME),
        format_slug="constructed",
        name="Described",
        description="Fly [[Cloudglider]].",
    )
    assert glider.get_absolute_url() in deck_description(deck=deck)
    with CaptureQueriesContext(connection) as queries:
        deck_description(deck=deck)
    assert len(queries) == 0
    deck = deck_update(deck=deck, expected_version=None, changes={"description": "**Changed**"})
    assert deck_description(deck=deck) == "<p><strong>Changed</strong></p>\n"


def test_the_deck_page_shows_the_rendered_description(client, glider):
    owner = User.objects.create_user("shower", password="x-Long-pass-9")
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=GAME),
        format_slug="constructed",
        name="Shown",
        visibility="public",
        description="Fly [[Cloudglider]] <script>alert(1)</script>",
    )
    page = client.get(deck.get_absolute_url()).content.decode()
    body = page[page.index('<div class="deck-description">') :]
    assert f'<a href="{glider.get_absolute_url()}" rel="nofollow noopener">Cloudglider</a>' in body
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
