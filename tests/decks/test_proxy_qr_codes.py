"""Every QR code on a proxy sheet, on every layout the proxy form offers: its symbol (the
modules, the quiet zone not counted) at least 12 mm wide and at least 5 mm from every paper
edge, its quiet zone clear of ink, and read by zbar from the page rendered at 150 dpi by
poppler, as a phone reads a sheet from a printer that cannot print the paper's edges.

Geometry is read from every layout's PDF with pdfium: the papers and card sizes the form
lists, and every bleed and gap its number fields step through up to their maximum, that a
page holds. A page's drawing depends on those options only through its layout (the bleed
given is what fits), so each distinct layout is drawn once. zbar reads a representative few:
each paper and card size with no gap, with the largest gap and bleed (the grid nearest the
edges), and the tightest layout that still holds the deck's code under the grid."""

import dataclasses
import itertools
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.exports.printing import deck_order, order_sheet
from decks.proxies import (
    EDGE,
    QR_MOST_MODULES,
    QR_WIDTH,
    SheetOptions,
    layout,
    render_sheet,
)
from decks.proxies.drawing import link_qr_matrix
from decks.services import Intake, RequestedCard, deck_create
from engines.errors import InputError
from tests.decks.printed import edge_distance, rasterise, read_pages, scan

pytestmark = pytest.mark.django_db
# pdfium gives bounds in single precision: a micrometre either way is the same code.
MICRON = 0.001


@pytest.fixture
def deck():
    owner = User.objects.create_user("qr-reader", password="x-Long-pass-9")
    cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
        "number_sort"
    )[:9]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Scan me",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def form_field(form, name):
    """The form's <select> options or its number field's (min, max, step), as sent."""
    select = re.search(rf'<select id="proxy-{name}" name="{name}">(.*?)</select>', form, re.S)
    if select:
        return re.findall(r'<option value="([^"]+)"', select.group(1))
    field = re.search(rf'<input id="proxy-{name}" name="{name}" type="number"[^>]*>', form)
    low, high, step = (
        Decimal(re.search(rf'{attribute}="([^"]+)"', field.group(0)).group(1))
        for attribute in ("min", "max", "step")
    )
    return [str(low + step * i) for i in range(int((high - low) / step) + 1)]


def form_layouts(client, deck):
    """Every combination of paper, card size, bleed and gap the proxy form offers that a
    page holds, one options for each distinct layout."""
    form = client.get(f"/decks/{deck.share_key}/proxies/").content.decode()
    fields = [form_field(form, name) for name in ("paper", "size", "bleed", "gap")]
    assert [len(values) for values in fields] == [2, 2, 13, 21]  # 0-3 by 0.25, 0-10 by 0.5
    chosen, refused = {}, 0
    for paper, size, bleed, gap in itertools.product(*fields):
        options = SheetOptions(paper, size, float(bleed), float(gap))
        try:
            chosen.setdefault(layout(options), options)
        except InputError:
            refused += 1
    assert len(chosen) > 100 and refused > 0  # some gaps leave no room, and are refused
    return chosen


def in_a_cell(box, lay):
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(x < cx < x + lay.card[0] and y < cy < y + lay.card[1] for x, y in lay.cells)


def test_every_qr_code_on_every_layout_the_form_offers_is_12_mm_wide_and_5_mm_in(client, deck):
    sheet = order_sheet(deck_order(deck, SheetOptions()))
    modules = len(link_qr_matrix(sheet.deck_url))
    under_the_grid = 0
    for lay, options in form_layouts(client, deck).items():
        first, cards = read_pages(render_sheet(dataclasses.replace(sheet, options=options)))
        on_cards = [code for code in cards.codes if in_a_cell(code.symbol, lay)]
        footer = [code for code in cards.codes if code not in on_cards]
        assert len(on_cards) == 9, options
        # The deck's code: under the grid where the layout has room, always on the first page.
        assert len(footer) == (1 if lay.footer.qr else 0), options
        assert len(first.codes) == 1, options
        under_the_grid += len(footer)
        for page, code in [(first, c) for c in first.codes] + [(cards, c) for c in cards.codes]:
            left, bottom, right, top = code.symbol
            assert right - left >= QR_WIDTH - MICRON and top - bottom >= QR_WIDTH - MICRON
            assert edge_distance(code.symbol, page.size) >= EDGE - MICRON, (options, code)
        for page, code in [(first, c) for c in first.codes] + [(cards, c) for c in footer]:
            # Four modules of white all round, and no other mark within them.
            quiet, module = code.quiet, (code.symbol[2] - code.symbol[0]) / modules
            margins = [code.symbol[i] - quiet[i] for i in (0, 1)]
            margins += [quiet[i] - code.symbol[i] for i in (2, 3)]
            assert min(margins) >= 4 * module - MICRON, options
            assert not [
                box
                for box in page.others
                if box[0] < quiet[2]
                and quiet[0] < box[2]
                and box[1] < quiet[3]
                and quiet[1] < box[3]
            ], options
    assert under_the_grid >= 5  # A4 with small gaps keeps a code on every page of cards


def representative(layouts):
    """Per paper and card size: no gap and no bleed; the largest gap with its largest bleed
    (the grid nearest the edges); and the layout with the most gap and bleed that still holds
    the deck's code under the grid, if any does."""
    chosen = []
    for (paper, size), group in itertools.groupby(
        sorted(layouts.items(), key=lambda item: (item[1].paper, item[1].size)),
        key=lambda item: (item[1].paper, item[1].size),
    ):
        group = list(group)
        picks = [SheetOptions(paper, size)]
        picks.append(max(group, key=lambda item: (item[0].gap, item[0].bleed))[1])
        holding = [item for item in group if item[0].footer.qr]
        if holding:
            picks.append(max(holding, key=lambda item: item[0].gap + item[0].bleed)[1])
        chosen += list(dict.fromkeys(picks))
    return chosen


def test_zbar_reads_the_decks_url_and_every_cards_at_150_dpi_on_the_worst_layouts(
    client, deck, tmp_path
):
    sheet = order_sheet(deck_order(deck, SheetOptions()))
    card_urls = sorted(card.short_url for card in sheet.cards)
    layouts = form_layouts(client, deck)
    chosen = representative(layouts)
    # A4 63 x 88 mm holds the code with a little gap, 2.5 x 3.5 in with none; Letter never.
    assert len(chosen) == 9
    assert sheet.deck_url == f"http://testserver/decks/{deck.share_key}/"
    for number, options in enumerate(chosen):
        pdf = render_sheet(dataclasses.replace(sheet, options=options))
        first, cards = rasterise(pdf, tmp_path / str(number), dpi=150)
        assert scan(first) == [sheet.deck_url], options
        holds = layout(options).footer.qr is not None
        expected = sorted(card_urls + ([sheet.deck_url] if holds else []))
        assert sorted(scan(cards)) == expected, options


def test_a_site_url_too_long_for_a_14_mm_code_to_read_leaves_it_to_the_first_page(
    client, deck, settings, tmp_path
):
    settings.SITE_URL = "https://proxies.a-rather-long-card-community.example.org"
    sheet = order_sheet(deck_order(deck, SheetOptions()))
    assert len(sheet.deck_url) == 80 and len(link_qr_matrix(sheet.deck_url)) > QR_MOST_MODULES
    pdf = render_sheet(sheet)
    first, cards = read_pages(pdf)
    assert layout(SheetOptions()).footer.qr is not None  # room enough, but not for this URL
    assert len(first.codes) == 1 and len(cards.codes) == 9
    assert all(in_a_cell(code.symbol, layout(SheetOptions())) for code in cards.codes)
    (page,) = rasterise(pdf, tmp_path, dpi=150, pages="1")
    assert scan(page) == [sheet.deck_url]


@pytest.mark.parametrize("url_length", [53, 54, 78, 79])
def test_a_decks_url_at_each_width_edge_of_the_page_code_is_read_or_left_to_the_first_page(
    client, deck, settings, tmp_path, url_length
):
    # 53 bytes is the last URL of 29 modules and 78 the last of QR_MOST_MODULES (33): up to
    # there the pages of cards carry a code zbar reads at 150 dpi, past it only the first page.
    tail = len(f"/decks/{deck.share_key}/")
    settings.SITE_URL = "https://" + "a" * (url_length - tail - len("https://.org")) + ".org"
    sheet = order_sheet(deck_order(deck, SheetOptions()))
    assert len(sheet.deck_url) == url_length
    modules = {53: 29, 54: 33, 78: QR_MOST_MODULES, 79: 37}[url_length]
    assert len(link_qr_matrix(sheet.deck_url)) == modules
    first, cards = rasterise(render_sheet(sheet), tmp_path, dpi=150)
    assert scan(first) == [sheet.deck_url]
    on_cards = [url for url in scan(cards) if url == sheet.deck_url]
    assert on_cards == ([sheet.deck_url] if url_length <= 78 else [])
