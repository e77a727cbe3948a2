"""The catalogue API's public reads come from the shared cache, as the pages do
(cardsite/catalogue/api/shared.py): cheap when warm, with ETags a client can send back, new at
once after any catalogue write, and never one reader's answer given to another."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard
from tests.test_cache_control import directives

pytestmark = pytest.mark.django_db

GAME = "conquest-of-orion"
# The cards of a public catalogue read, and a search over them.
SEARCH = {"q": "t:unit", "game": GAME, "page_size": 5}


def card_url(card):
    return f"/api/v1/cards/{card.short_id}/"


@pytest.fixture
def card():
    return Card.objects.filter(game__slug=GAME, factions__isnull=False).order_by("id").first()


@pytest.fixture
def reader():
    return User.objects.create_user("reader", password="reader-Long-pass-9")


@pytest.fixture
def token_client(reader):
    return APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=reader).key}")


@pytest.fixture
def session_client(reader):
    client = APIClient()
    client.force_login(reader)
    return client


def selects(queries):
    """The queries a request read the database with (a test's transaction adds savepoints)."""
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]


@pytest.mark.parametrize("who", ["anonymous", "token", "session"])
def test_a_warm_card_read_costs_at_most_three_queries(
    who, card, token_client, session_client, django_assert_max_num_queries
):
    client = {"anonymous": APIClient(), "token": token_client, "session": session_client}[who]
    first = client.get(card_url(card))
    assert first.status_code == 200
    # Counted whole, the test's own savepoints too (a request is one inside its transaction).
    with django_assert_max_num_queries(3 if who != "session" else 4) as queries:
        again = client.get(card_url(card))
    assert again.status_code == 200
    assert again.content == first.content
    # A signed-in reader's session and user; the card itself costs none.
    assert len(selects(queries)) <= {"anonymous": 0, "token": 1, "session": 2}[who]


def test_a_card_sent_back_with_its_etag_is_a_304_that_costs_no_more(
    api, card, django_assert_max_num_queries
):
    first = api.get(card_url(card))
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    with django_assert_max_num_queries(3):
        unchanged = api.get(card_url(card), HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == etag
    assert "public" in directives(unchanged["Cache-Control"])
    # A cold cache makes the same answer, so the same ETag.
    from django.core.cache import cache

    cache.clear()
    assert api.get(card_url(card), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_another_etag_gets_the_card_itself(api, card):
    response = api.get(card_url(card), HTTP_IF_NONE_MATCH='"something-else"')
    assert response.status_code == 200
    assert response.json()["id"] == card.short_id


def test_a_curators_edit_to_the_card_is_seen_at_once_and_changes_its_etag(api, card):
    etag = api.get(card_url(card))["ETag"]
    card.name = "Renamed by a curator"
    card.save()
    response = api.get(card_url(card), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response.json()["name"] == "Renamed by a curator"
    assert response["ETag"] != etag


def test_an_edit_to_the_cards_faction_changes_its_etag_though_the_card_row_is_untouched(api, card):
    # The ETag used to come from the card row's updated_at, which this edit leaves alone: a
    # client holding it was told its stale copy was current.
    etag = api.get(card_url(card))["ETag"]
    faction = card.factions.first()
    faction.colour = "#123456"
    faction.save()
    response = api.get(card_url(card), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert {"name": faction.name, "slug": faction.slug, "colour": "#123456"} in response.json()[
        "factions"
    ]


def test_a_catalogue_import_is_seen_at_once_by_a_warm_card_read(api):
    from cardsite.catalogue.documents import read_json
    from cardsite.catalogue.services import catalogue_import

    card = Card.objects.get(card_set__code="ORI-RB", name="Heliokraken")
    etag = api.get(card_url(card))["ETag"]
    doc = read_json(
        '{"cards": [{"set": "ORI-RB", "number": "11", "name": "Heliokraken", '
        '"type": "Unit", "stats": {"damage": 5, "health": 3}, "notes": "Reimported."}]}'
    )
    catalogue_import(game_slug=GAME, document=doc)
    response = api.get(card_url(card), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response.json()["notes"] == "Reimported."


def test_an_edit_elsewhere_in_the_catalogue_leaves_a_cards_etag_as_it_was(api, card):
    etag = api.get(card_url(card))["ETag"]
    other = Card.objects.exclude(pk=card.pk).filter(game__slug="fate-foretold").first()
    other.notes = "Edited."
    other.save()
    assert api.get(card_url(card), HTTP_IF_NONE_MATCH=etag).status_code == 304


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/cards/?game=conquest-of-orion&page_size=5",
        "/api/v1/cards/?q=t:unit&game=conquest-of-orion&page_size=5&page=2",
        "/api/v1/games/",
        f"/api/v1/games/{GAME}/",
        f"/api/v1/sets/?game={GAME}",
    ],
)
def test_every_public_catalogue_read_is_kept_with_an_etag(api, url):
    first = api.get(url)
    assert first.status_code == 200
    assert "public" in directives(first["Cache-Control"])
    with CaptureQueriesContext(connection) as queries:
        again = api.get(url)
    assert selects(queries) == []
    assert again.content == first.content
    assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


@pytest.mark.parametrize(
    "query",
    [
        "game=conquest-of-orion&page_size=5",
        "game=conquest-of-orion&page_size=5&page=2",
        "page_size=5&game=conquest-of-orion&page=2&utm_source=chat",
        "q=t:unit&game=conquest-of-orion&page_size=3&page=2",
        "q=t%3Aunit&page_size=3&game=conquest-of-orion&page=2&ref=x",
        "q=o:draw",
        "page=1",
    ],
)
def test_a_kept_page_is_byte_for_byte_the_page_made_afresh(api, query):
    from django.core.cache import cache

    url = f"/api/v1/cards/?{query}"
    # Kept under another spelling of the same request first, then asked as given.
    api.get(f"/api/v1/cards/?{query}&another=parameter")
    kept = api.get(url)
    cache.clear()
    fresh = api.get(url)
    assert fresh.status_code == 200
    assert kept.content == fresh.content
    assert kept["ETag"] == fresh["ETag"]


def test_the_last_page_kept_links_back_and_not_on(api):
    count = api.get("/api/v1/cards/", {"game": GAME, "page_size": 7}).json()["count"]
    last = -(-count // 7)
    api.get("/api/v1/cards/", {"game": GAME, "page_size": 7, "page": last})
    kept = api.get("/api/v1/cards/", {"game": GAME, "page_size": 7, "page": last}).json()
    assert kept["next"] is None
    assert f"page={last - 1}" in kept["previous"]


def test_stray_parameters_share_one_entry_but_keep_their_own_links(api):
    api.get("/api/v1/cards/", {"game": GAME, "page_size": 5})
    with CaptureQueriesContext(connection) as queries:
        other = api.get("/api/v1/cards/", {"page_size": "05", "game": GAME, "utm": "chat"})
    assert selects(queries) == []
    assert "utm=chat" in other.json()["next"]
    assert "page_size=05" in other.json()["next"]


def test_each_page_has_its_own_etag(api):
    one = api.get("/api/v1/cards/", {"game": GAME, "page_size": 5})
    two = api.get("/api/v1/cards/", {"game": GAME, "page_size": 5, "page": 2})
    assert one["ETag"] != two["ETag"]
    assert (
        api.get(
            "/api/v1/cards/",
            {"game": GAME, "page_size": 5, "page": 2},
            HTTP_IF_NONE_MATCH=one["ETag"],
        ).status_code
        == 200
    )


def test_a_search_is_new_at_once_after_an_edit(api):
    first = api.get("/api/v1/cards/", {"q": "Cloudglider"}).json()
    assert first["count"] >= 1
    card = Card.objects.filter(name="Cloudglider").first()
    card.name = "Skyglider"
    card.save()
    after = api.get("/api/v1/cards/", {"q": "Cloudglider"}).json()
    assert after["count"] == first["count"] - 1


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/cards/?game=magic",
        "/api/v1/cards/?q=(t:unit",
        "/api/v1/cards/?page=0",
        "/api/v1/cards/?page=999999",
        "/api/v1/cards/nope/",
        "/api/v1/games/magic/",
        "/api/v1/sets/?game=magic",
    ],
)
def test_a_refusal_is_never_kept(api, url):
    first = api.get(url)
    assert first.status_code in (400, 404)
    assert "ETag" not in first
    with CaptureQueriesContext(connection) as queries:
        again = api.get(url)
    assert again.status_code == first.status_code
    assert again.content == first.content
    if "page=0" not in url:  # refused before the database is asked
        assert selects(queries)


def test_a_search_of_a_collection_is_each_readers_own(reader, token_client):
    cards = list(Card.objects.filter(game__slug=GAME).order_by("id")[:2])
    other = User.objects.create_user("other-reader", password="other-Long-pass-9")
    CollectionCard.objects.create(owner=reader, card=cards[0], quantity=1)
    CollectionCard.objects.create(owner=other, card=cards[1], quantity=2)
    other_client = APIClient()
    other_client.force_login(other)
    anonymous = APIClient()
    search = {"q": "own>=1", "game": GAME}
    answers = {}
    # Asked twice each, in turn, so nothing one reader was given could be given to the next.
    for _ in range(2):
        for name, client in (("mine", token_client), ("theirs", other_client), ("anon", anonymous)):
            response = client.get("/api/v1/cards/", search)
            assert response.status_code == 200
            found = directives(response["Cache-Control"])
            assert "private" in found and "public" not in found
            vary = {v.strip().lower() for v in response["Vary"].split(",")}
            assert {"authorization", "cookie"} <= vary
            assert "ETag" not in response
            answers.setdefault(name, []).append(response.json())
    assert [c["id"] for c in answers["mine"][1]["results"]] == [cards[0].short_id]
    assert [c["id"] for c in answers["theirs"][1]["results"]] == [cards[1].short_id]
    assert answers["anon"][1]["warnings"] and answers["anon"][1]["count"] == 0
    for name, (first, second) in answers.items():
        assert first == second, name


def test_a_public_answer_is_the_same_for_every_reader(card, token_client, session_client):
    answers = [client.get(card_url(card)) for client in (APIClient(), token_client, session_client)]
    assert len({a.content for a in answers}) == 1
    assert len({a["ETag"] for a in answers}) == 1


def test_the_browsable_api_is_never_kept_nor_given_to_another(card, session_client, reader):
    page = session_client.get(card_url(card), HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html")
    assert reader.username in page.content.decode()
    assert "private" in directives(page["Cache-Control"])
    assert "ETag" not in page
    assert "accept" in page["Vary"].lower()
    anonymous = APIClient().get(card_url(card), HTTP_ACCEPT="text/html")
    assert reader.username not in anonymous.content.decode()
    assert APIClient().get(card_url(card))["Content-Type"] == "application/json"


def test_indented_json_is_answered_as_asked(api, card):
    api.get(card_url(card))
    indented = api.get(card_url(card), HTTP_ACCEPT="application/json; indent=2")
    assert indented.content.startswith(b'{\n  "id"')
    assert api.get(card_url(card)).content.startswith(b'{"id"')


def test_a_card_is_kept_per_site_address(card):
    here = APIClient().get(card_url(card)).json()["url"]
    secure = APIClient().get(card_url(card), secure=True).json()["url"]
    assert here.startswith("http://testserver/") and secure.startswith("https://testserver/")


def test_a_search_page_too_big_to_keep_is_answered_afresh_but_a_list_page_is_kept(api):
    from cardsite.catalogue.api.shared import SEARCH_KEEP_BYTES

    # A search's text is free, so its answers are kept only up to a size; a list's are
    # bounded by the catalogue and kept whatever their size. (The type filter is looked up in
    # the database whenever the answer is made afresh.)
    search = {"q": "t:unit", "type": "unit", "page_size": 200}
    assert len(api.get("/api/v1/cards/", search).content) > SEARCH_KEEP_BYTES
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/v1/cards/", search).status_code == 200
    assert selects(queries)
    listed = {"page_size": 200}
    assert len(api.get("/api/v1/cards/", listed).content) > SEARCH_KEEP_BYTES
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/v1/cards/", listed).status_code == 200
    assert selects(queries) == []


# Attacks on the shared cache: every spelling of a search of the reader's collection, the
# browsable API asked for by a query parameter, a refused sign-in and a HEAD request.


@pytest.mark.parametrize(
    "query",
    ["OWN>=1", "Own>=1", "is:OWNED", "-own=0", "t:unit or own>=1", "not own<1", "(own>=1)"],
)
def test_every_spelling_of_a_collection_search_is_each_readers_own(reader, token_client, query):
    card = Card.objects.filter(game__slug=GAME).order_by("id").first()
    CollectionCard.objects.create(owner=reader, card=card, quantity=1)
    search = {"q": query, "game": GAME, "page_size": 200}
    anonymous = APIClient()
    # The anonymous reader first, so a kept answer would be handed to the reader next.
    answers = [anonymous.get("/api/v1/cards/", search), token_client.get("/api/v1/cards/", search)]
    answers.append(anonymous.get("/api/v1/cards/", search))
    for response in answers:
        assert response.status_code == 200, (query, response.content[:200])
        found = directives(response["Cache-Control"])
        assert "private" in found and "public" not in found, query
        assert "ETag" not in response
    mine = {c["id"] for c in answers[1].json()["results"]}
    assert answers[0].json() == answers[2].json()
    assert answers[0].json()["warnings"] and not answers[1].json()["warnings"]
    assert card.short_id in mine or query.startswith(("-own", "not"))


def test_a_format_parameter_cannot_make_a_kept_answer_the_browsable_api(card, session_client):
    # No `?format=` chooses a renderer here (URL_FORMAT_OVERRIDE is off): a signed-in reader
    # asking for the browsable API by it gets, and shares, the JSON everyone gets.
    for format in ("api", "json"):
        named = session_client.get(card_url(card), {"format": format})
        assert named["Content-Type"] == "application/json"
        assert named.content == APIClient().get(card_url(card)).content


def test_a_refused_token_is_a_401_even_when_the_answer_is_kept(api, card):
    api.get(card_url(card))
    refused = APIClient(HTTP_AUTHORIZATION=f"Bearer {'0' * 40}").get(card_url(card))
    assert refused.status_code == 401
    assert "ETag" not in refused
    assert api.get(card_url(card)).status_code == 200


def test_a_head_request_is_answered_from_the_kept_answer_with_its_etag(api, card):
    got = api.get(card_url(card))
    head = api.head(card_url(card))
    assert head.status_code == 200
    assert head["ETag"] == got["ETag"]
    assert api.head(card_url(card), HTTP_IF_NONE_MATCH=got["ETag"]).status_code == 304
