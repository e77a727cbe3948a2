import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from decks.models import VERSION_MAX, Deck
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db
DECKS = "/api/v1/decks/"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", password="wonderland-42")


@pytest.fixture
def bob():
    return User.objects.create_user("bob", password="builder-42")


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def capital_cards(faction="Dwarves"):
    cards = Card.objects.filter(card_set__code="CFC-SMP", factions__name=faction).order_by(
        "number_sort"
    )
    return [{"id": c.short_id, "quantity": 1} for c in cards]


def new_deck(user, visibility="private", faction="Dwarves", **extra):
    body = {
        "game": "conquest-for-the-capital",
        "format": "faction-deck",
        "name": f"{faction} rush",
        "visibility": visibility,
        "cards": capital_cards(faction),
        **extra,
    }
    response = client_for(user).post(DECKS, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_token_is_issued_for_username_and_password_and_revoked_on_delete(alice):
    api = APIClient()
    token = api.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "wonderland-42"}, format="json"
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert (
        api.post(
            DECKS,
            {"game": "fate-foretold", "format": "nest", "name": "N", "cards": []},
            format="json",
        ).status_code
        == 201
    )
    assert api.delete("/api/v1/auth/token/").status_code == 204
    assert api.get(DECKS, {"mine": "true"}).status_code == 401


def test_a_wrong_password_gets_no_token(alice):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": "x"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_a_saved_deck_reads_back_with_owner_version_cards_problems_and_share_url(alice):
    deck = new_deck(alice)
    assert deck["owner"] == "alice" and deck["version"] == 1 and deck["legal"] is True
    assert deck["faction"] == "Dwarves"
    assert deck["counts"]["zones"] == {"battle": 12, "upgrade": 8}
    assert len(deck["entries"]) == 20
    assert deck["entries"][0]["card"]["game"] == "conquest-for-the-capital"
    assert deck["share_url"] == f"http://testserver/decks/{deck['id']}/"
    assert len(deck["id"]) >= 16  # unguessable


def test_anonymous_users_cannot_save_decks():
    response = APIClient().post(
        DECKS, {"game": "fate-foretold", "format": "nest", "name": "x", "cards": []}, format="json"
    )
    assert response.status_code in (401, 403)


def test_a_private_deck_is_a_404_for_everyone_but_its_owner(alice, bob):
    deck = new_deck(alice, "private")
    assert client_for(alice).get(f"{DECKS}{deck['id']}/").status_code == 200
    assert client_for(bob).get(f"{DECKS}{deck['id']}/").status_code == 404
    assert APIClient().get(f"{DECKS}{deck['id']}/").status_code == 404
    assert APIClient().get(f"/decks/{deck['id']}/").status_code == 404
    assert APIClient().get(f"{DECKS}{deck['id']}/export/").status_code == 404
    assert deck["id"] not in str(APIClient().get(DECKS).json())


def test_an_unlisted_deck_is_readable_by_its_link_but_never_listed(alice):
    deck = new_deck(alice, "unlisted")
    assert APIClient().get(f"{DECKS}{deck['id']}/").status_code == 200
    assert APIClient().get(f"/decks/{deck['id']}/").status_code == 200
    assert APIClient().get(DECKS).json()["count"] == 0


def test_public_decks_are_listed_and_searchable_by_game_format_faction_and_card(alice):
    dwarves = new_deck(alice, "public", "Dwarves")
    new_deck(alice, "public", "Elves")
    api = APIClient()
    assert api.get(DECKS).json()["count"] == 2
    assert [d["id"] for d in api.get(DECKS, {"faction": "dwarves"}).json()["results"]] == [
        dwarves["id"]
    ]
    card = dwarves["entries"][0]["card"]
    assert [d["id"] for d in api.get(DECKS, {"card": card["id"]}).json()["results"]] == [
        dwarves["id"]
    ]
    assert [d["id"] for d in api.get(DECKS, {"card": card["name"]}).json()["results"]] == [
        dwarves["id"]
    ]
    assert api.get(DECKS, {"game": "fate-foretold"}).json()["count"] == 0
    assert api.get(DECKS, {"format": "faction-deck"}).json()["count"] == 2


def test_only_the_owner_may_change_or_delete_a_deck(alice, bob):
    deck = new_deck(alice, "public")
    assert (
        client_for(bob)
        .patch(f"{DECKS}{deck['id']}/", {"name": "Mine now"}, format="json")
        .status_code
        == 403
    )
    assert client_for(bob).delete(f"{DECKS}{deck['id']}/").status_code == 403
    assert client_for(alice).delete(f"{DECKS}{deck['id']}/").status_code == 204
    # A soft delete: gone from the API at once, kept for its owner to restore.
    assert client_for(alice).get(f"{DECKS}{deck['id']}/").status_code == 404
    assert Deck.objects.get().deleted_at is not None


def test_every_change_increases_the_version(alice):
    deck = new_deck(alice)
    api = client_for(alice)
    changed = api.patch(
        f"{DECKS}{deck['id']}/", {"name": "Renamed", "version": 1}, format="json"
    ).json()
    assert (changed["name"], changed["version"]) == ("Renamed", 2)
    fewer = api.patch(
        f"{DECKS}{deck['id']}/", {"cards": capital_cards()[:19]}, format="json"
    ).json()
    assert fewer["version"] == 3
    assert fewer["legal"] is False
    assert [p["code"] for p in fewer["problems"]] == ["zone_size"]


def test_a_write_against_a_stale_version_is_refused_and_overwrites_nothing(alice):
    deck = new_deck(alice)
    api = client_for(alice)
    etag = api.get(f"{DECKS}{deck['id']}/")["ETag"]
    assert (
        api.patch(
            f"{DECKS}{deck['id']}/", {"name": "First"}, HTTP_IF_MATCH=etag, format="json"
        ).status_code
        == 200
    )
    stale = api.patch(
        f"{DECKS}{deck['id']}/", {"name": "Second"}, HTTP_IF_MATCH=etag, format="json"
    )
    assert stale.status_code == 412
    assert stale.json()["code"] == "stale_version" and stale.json()["current"] == 2
    by_body = api.patch(f"{DECKS}{deck['id']}/", {"name": "Third", "version": 1}, format="json")
    assert by_body.status_code == 409
    assert api.get(f"{DECKS}{deck['id']}/").json()["name"] == "First"


def test_a_full_replace_needs_a_version(alice):
    deck = new_deck(alice)
    response = client_for(alice).put(f"{DECKS}{deck['id']}/", {"name": "x"}, format="json")
    assert response.status_code == 428


@pytest.mark.parametrize("version", [VERSION_MAX + 1, 10**30])
@pytest.mark.parametrize("method", ["patch", "put"])
def test_a_written_version_past_the_limit_is_a_400_naming_it(alice, method, version):
    deck = new_deck(alice)
    api = client_for(alice)
    body = {"name": "Renamed", "version": version}
    if method == "put":
        body |= {"game": deck["game"], "format": deck["format"], "cards": capital_cards()}
    response = getattr(api, method)(f"{DECKS}{deck['id']}/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["version"]
    assert f"{VERSION_MAX}" in response.json()["errors"]["version"][0]
    assert api.get(f"{DECKS}{deck['id']}/").json()["name"] == "Dwarves rush"


def test_unknown_cards_are_refused_with_their_lines_and_nothing_is_saved(alice):
    body = {
        "game": "fate-foretold",
        "format": "nest",
        "name": "Typos",
        "text": "1 The Angel\n1 The Angle\n",
    }
    response = client_for(alice).post(DECKS, body, format="json")
    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert problem["code"] == "unknown_card" and problem["line"] == 2
    assert not Deck.objects.exists()


def test_a_conditional_read_of_an_unchanged_deck_is_a_304(alice):
    deck = new_deck(alice, "public")
    etag = APIClient().get(f"{DECKS}{deck['id']}/")["ETag"]
    assert APIClient().get(f"{DECKS}{deck['id']}/", HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_deck_code_export_imports_back_to_the_same_deck(alice, bob):
    deck = new_deck(alice, "public")
    code = APIClient().get(f"{DECKS}{deck['id']}/export/", {"as": "code"}).json()["code"]
    copy = (
        client_for(bob)
        .post(
            DECKS,
            {
                "game": "conquest-for-the-capital",
                "format": "faction-deck",
                "name": "From code",
                "code": code,
            },
            format="json",
        )
        .json()
    )

    def content(d):
        return sorted((e["card"]["id"], e["quantity"], e["zone"]) for e in d["entries"])

    assert content(copy) == content(deck)


def test_a_text_export_imports_back_to_the_same_deck(alice):
    deck = new_deck(alice, "public")
    text = APIClient().get(f"{DECKS}{deck['id']}/export/", {"as": "text"}).json()["text"]
    assert text.startswith("# Dwarves rush") and "Battle deck:" in text
    copy = (
        client_for(alice)
        .post(
            DECKS,
            {
                "game": "conquest-for-the-capital",
                "format": "faction-deck",
                "name": "From text",
                "text": text,
            },
            format="json",
        )
        .json()
    )
    assert sorted((e["card"]["id"], e["quantity"], e["zone"]) for e in copy["entries"]) == sorted(
        (e["card"]["id"], e["quantity"], e["zone"]) for e in deck["entries"]
    )


def test_a_damaged_deck_code_is_a_400_that_says_so(alice):
    response = client_for(alice).post(
        DECKS,
        {"game": "fate-foretold", "format": "nest", "name": "x", "code": "cs1.abc.00000000"},
        format="json",
    )
    assert response.status_code == 400
    assert "checksum" in response.json()["errors"]["code"][0]


def test_a_public_deck_can_be_forked_into_a_private_copy(alice, bob):
    deck = new_deck(alice, "public")
    fork = client_for(bob).post(f"{DECKS}{deck['id']}/fork/").json()
    assert fork["owner"] == "bob" and fork["visibility"] == "private"
    assert fork["forked_from"] == deck["id"] and len(fork["entries"]) == 20


def test_a_private_deck_cannot_be_forked_by_someone_else(alice, bob):
    deck = new_deck(alice, "private")
    assert client_for(bob).post(f"{DECKS}{deck['id']}/fork/").status_code == 404


def test_an_unknown_export_kind_is_a_400(alice):
    deck = new_deck(alice, "public")
    assert APIClient().get(f"{DECKS}{deck['id']}/export/", {"as": "pdf"}).status_code == 400


# --- pages ---------------------------------------------------------------------------------


def test_the_deck_page_shows_the_list_by_type_legality_share_link_and_exports(client, alice):
    deck = new_deck(alice, "public")
    page = client.get(f"/decks/{deck['id']}/").content.decode()
    assert "legal in Faction deck" in page
    assert "Battle" in page and "Upgrade" in page
    assert f"/decks/{deck['id']}/" in page and "cs1." in page
    assert f"/api/v1/decks/{deck['id']}/export/?as=text" in page


def test_a_visitor_can_sign_up_log_out_and_log_in(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"},
    )
    assert response.status_code == 302
    assert "Log out carol" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()
    assert (
        client.post(
            "/accounts/login/", {"username": "carol", "password": "a-Long-pass-42"}
        ).status_code
        == 302
    )


def test_a_deck_read_again_comes_from_the_cache_until_the_deck_or_its_rules_change(alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cardsite.catalogue.models import Game
    from decks.models import FormatSetting

    cards = Card.objects.filter(card_set__code="COF-SMP", factions__name="Iron Tithe of Vantrix")
    body = {
        "game": "conquest-of-fates",
        "format": "standard",
        "name": "Cached",
        "visibility": "public",
        "cards": [{"id": c.short_id, "quantity": 1} for c in cards],
    }
    created = client_for(alice).post(DECKS, body, format="json").json()
    url = f"{DECKS}{created['id']}/"
    first = APIClient().get(url).json()
    with CaptureQueriesContext(connection) as warm:
        assert APIClient().get(url).json() == first
    # Only the deck itself is read (to check who may see it); its record is not rebuilt.
    assert sum("SELECT" in q["sql"] for q in warm) == 1

    FormatSetting.objects.create(
        game=Game.objects.get(slug="conquest-of-fates"),
        format="standard",
        key="deck_size",
        value=99,
    )
    ruled = APIClient().get(url).json()
    assert any("exactly 99" in p["message"] for p in ruled["problems"])

    renamed = client_for(alice).patch(url, {"name": "Renamed"}, format="json")
    assert renamed.status_code == 200
    assert APIClient().get(url).json()["name"] == "Renamed"


def test_a_created_deck_answers_201_with_its_api_url_in_location(alice):
    api = client_for(alice)
    body = {
        "game": "conquest-for-the-capital",
        "format": "faction-deck",
        "name": "Located",
        "cards": capital_cards(),
    }
    response = api.post(DECKS, body, format="json")
    assert response.status_code == 201
    deck = Deck.objects.get(name="Located")
    assert response["Location"] == f"http://testserver/api/v1/decks/{deck.share_key}/"
    assert api.get(response["Location"]).json()["name"] == "Located"


def test_a_fork_answers_201_with_the_copys_api_url_in_location(alice, bob):
    original = new_deck(alice, visibility="public")
    response = client_for(bob).post(f"{DECKS}{original['id']}/fork/")
    assert response.status_code == 201
    assert response["Location"] == f"http://testserver/api/v1/decks/{response.json()['id']}/"


def test_neither_the_readme_nor_the_api_docs_nor_its_root_call_the_api_read_only(api):
    readme = docs_text()
    schema = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    root = api.get("/api/v1/", HTTP_ACCEPT="text/html").content.decode()
    for text in (readme, schema["info"]["description"], root):
        assert "read-only" not in text.lower() and "read only" not in text.lower()
    assert "Location" in schema["info"]["description"]
    assert "save, change, delete, export and fork your own decks" in root
