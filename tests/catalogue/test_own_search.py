"""`own` and `is:owned` search the viewer's collection (pools summed): on the search page, in
the API and in the builder; anonymously they are dropped with a warning."""

import html

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token

from cardsite.catalogue.models import Card
from cardsite.catalogue.search.examples import COLLECTION
from cardsite.catalogue.search.owned import SIGN_IN
from cardsite.catalogue.selectors import card_search
from cardsite.collection.models import CollectionCard, Pool, PoolMember
from decks.models import Deck
from engines.filters.syntax import QuerySyntaxError

pytestmark = pytest.mark.django_db

GAME = "conquest-of-orion"


@pytest.fixture
def cards():
    """Four printings of one game, by name order."""
    return list(Card.objects.filter(game__slug=GAME).order_by("name", "id")[:4])


@pytest.fixture
def me():
    return User.objects.create_user("collector", password="collector-42")


def own(user, card, quantity):
    CollectionCard.objects.create(owner=user, card=card, quantity=quantity)


def found(query, viewer, game=GAME):
    return set(card_search(text=query, game=game, viewer=viewer).cards.values_list("id", flat=True))


def all_ids(game=GAME):
    return set(Card.objects.filter(game__slug=game).values_list("id", flat=True))


def test_own_at_least_one_finds_exactly_the_printings_i_own(me, cards):
    own(me, cards[0], 1)
    own(me, cards[1], 3)
    assert found("own>=1", me) == {cards[0].id, cards[1].id}


def test_own_zero_finds_every_printing_i_do_not_own(me, cards):
    own(me, cards[0], 2)
    assert found("own=0", me) == all_ids() - {cards[0].id}


def test_own_more_than_two_counts_copies(me, cards):
    own(me, cards[0], 2)
    own(me, cards[1], 3)
    own(me, cards[2], 999)
    assert found("own>2", me) == {cards[1].id, cards[2].id}
    assert found("own=2", me) == {cards[0].id}
    assert found("own<3", me) == all_ids() - {cards[1].id, cards[2].id}
    assert found("own<=3 own>=2", me) == {cards[0].id, cards[1].id}
    assert found("own!=0", me) == {cards[0].id, cards[1].id, cards[2].id}
    assert found("own!=2", me) == all_ids() - {cards[0].id}


def test_comparisons_no_count_can_meet_find_everything_or_nothing(me, cards):
    own(me, cards[0], 1)
    assert found("own>=0", me) == all_ids()
    assert found("own<0", me) == set()
    assert found("own=-1", me) == set()


def test_is_owned_is_own_at_least_one_and_its_negation_the_rest(me, cards):
    own(me, cards[0], 1)
    assert found("is:owned", me) == {cards[0].id}
    assert found("-is:owned", me) == all_ids() - {cards[0].id}
    assert found("is!=owned", me) == all_ids() - {cards[0].id}
    assert found("-own>=1", me) == found("own=0", me)


def test_own_combines_with_other_terms_and_with_or(me, cards):
    own(me, cards[0], 1)
    own(me, cards[1], 1)
    name = cards[0].name
    assert found(f'!"{name}" own>=1', me) == {c.id for c in cards[:2] if c.name == name}
    either = found(f'own>=1 or !"{cards[3].name}"', me)
    named = set(
        Card.objects.filter(game__slug=GAME, name=cards[3].name).values_list("id", flat=True)
    )
    assert either == {cards[0].id, cards[1].id} | named
    assert found("(own=0 or own>=5) own>=1", me) == set()


def test_a_pool_counts_the_copies_of_every_member_who_accepted(me, cards):
    friend = User.objects.create_user("friend", password="friend-42")
    invited = User.objects.create_user("invited", password="invited-42")
    pool = Pool.objects.create(name="Tuesday group", created_by=me)
    now = timezone.now()
    PoolMember.objects.create(pool=pool, user=me, accepted_at=now)
    PoolMember.objects.create(pool=pool, user=friend, invited_by=me, accepted_at=now)
    PoolMember.objects.create(pool=pool, user=invited, invited_by=me)
    own(me, cards[0], 1)
    own(friend, cards[0], 2)
    own(friend, cards[1], 1)
    own(invited, cards[2], 5)
    assert found("own>=1", me) == {cards[0].id, cards[1].id}
    assert found("own=3", me) == {cards[0].id}
    assert found("own>=1", friend) == {cards[0].id, cards[1].id}
    # Not having accepted, their copies count for nobody else, only for themselves.
    assert found("own>=1", invited) == {cards[2].id}


def test_another_users_collection_never_affects_my_results(me, cards):
    other = User.objects.create_user("other", password="other-42")
    own(other, cards[0], 4)
    own(me, cards[1], 1)
    assert found("own>=1", me) == {cards[1].id}
    assert cards[0].id in found("own=0", me)


def test_the_own_filter_is_one_subquery_whatever_i_own(me, cards):
    def queries(query):
        with CaptureQueriesContext(connection) as captured:
            list(card_search(text=query, game=GAME, viewer=me).ids)
        return captured.captured_queries

    own(me, cards[0], 1)
    few = queries("own>=1")
    for card in Card.objects.filter(game__slug=GAME)[:40]:
        CollectionCard.objects.update_or_create(owner=me, card=card, defaults={"quantity": 2})
    many = queries("own>=1")
    # The games, whose collections count, then the cards with the collection as a subquery.
    assert len(many) == len(few) == 3
    assert "collection_collectioncard" in many[-1]["sql"]
    assert not any("collection_collectioncard" in q["sql"] for q in many[:-1])


@pytest.mark.parametrize("number", ["99999999999", "-99999999999"])
def test_a_number_of_copies_beyond_the_query_limit_is_refused(me, number):
    with pytest.raises(QuerySyntaxError) as excinfo:
        card_search(text=f"own>={number}", viewer=me)
    assert "a number in a query must be between" in str(excinfo.value)
    assert excinfo.value.position == 0


@pytest.mark.parametrize("value", ["lots", "²", "٣", "1_0", "1.5"])
def test_an_own_value_that_is_not_plain_digits_is_dropped(me, value):
    [warning] = card_search(text=f"own>={value}", viewer=me).warnings
    assert warning.reason == "own needs a whole number of copies"


def test_anonymously_own_is_dropped_with_a_warning_and_finds_nothing():
    result = card_search(text="own>=1", viewer=None)
    assert [w.reason for w in result.warnings] == [SIGN_IN]
    assert result.nothing_applies and not result.cards.exists()
    named = card_search(text="cloudglider -is:owned", game=GAME)
    assert [w.reason for w in named.warnings] == [SIGN_IN]
    assert list(named.cards.values_list("name", flat=True)) == ["Cloudglider"]


def test_a_key_near_own_is_offered_own():
    [warning] = card_search(text="owns>=1").warnings
    assert warning.suggestion == "own>=1"


@pytest.mark.parametrize("example", COLLECTION, ids=lambda e: e.query)
def test_every_collection_example_on_the_syntax_page_finds_cards_for_a_collector(me, example):
    own(me, Card.objects.order_by("id").first(), 3)
    result = card_search(text=example.query, viewer=me)
    assert result.warnings == []
    assert result.cards.exists()


def test_the_syntax_page_documents_own_with_its_examples(client):
    page = html.unescape(client.get("/syntax/").content.decode())
    assert "Your collection" in page and "own>=1" in page and "is:owned" in page
    assert all(example.query in page for example in COLLECTION)


# --- pages and the API -----------------------------------------------------------------------


def test_the_search_page_finds_what_i_own_and_never_shows_it_to_another(client, me, cards):
    own(me, cards[0], 1)
    client.force_login(me)
    mine = client.get("/search/", {"q": "own>=1", "game": GAME}).content.decode()
    assert html.escape(cards[0].name) in mine and "1 card" in mine
    # Another viewer asking the same search next must not be served my cached results.
    other = User.objects.create_user("other", password="other-42")
    client.force_login(other)
    theirs = client.get("/search/", {"q": "own>=1", "game": GAME}).content.decode()
    assert "No cards match" in theirs


def test_the_search_page_drops_own_for_an_anonymous_visitor_and_says_why(client):
    page = client.get("/search/", {"q": "own>=1"}).content.decode()
    assert html.escape(SIGN_IN) in page or SIGN_IN in html.unescape(page)


def test_the_api_searches_my_collection_by_token(api, me, cards):
    own(me, cards[1], 2)
    token = Token.objects.create(user=me)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    body = api.get("/api/v1/cards/", {"q": "own>=2", "game": GAME}).json()
    assert [c["id"] for c in body["results"]] == [cards[1].short_id]
    assert body["warnings"] == []


def test_the_api_searches_my_collection_by_session(api, me, cards):
    own(me, cards[1], 1)
    api.force_login(me)
    body = api.get("/api/v1/cards/", {"q": "is:owned", "game": GAME}).json()
    assert body["count"] == 1


def test_the_api_drops_own_anonymously_with_a_warning(api):
    body = api.get("/api/v1/cards/", {"q": "own>=1"}).json()
    assert body["count"] == 0
    assert SIGN_IN in body["warnings"][0]
    assert body["dropped"][0]["reason"] == SIGN_IN


def test_the_api_refuses_an_own_number_beyond_the_limit(api, me):
    api.force_login(me)
    response = api.get("/api/v1/cards/", {"q": "own>=99999999999"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_query"


def test_the_builder_searches_my_collection(client, me):
    sigils = list(Card.objects.filter(game__slug="fate-foretold", card_type__slug="sigil"))
    own(me, sigils[0], 1)
    client.force_login(me)
    client.post("/decks/new/", {"name": "Owned only", "game_format": "fate-foretold/nest"})
    deck = Deck.objects.get(name="Owned only")
    page = client.get(f"/decks/{deck.share_key}/edit/", {"q": "t:sigil own>=1"}).content.decode()
    names = {c.name for c in sigils[1:]} - {sigils[0].name}
    assert html.escape(sigils[0].name) in page
    assert not any(html.escape(name) in page for name in names)


@pytest.mark.parametrize(
    "value", ["nan", "inf", "-inf", "²", "٣", "1e9", "0x10", "-0", "0" * 30 + "1", "9" * 400]
)
def test_no_own_value_an_attacker_types_is_a_server_error(api, me, value):
    api.force_login(me)
    response = api.get("/api/v1/cards/", {"q": f"own>={value}"})
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert "a number in a query must be between" in response.json()["detail"]
