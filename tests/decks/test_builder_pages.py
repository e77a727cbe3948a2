"""The deck builder without JavaScript: every control is a form that works on its own."""

import re

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card
from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def builder(client):
    user = User.objects.create_user("dana", password="x-Long-pass-9")
    client.force_login(user)
    return client


def make_deck(client, game_format="fate-foretold/nest", name="My Nest"):
    response = client.post("/decks/new/", {"name": name, "game_format": game_format})
    assert response.status_code == 302
    return Deck.objects.get(name=name)


def test_building_a_deck_needs_an_account(client):
    assert client.get("/decks/new/")["Location"].startswith("/accounts/login/")


def test_a_new_deck_starts_empty_and_opens_in_the_builder(builder):
    deck = make_deck(builder)
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert "No cards yet" in page and "not legal in Nest" in page


def test_searching_in_the_builder_uses_the_query_language_within_the_decks_game(builder):
    deck = make_deck(builder)
    page = builder.get(f"/decks/{deck.share_key}/edit/", {"q": "t:sigil"}).content.decode()
    assert "King" in page and "Queen" in page
    assert (
        "Galaxy"
        not in builder.get(f"/decks/{deck.share_key}/edit/", {"q": "galaxy"}).content.decode()
    )


def test_adding_and_removing_a_card_changes_the_deck_and_its_version(builder):
    deck = make_deck(builder)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    url = f"/decks/{deck.share_key}/edit/card/"
    builder.post(url, {"card": angel.short_id, "action": "add", "version": 1})
    builder.post(url, {"card": angel.short_id, "action": "add", "version": 2})
    deck.refresh_from_db()
    assert [(e.card.name, e.quantity, e.zone) for e in deck.entries.all()] == [
        ("The Angel", 2, "nest")
    ]
    assert deck.version == 3
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert "The Angel appears 2 times" in page
    builder.post(url, {"card": angel.short_id, "zone": "nest", "action": "remove", "version": 3})
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert "appears 2 times" not in page


def test_the_panel_alone_comes_back_for_htmx(builder):
    deck = make_deck(builder)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    response = builder.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": angel.short_id, "action": "add", "version": 1},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="deck-panel"') and "<html" not in html
    assert 'data-version="2"' in html


def test_an_edit_from_a_stale_page_is_refused_and_says_so(builder):
    deck = make_deck(builder)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    url = f"/decks/{deck.share_key}/edit/card/"
    builder.post(url, {"card": angel.short_id, "action": "add", "version": 1})
    response = builder.post(
        url, {"card": angel.short_id, "action": "add", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert "changed elsewhere" in response.content.decode()
    deck.refresh_from_db()
    assert deck.entries.get().quantity == 1


def test_pasting_a_decklist_replaces_the_cards_and_reports_unknown_ones(builder):
    deck = make_deck(builder)
    url = f"/decks/{deck.share_key}/edit/import/"
    response = builder.post(
        url, {"decklist": "1 The Angel\n1 The Angle\n", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert "did you mean The Angel" in response.content.decode()
    assert not deck.entries.exists()
    builder.post(url, {"decklist": "Nest:\n1 The Angel\nSigils:\n1 King\n", "version": 1})
    assert sorted(deck.entries.values_list("zone", flat=True)) == ["nest", "sigils"]


def test_settings_change_name_format_and_visibility(builder):
    deck = make_deck(builder, "conquest-alpha-tactics/targets", "T")
    builder.post(
        f"/decks/{deck.share_key}/edit/settings/",
        {"name": "Short", "format": "targets-short-2p", "visibility": "public", "version": 1},
    )
    deck.refresh_from_db()
    assert (deck.name, deck.format, deck.visibility) == ("Short", "targets-short-2p", "public")


def test_the_builder_of_someone_elses_deck_is_a_404(builder, client):
    deck = make_deck(builder)
    other = User.objects.create_user("eve", password="x-Long-pass-9")
    client.force_login(other)
    assert client.get(f"/decks/{deck.share_key}/edit/").status_code == 404


def test_a_public_deck_can_be_copied_from_its_page(builder, client):
    deck = make_deck(builder)
    deck.visibility = "public"
    deck.save()
    other = User.objects.create_user("finn", password="x-Long-pass-9")
    client.force_login(other)
    response = client.post(f"/decks/{deck.share_key}/fork/")
    copy = Deck.objects.get(owner=other)
    assert response["Location"] == f"/decks/{copy.share_key}/edit/"


def test_the_deck_page_shows_a_badge_for_every_format_of_its_game(builder):
    deck = make_deck(builder, "conquest-alpha-tactics/faction-deck", "Romulans")
    page = builder.get(f"/decks/{deck.share_key}/").content.decode()
    for name in ["Faction deck", "Target deck", "Short Game target deck, 2 players"]:
        assert f"{name}: not legal" in page


def test_the_curve_shows_the_games_main_number(builder):
    deck = make_deck(builder, "conquest-of-fates/standard", "Curve")
    for card in Card.objects.filter(card_set__code="COF-SMP", card_type__name="Unit")[:5]:
        builder.post(
            f"/decks/{deck.share_key}/edit/card/", {"card": card.short_id, "action": "add"}
        )
    assert (
        "Cards by Conquest Value" in builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    )


# --- grouping, key stats, problems marked in the list -------------------------------------


def edit_page(client, deck, **params):
    response = client.get(f"/decks/{deck.share_key}/edit/", params)
    assert response.status_code == 200
    return response.content.decode()


def add(client, deck, card, times=1, **extra):
    for _ in range(times):
        client.post(
            f"/decks/{deck.share_key}/edit/card/",
            {"card": card.short_id, "action": "add", **extra},
        )


def sample(game, **filters):
    return Card.objects.filter(game__slug=game, card_set__is_official=False, **filters).order_by(
        "number_sort"
    )


def group_heads(page):
    return re.findall(r'class="group-head"[^>]*>([^<]+) <span class="count">(\d+)</span>', page)


def test_the_deck_is_grouped_by_type_by_default_and_each_group_shows_its_count(builder):
    deck = make_deck(builder, "conquest-alpha-tactics/targets", "Targets")
    ship = sample("conquest-alpha-tactics", card_type__name="Ship")[0]
    planet = sample("conquest-alpha-tactics", card_type__name="Planet")[0]
    add(builder, deck, ship, times=2)
    add(builder, deck, planet)
    page = edit_page(builder, deck)
    assert group_heads(page) == [("Ship", "2"), ("Planet", "1")]
    zone_head = r'class="zone-head"[^>]*data-zone="[^"]+">Faction deck <span class="count"[^>]*>2<'
    assert re.search(zone_head, page)
    assert '<strong aria-current="true">By type</strong>' in page


def test_grouping_by_cost_uses_the_games_main_number_and_puts_cards_without_it_last(builder):
    deck = make_deck(builder, "conquest-alpha-tactics/targets", "By power")
    ships = list(sample("conquest-alpha-tactics", card_type__name="Ship")[:2])
    planet = sample("conquest-alpha-tactics", card_type__name="Planet")[0]
    for card in (*ships, planet):
        add(builder, deck, card)
    page = edit_page(builder, deck, group="cost")
    powers = sorted(s.stats["combat_power"] for s in ships)
    expected = [(f"Combat Power {p}", "1") for p in powers] + [("Without Combat Power", "1")]
    assert group_heads(page) == expected
    assert '<strong aria-current="true">By Combat Power</strong>' in page


def test_a_game_without_a_main_number_groups_only_by_type(builder):
    deck = make_deck(builder)
    add(builder, deck, Card.objects.get(card_set__code="FF-RB", name="The Angel"))
    page = edit_page(builder, deck, group="cost")
    assert group_heads(page) == [("Nest Card", "1")]
    assert 'aria-label="Group the deck"' not in page  # one way to group: no choice to offer


@pytest.mark.parametrize(("group", "view"), [("colour", "cards"), ("", ""), ("x" * 500, "y")])
def test_an_unknown_grouping_or_view_is_the_default_not_an_error(builder, group, view):
    deck = make_deck(builder)
    page = edit_page(builder, deck, q="t:sigil", group=group, view=view)
    assert '<strong aria-current="true">List</strong>' in page


def test_each_row_shows_the_quantity_controls_the_name_and_the_games_key_stats(builder):
    deck = make_deck(builder, "conquest-of-orion/limited", "Orion")
    card = sample("conquest-of-orion", card_type__name="Unit")[0]
    add(builder, deck, card, times=2)
    page = edit_page(builder, deck)
    row = page[page.index(f'id="row-{card.short_id}-main"') :]
    row = row[: row.index("</li>")]
    assert (
        f'aria-label="Remove one {card.name}"' in row and f'aria-label="Add one {card.name}"' in row
    )
    assert '<span class="qty">2</span>' in row
    assert f'href="{card.get_absolute_url()}"' in row
    shown = re.findall(r'<span title="([^"]+)">(\w+) <b>(\d+)</b></span>', row)
    expected = [
        (label, short, str(card.stats[key]))
        for key, label, short in [
            ("cost_blue", "Blue cost", "blue"),
            ("cost_gold", "Gold cost", "gold"),
            ("cost_red", "Red cost", "red"),
            ("tier", "Tier requirement", "tier"),
        ]
        if key in card.stats
    ]
    assert shown == expected and expected
    assert "unofficial" in row  # a sample card says so in the list too


def test_each_problem_links_to_the_rows_of_the_cards_it_names_and_those_rows_are_marked(builder):
    deck = make_deck(builder, "conquest-for-the-capital/faction-deck", "Mixed")
    dwarf = sample("conquest-for-the-capital", factions__name="Dwarves")[0]
    orc = sample("conquest-for-the-capital", factions__name="Orcs")[0]
    add(builder, deck, dwarf, times=2)  # the first card sets the deck's faction
    add(builder, deck, orc)
    page = edit_page(builder, deck)
    problems = dict(re.findall(r'<li id="(problem-\w+)" class="error" data-code="(\w+)"', page))
    mismatch = next(pid for pid, code in problems.items() if code == "faction_mismatch")
    copies = next(pid for pid, code in problems.items() if code == "singleton")
    item = page[page.index(f'id="{mismatch}"') :]
    item = item[: item.index("</li>")]
    assert f'<a href="#row-{orc.short_id}-{orc.card_type.zone}"' in item
    orc_row = page[page.index(f'id="row-{orc.short_id}-') :]
    orc_row = orc_row[: orc_row.index("</li>")]
    assert 'class="deck-row flagged error"' in orc_row
    assert f'aria-describedby="{mismatch}"' in orc_row
    assert 'class="mark" aria-hidden="true">✖' in orc_row
    # The problem's words are written in the row itself, not only in a title.
    shown = orc_row[orc_row.index('class="row-problems"') :]
    assert "not of the deck" in shown
    dwarf_row = page[page.index(f'id="row-{dwarf.short_id}-') :]
    dwarf_row = dwarf_row[: dwarf_row.index("</li>")]
    assert f'aria-describedby="{copies}"' in dwarf_row
    unflagged = page.count('class="deck-row"')
    assert unflagged == 0  # both rows are named by a problem


def test_results_show_as_a_list_with_key_stats_or_as_lazy_faces_sized_to_their_shape(builder):
    deck = make_deck(builder)
    listed = edit_page(builder, deck, q="t:sigil")
    assert 'class="builder-results list"' in listed and "<img" not in listed
    assert '<strong aria-current="true">List</strong>' in listed
    faces = edit_page(builder, deck, q="t:sigil", view="images")
    assert 'class="builder-results images"' in faces
    king = Card.objects.get(card_set__code="FF-RB", name="King")
    image = re.search(rf'<img src="/cards/{king.short_id}/face.png"[^>]+>', faces).group(0)
    assert (
        'loading="lazy"' in image and 'width="350" height="250"' in image
    )  # a Sigil lies sideways
    assert f'aria-label="Add {king.name}"' in faces


def test_orion_results_list_their_costs_and_tier(builder):
    deck = make_deck(builder, "conquest-of-orion/limited", "Orion")
    card = sample("conquest-of-orion", card_type__name="Unit")[0]
    page = edit_page(builder, deck, q=f'!"{card.name}"')
    result = page[page.index(f'id="result-{card.short_id}"') :]
    assert '<span title="Tier requirement">tier <b>' in result[: result.index("</li>")]


def test_results_say_how_many_copies_are_already_in_the_deck(builder):
    deck = make_deck(builder, "conquest-of-orion/limited", "Orion")
    card = sample("conquest-of-orion", card_type__name="Unit")[0]
    add(builder, deck, card, times=3)
    page = edit_page(builder, deck, q=f'!"{card.name}"')
    assert "3 in deck" in page
    partial = builder.get(
        f"/decks/{deck.share_key}/edit/", {"q": f'!"{card.name}"'}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert partial.lstrip().startswith('<div id="builder-results"') and "3 in deck" in partial


def test_htmx_asking_for_the_panel_gets_it_alone_in_the_chosen_grouping(builder):
    deck = make_deck(builder, "conquest-of-fates/standard", "Fates")
    add(builder, deck, sample("conquest-of-fates", card_type__name="Unit")[0])
    response = builder.get(
        f"/decks/{deck.share_key}/edit/",
        {"group": "cost"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="deck-panel",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="deck-panel"') and 'data-group="cost"' in html
    assert "Conquest Value" in "".join(label for label, _ in group_heads(html))


def test_without_javascript_an_edit_comes_back_to_the_same_search_grouping_view_and_row(builder):
    deck = make_deck(builder, "conquest-of-fates/standard", "Fates")
    card = sample("conquest-of-fates", card_type__name="Unit")[0]
    response = builder.post(
        f"/decks/{deck.share_key}/edit/card/",
        {
            "card": card.short_id,
            "action": "add",
            "q": "t:unit",
            "group": "cost",
            "view": "images",
            "anchor": f"result-{card.short_id}",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == (
        f"/decks/{deck.share_key}/edit/?q=t%3Aunit&group=cost&view=images#result-{card.short_id}"
    )
    # An anchor that is not one of ours is dropped, not echoed into the redirect.
    response = builder.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": card.short_id, "action": "add", "anchor": '"><script>'},
    )
    assert "#" not in response["Location"]


def test_the_builder_links_its_own_script_and_styles_and_has_no_inline_script(builder):
    deck = make_deck(builder)
    page = edit_page(builder, deck)
    assert '<script src="/static/js/builder.js" defer></script>' in page
    assert 'href="/static/css/builder.css"' in page
    inline = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", page)
    assert not inline
    assert not re.search(r"\son[a-z]+=", page)
    assert "hx-vals" not in page


def test_one_plus_or_minus_writes_one_row_in_a_bounded_number_of_queries(
    builder, django_assert_max_num_queries
):
    deck = make_deck(builder, "conquest-of-orion/constructed", "Big")
    cards = list(sample("conquest-of-orion", card_type__name="Unit")[:30])
    builder.post(
        f"/decks/{deck.share_key}/edit/import/",
        {"decklist": "\n".join(f"1 {c.name}" for c in cards), "version": 1},
    )
    url = f"/decks/{deck.share_key}/edit/card/"
    builder.post(url, {"card": cards[0].short_id, "action": "add", "version": 2})  # warm
    # Session, user, the deck read with its entries, the owner's copies and its latest version
    # (decks.reading.editing), the version bump, one row's write and the version's record
    # (folded or new): the same for 1 card or 500, and for 0 planned or 100 (the panel sends
    # only what changed, and a +/- of the deck's cards leaves the plan alone).
    with django_assert_max_num_queries(6):
        response = builder.post(
            url, {"card": cards[1].short_id, "action": "add", "version": 3}, HTTP_HX_REQUEST="true"
        )
    assert 'data-version="4"' in response.content.decode()
    with django_assert_max_num_queries(6):
        builder.post(
            url,
            {"card": cards[1].short_id, "zone": "main", "action": "remove", "version": 4},
            HTTP_HX_REQUEST="true",
        )
    assert Deck.objects.get(pk=deck.pk).entries.get(card=cards[1]).quantity == 1


def test_without_javascript_saving_settings_or_pasting_keeps_the_search_and_choices(builder):
    deck = make_deck(builder, "conquest-of-fates/standard", "Fates")
    page = edit_page(builder, deck, q="t:unit", group="cost", view="images")
    forms = re.findall(
        r'<form method="post" action="([^"]+)" class="stacked"(.*?)</form>', page, re.S
    )
    assert len(forms) == 2  # settings and import
    for _, body in forms:
        assert '<input type="hidden" name="group" value="cost">' in body
        assert '<input type="hidden" name="view" value="images">' in body
    response = builder.post(
        f"/decks/{deck.share_key}/edit/settings/",
        {"name": "Renamed", "version": 1, "q": "t:unit", "group": "cost", "view": "images"},
    )
    assert response["Location"].endswith("?q=t%3Aunit&group=cost&view=images")
