"""Two decks side by side at /decks/compare/: cards in both with both quantities and the
difference, cards in one only, the curves overlaid; a private deck is 404 in a comparison to
everyone but its owner, decks of two games are a 400 naming both, and the form takes an id or
a pasted link."""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cardsite.catalogue.models import Card, Game
from decks.services import (
    Intake,
    RequestedCard,
    deck_branch,
    deck_create,
    deck_delete,
    deck_set_quantity,
    game_snapshot,
)
from decks.views.compare import ID_MAX, LINK_MAX
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db

GAME = "conquest-of-orion"
PASSWORD = "x-Long-pass-9"
COMPARE = "/decks/compare/"


@pytest.fixture
def cards():
    return list(
        Card.objects.filter(game__slug=GAME, card_set__is_official=False).order_by("name")[:40]
    )


@pytest.fixture
def users(django_user_model):
    return {
        name: django_user_model.objects.create_user(name, password=PASSWORD)
        for name in ("owner", "stranger")
    }


def make(owner, cards, name="Base", visibility="public", game=GAME, quantity=2):
    found = Game.objects.get(slug=game)
    return deck_create(
        owner=owner,
        game=found,
        format_slug=found.engine.formats[0].slug,
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(quantity, None, c.short_id) for c in cards)),
    )


def main(response):
    return response.content.decode().split("<main")[1].split("</main>")[0]


def compare(client, a, b):
    return client.get(COMPARE, {"a": a.share_key, "b": b.share_key})


def test_the_compare_address_is_fixed_before_any_decks_own_pages():
    assert reverse("decks:compare") == COMPARE


def test_two_decks_of_one_game_show_cards_in_both_with_both_quantities_and_the_difference(
    client, users, cards
):
    a = make(users["owner"], cards[:4], name="Alpha")
    b = deck_branch(deck=a, owner=users["owner"], name="Beta")
    b = deck_set_quantity(deck=b, expected_version=None, card=cards[0].short_id, quantity=3)
    b = deck_set_quantity(deck=b, expected_version=None, card=cards[1].short_id, quantity=0)
    b = deck_set_quantity(deck=b, expected_version=None, card=cards[8].short_id, quantity=4)
    response = compare(client, a, b)
    page = response.content.decode()
    assert response.status_code == 200
    assert "3 cards in both (1 in different numbers) · 1 only in A · 1 only in B" in page
    row = re.search(rf"<tr class=\"differs\">.*?{re.escape(cards[0].name)}.*?</tr>", page, re.S)
    assert row is not None
    cells = re.findall(r'<td class="num">(.*?)</td>', row.group(0), re.S)
    assert cells[:2] == ["2", "3"] and "+1" in cells[2] and "2 vs 3" in cells[2]
    only_a = page.split('id="only-a"')[1].split("</section>")[0]
    only_b = page.split('id="only-b"')[1].split("</section>")[0]
    assert cards[1].name in only_a and '<span class="qty">2</span>' in only_a
    assert cards[8].name in only_b and '<span class="qty">4</span>' in only_b
    # Each side's head: its name, owner, version, card count and standing.
    assert "by owner · version 1 · 8 cards" in page
    assert f"by owner · version {b.version} · 11 cards" in page


def test_the_curves_are_overlaid_with_a_series_for_each_deck_named_by_its_letter(
    client, users, cards
):
    a = make(users["owner"], cards[:10], name="Alpha")
    b = make(users["owner"], cards[5:20], name="Alpha")
    page = compare(client, a, b).content.decode()
    charts = re.findall(
        r'<script id="chart-data-[^"]+" type="application/json">(.*?)</script>', page
    )
    assert charts
    for chart in map(json.loads, charts):
        assert [s["name"] for s in chart["series"]] == ["A: Alpha", "B: Alpha"]
        assert all(len(s["values"]) == len(chart["labels"]) for s in chart["series"])
    # The table of the same numbers has a column for each deck.
    assert '<th scope="col">A: Alpha</th><th scope="col">B: Alpha</th>' in page


def test_a_private_deck_is_404_in_a_comparison_to_everyone_but_its_owner(client, users, cards):
    public = make(users["owner"], cards[:4], name="Open")
    private = make(users["owner"], cards[:4], name="Closed", visibility="private")
    for a, b in ((public, private), (private, public)):
        response = compare(client, a, b)
        assert response.status_code == 404 and "Closed" not in response.content.decode()
    assert client.get(COMPARE, {"a": private.share_key}).status_code == 404
    client.force_login(users["stranger"])
    assert compare(client, public, private).status_code == 404
    assert compare(client, private, private).status_code == 404
    client.force_login(users["owner"])
    assert compare(client, public, private).status_code == 200


def test_a_missing_deck_and_a_private_one_are_the_same_404(client, users, cards):
    public = make(users["owner"], cards[:4])
    private = make(users["owner"], cards[:4], visibility="private")
    missing = client.get(COMPARE, {"a": public.share_key, "b": "no-such-deck"})
    hidden = compare(client, public, private)
    assert missing.status_code == hidden.status_code == 404
    assert main(missing) == main(hidden) and "private" in main(hidden)


def test_a_deleted_deck_is_404_in_a_comparison_even_to_its_owner(client, users, cards):
    a = make(users["owner"], cards[:4])
    b = make(users["owner"], cards[:4], name="Gone")
    deck_delete(deck=b)
    client.force_login(users["owner"])
    assert compare(client, a, b).status_code == 404


def test_an_unlisted_deck_is_compared_by_anyone_holding_its_link(client, users, cards):
    public = make(users["owner"], cards[:4])
    unlisted = make(users["owner"], cards[:6], name="By link", visibility="unlisted")
    response = compare(client, public, unlisted)
    assert response.status_code == 200 and "By link" in response.content.decode()


def test_decks_of_different_games_are_a_400_naming_both_games(client, users, cards):
    a = make(users["owner"], cards[:4], name="Orion deck")
    other = Game.objects.exclude(slug=GAME).order_by("slug").first()
    b = make(
        users["owner"],
        Card.objects.filter(game=other, card_set__is_official=False)[:4],
        name="Other deck",
        game=other.slug,
    )
    response = compare(client, a, b)
    page = response.content.decode()
    assert response.status_code == 400
    assert a.game.name in page and other.name in page
    assert "Only decks of the same game can be compared." in page


@pytest.mark.parametrize(
    "pasted",
    [
        "https://cardsite.example/decks/{key}/",
        "http://localhost:8000/decks/{key}/history/?from=1&to=2",
        "/decks/{key}",
        "https://cardsite.example/api/v1/decks/{key}/",
        "  {key}  ",
    ],
)
def test_a_pasted_link_to_a_deck_or_its_id_picks_it(client, users, cards, pasted):
    a = make(users["owner"], cards[:4], name="Alpha")
    b = make(users["owner"], cards[:6], name="Beta")
    response = client.get(COMPARE, {"a": a.share_key, "b": pasted.format(key=b.share_key)})
    assert response.status_code == 200 and "Beta" in response.content.decode()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("x" * 41, "is neither a deck id"),
        ("not a deck id!", "is neither a deck id"),
        ("https://cardsite.example/decks/mine/", "is neither a deck id"),
        ("https://cardsite.example/cards/abc/", "is neither a deck id"),
        ("https://cardsite.example/decks/" + "k" * 300, "at most 300 characters"),
    ],
)
def test_junk_in_either_field_is_a_400_naming_the_field_and_the_limit(
    client, users, cards, value, message
):
    a = make(users["owner"], cards[:4])
    for asked in ({"a": a.share_key, "b": value}, {"a": value, "b": a.share_key}):
        response = client.get(COMPARE, asked)
        page = response.content.decode()
        assert response.status_code == 400 and message in page
        assert 'aria-invalid="true"' in page


def test_with_no_decks_asked_for_the_page_is_the_picker(client, users, cards):
    response = client.get(COMPARE)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="a"' in page and 'name="b"' in page and "Or one of my decks" not in page


def test_with_one_deck_the_picker_offers_the_readers_other_decks_of_its_game(client, users, cards):
    a = make(users["owner"], cards[:4], name="Start here")
    mine = make(users["stranger"], cards[:6], name="Mine of the game")
    other = Game.objects.exclude(slug=GAME).order_by("slug").first()
    make(users["stranger"], [], name="Mine of another game", game=other.slug)
    client.force_login(users["stranger"])
    page = client.get(COMPARE, {"a": a.share_key}).content.decode()
    assert "Start here" in page and f'<input type="hidden" name="a" value="{a.share_key}">' in page
    assert f'<option value="{mine.share_key}">Mine of the game</option>' in page
    assert "Mine of another game" not in page
    response = client.get(COMPARE, {"a": a.share_key, "b": "", "b_mine": mine.share_key})
    assert response.status_code == 200 and "Compare decks" in response.content.decode()


def test_a_comparison_costs_the_same_queries_for_small_decks_and_large_ones(client, users, cards):
    small = [make(users["owner"], cards[:3], name=f"Small {i}") for i in range(2)]
    large = [make(users["owner"], cards[i : i + 35], name=f"Large {i}") for i in range(2)]
    game_snapshot(GAME)

    def queries(a, b):
        with CaptureQueriesContext(connection) as captured:
            assert compare(client, a, b).status_code == 200
        return len(captured)

    compare(client, *small)
    compare(client, *large)
    assert queries(*small) == queries(*large) <= 12


def test_an_id_or_link_at_its_limit_is_looked_up_and_the_readme_states_both_limits(client):
    link = "https://cardsite.example/decks/" + "k" * ID_MAX + "/"
    link += "x" * (LINK_MAX - len(link))
    for value in ("k" * ID_MAX, link):
        assert client.get(COMPARE, {"a": value, "b": value}).status_code == 404
    readme = docs_text()
    limits = readme[readme.index("### Limits") :]
    assert f"at most **{ID_MAX}** characters (`ID_MAX`)" in limits
    assert f"a link of at most **{LINK_MAX}** (`LINK_MAX`)" in limits


def test_a_refused_field_reads_no_deck(client, users, cards):
    a = make(users["owner"], cards[:4])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(COMPARE, {"a": a.share_key, "b": "x" * (ID_MAX + 1)})
    assert response.status_code == 400
    assert not [q for q in queries.captured_queries if '"decks_deck"' in q["sql"]]


def test_a_long_name_is_cut_in_the_legend_and_whole_in_the_heads(client, users, cards):
    long_name = "Aggro " * 15
    a = make(users["owner"], cards[:10], name=long_name)
    b = make(users["owner"], cards[:12], name="Short")
    page = compare(client, a, b).content.decode()
    chart = json.loads(re.search(r'type="application/json">(.*?)</script>', page).group(1))
    assert [s["name"] for s in chart["series"]] == [
        f"A: {long_name[:29].strip()}\u2026",
        "B: Short",
    ]
    assert f">{long_name.strip()}</a></h2>" in page


def test_a_deck_compares_with_an_empty_deck_and_with_itself(client, users, cards):
    a = make(users["owner"], cards[:5])
    empty = make(users["owner"], [], name="Empty")
    page = compare(client, a, empty).content.decode()
    assert "0 cards in both · 5 only in A · 0 only in B" in page
    assert "Every card of B is in A." in page
    page = compare(client, a, a).content.decode()
    assert "5 cards in both (0 in different numbers) · 0 only in A · 0 only in B" in page


def test_the_compare_page_only_reads(client, users, cards):
    a = make(users["owner"], cards[:5])
    response = client.post(COMPARE + f"?a={a.share_key}&b={a.share_key}")
    assert response.status_code == 405
