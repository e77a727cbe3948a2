"""The builder's card pool without JavaScript: every card of the game a page at a time, no cap
on a query's matches, chips that are terms of the query, and a bounded number of queries."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card
from decks.models import Deck
from decks.views.pool import POOL_PAGE, POOL_PAGE_MAX

pytestmark = pytest.mark.django_db

TACTICS = "conquest-alpha-tactics"
# The issue's example: 33 cards, three more than the old builder's cap of 30.
STARFLEET = "f:starfleet is:sample -t:planet"


@pytest.fixture
def builder(client):
    user = User.objects.create_user("pooler", password="x-Long-pass-9")
    client.force_login(user)
    return client


def make_deck(client, game_format=f"{TACTICS}/faction-deck", name="Fleet"):
    response = client.post("/decks/new/", {"name": name, "game_format": game_format})
    assert response.status_code == 302
    return Deck.objects.get(name=name)


def edit(client, deck, headers=None, **params):
    return client.get(f"/decks/{deck.share_key}/edit/", params, headers=headers or {})


def result_ids(html):
    return re.findall(r'<li id="result-([^"]+)" class="result', html)


def next_link(html):
    found = re.search(r'<a rel="next" href="([^"]+)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_an_empty_query_shows_the_games_cards_a_page_at_a_time_with_a_plain_next_link(builder):
    deck = make_deck(builder)
    total = Card.objects.filter(game__slug=TACTICS).count()
    assert total > POOL_PAGE
    html = edit(builder, deck).content.decode()
    assert '<section id="pool"' in html
    first = result_ids(html)
    assert len(first) == POOL_PAGE
    assert f"{total} cards" in html
    link = next_link(html)
    assert parse_qs(urlsplit(link).query)["page"] == ["2"]
    # The next page is a page of its own without JavaScript, with a way back...
    second = builder.get(link).content.decode()
    assert '<a rel="prev"' in second
    assert not set(result_ids(second)) & set(first)
    # ...and the same cards alone, to append, for htmx asking for the link's place.
    fragment = builder.get(link, headers={"HX-Request": "true", "HX-Target": "pool-more"})
    body = fragment.content.decode()
    assert "<html" not in body and body.lstrip().startswith("<li")
    assert result_ids(body) == result_ids(second)
    assert 'id="pool-more"' in body  # the third page's link replaces the second's


def test_every_card_of_the_game_is_reachable_through_the_pages(builder):
    deck = make_deck(builder)
    seen, link = [], f"/decks/{deck.share_key}/edit/"
    while link:
        html = builder.get(link).content.decode()
        seen += result_ids(html)
        link = next_link(html)
    assert sorted(seen) == sorted(
        Card.objects.filter(game__slug=TACTICS).values_list("short_id", flat=True)
    )


def test_all_33_matches_of_the_issues_query_can_be_added_to_a_faction_deck(builder):
    deck = make_deck(builder)
    html = edit(builder, deck, q=STARFLEET).content.decode()
    shown = result_ids(html)
    assert len(shown) == 33 and "33 cards" in html and next_link(html) is None
    for version, short_id in enumerate(shown, start=1):
        response = builder.post(
            f"/decks/{deck.share_key}/edit/card/",
            {"card": short_id, "action": "add", "version": version},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200
    deck.refresh_from_db()
    assert sum(e.quantity for e in deck.entries.all()) == 33
    page = edit(builder, deck).content.decode()
    assert "legal in Faction deck" in page and "not legal in Faction deck" not in page


@pytest.mark.parametrize("page", ["0", "-1", "two", "100000", "1" * 40, "²", "1\n", "٣"])
def test_a_page_that_is_not_a_whole_number_from_1_to_the_limit_is_a_400_naming_it(builder, page):
    deck = make_deck(builder)
    response = edit(builder, deck, page=page)
    assert response.status_code == 400
    assert f"page is a whole number from 1 to {POOL_PAGE_MAX:,}" in response.content.decode()


def test_a_page_past_the_last_shows_the_last(builder):
    deck = make_deck(builder)
    last = edit(builder, deck, q=STARFLEET, page="9")
    assert last.status_code == 200 and len(result_ids(last.content.decode())) == 33


def test_the_chips_come_from_the_games_schema_and_each_links_to_the_query_with_its_term(builder):
    deck = make_deck(builder)
    html = edit(builder, deck, q="f:starfleet").content.decode()
    chips = dict(re.findall(r'<a class="chip[^"]*" href="([^"]+)" data-term="([^"]+)"', html))
    terms = set(chips.values())
    # Card types and the choice stats from the engine; factions and keywords from the game's
    # catalogue; the collection and sample cards from the query language.
    assert {"t:ship", "t:planet", "quadrant:alpha", "planet:federation"} <= terms
    assert {"f:starfleet", "f:klingon", "is:owned", "-is:owned", "is:sample", "-is:sample"} <= terms
    assert any(t.startswith("kw:") for t in terms)
    by_term = {term: url.replace("&amp;", "&") for url, term in chips.items()}
    query = lambda term: parse_qs(urlsplit(by_term[term]).query).get("q", [""])[0]  # noqa: E731
    assert query("t:ship") == "f:starfleet t:ship"
    # A faction replaces the other faction; the chosen one takes its term off again.
    assert query("f:klingon") == "f:klingon"
    assert query("f:starfleet") == ""
    assert query("-is:sample") == "f:starfleet -is:sample"
    assert re.search(r'data-term="f:starfleet" data-others="[^"]*" aria-current="true"', html)
    # Each stat is a range of two fields, under the stat's own label.
    assert 'aria-label="Combat Power at least"' in html
    assert 'aria-label="Victory Points at most"' in html
    # No game's words are written in the template: another game offers its own.
    fates = make_deck(builder, "conquest-of-fates/standard", "Fates")
    other = edit(builder, fates).content.decode()
    assert 'data-term="t:unit"' in other and 'data-term="t:ship"' not in other


def test_without_javascript_a_range_and_a_sort_are_written_into_the_query(builder):
    deck = make_deck(builder)
    response = edit(
        builder,
        deck,
        q="f:starfleet cp>=9",
        **{"min-combat_power": "2", "max-combat_power": "4", "order": "cp", "dir": "desc"},
    )
    assert response.status_code == 302
    q = parse_qs(urlsplit(response["Location"]).query)["q"][0]
    assert q == "f:starfleet cp>=2 cp<=4 order:cp dir:desc"
    html = builder.get(response["Location"]).content.decode()
    assert 'name="min-combat_power" value="2"' in html
    assert '<option value="cp" selected>' in html
    powers = [Card.objects.get(short_id=s).stats.get("combat_power") for s in result_ids(html)]
    assert powers == sorted(powers, reverse=True) and 2 <= min(powers) <= max(powers) <= 4


def test_a_pool_page_costs_the_same_number_of_queries_for_a_few_cards_or_sixty(builder):
    deck = make_deck(builder)
    headers = {"HX-Request": "true", "HX-Target": "pool-more"}
    edit(builder, deck, headers=headers)  # warm the per-process caches
    last = -(-Card.objects.filter(game__slug=TACTICS).count() // POOL_PAGE)
    counts = {}
    for page in ("1", str(last)):
        with CaptureQueriesContext(connection) as queries:
            response = edit(builder, deck, headers=headers, page=page)
        reads = [q for q in queries if q["sql"].startswith("SELECT")]
        counts[len(result_ids(response.content.decode()))] = len(reads)
    few, many = sorted(counts)
    assert few < POOL_PAGE // 2 and many == POOL_PAGE
    assert counts[few] == counts[many]
    # Session, user and deck; the page's cards, their classifications and factions; the
    # deck's counts and planned cards; the owner's copies (the ids come from the cache).
    assert counts[many] <= 9


def test_each_card_shows_its_copies_in_the_deck_and_its_controls(builder):
    deck = make_deck(builder)
    card = Card.objects.filter(game__slug=TACTICS, card_set__code="TAC-SMP").order_by("name")[0]
    for version in (1, 2):
        builder.post(
            f"/decks/{deck.share_key}/edit/card/",
            {"card": card.short_id, "action": "add", "version": version},
        )
    html = edit(builder, deck, q=f'!"{card.name}"', view="images").content.decode()
    item = html[html.index(f'id="result-{card.short_id}"') :]
    item = item[: item.index("</li>")]
    assert f'data-card="{card.short_id}"' in item
    assert re.search(r"data-in-deck>2 in deck<", item)
    for action in ("add", "remove", "maybe", "zoom"):
        assert f'data-action="{action}"' in item
    assert 'data-edit="card"' in item and "result-own" in item
