"""The API of a deck's history: its versions, a version read whole, diffs, revert, two decks
compared, variants, and the `parent` and `maybe` of a deck read."""

import pytest
from rest_framework.test import APIClient

from decks.api.history_serializers import VERSION_MAX
from decks.models import Deck, DeckVersion
from decks.services.history import NOTE_MAX
from decks.services.write import MAX_MAYBE, NAME_MAX
from tests.decks.test_deck_api import DECKS, alice, bob, capital_cards, client_for, new_deck

pytestmark = pytest.mark.django_db
__all__ = ["alice", "bob"]  # fixtures, imported to be used here


def url_of(deck, tail=""):
    return f"{DECKS}{deck['id']}/{tail}"


@pytest.fixture
def edited(alice):
    """Alice's public deck at version 3: created (1), two cards out and one planned (2),
    renamed (3)."""
    deck = new_deck(alice, "public")
    api = client_for(alice)
    cards = capital_cards()
    response = api.patch(
        url_of(deck),
        {
            "cards": cards[:-2],
            "maybe": [{"id": cards[-1]["id"], "quantity": 2}],
            "note": "Trimmed for speed",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    assert api.patch(url_of(deck), {"name": "Dwarves lean"}, format="json").status_code == 200
    return {**deck, "cards": cards}


def test_the_versions_are_listed_newest_first_with_their_author_note_and_summary(edited):
    page = APIClient().get(url_of(edited, "versions/")).json()
    assert page["count"] == 3
    assert [v["version"] for v in page["results"]] == [3, 2, 1]
    renamed, trimmed, created = page["results"]
    assert trimmed["author"] == "alice" and trimmed["note"] == "Trimmed for speed"
    # Two cards out of their zones, one card planned (in the zone "maybe").
    counts = ("added", "removed", "changed")
    assert {k: trimmed["summary"][k] for k in counts} == {"added": 1, "removed": 2, "changed": 0}
    assert {k: renamed["summary"][k] for k in counts} == {"added": 0, "removed": 0, "changed": 0}
    assert {k: created["summary"][k] for k in counts} == {"added": 20, "removed": 0, "changed": 0}
    # And in words, copies counted (the API's writes never fold: one step each).
    assert renamed["summary"]["text"] == "no cards changed"
    assert trimmed["summary"]["steps"] == 1
    assert [v["first"] for v in page["results"]] == [False, False, True]
    assert set(created) == {"version", "created_at", "author", "note", "summary", "first"}


def test_the_versions_come_in_pages_held_to_the_page_limits(edited):
    first = APIClient().get(url_of(edited, "versions/"), {"page_size": 2}).json()
    assert [v["version"] for v in first["results"]] == [3, 2]
    second = APIClient().get(first["next"]).json()
    assert [v["version"] for v in second["results"]] == [1]
    for name, value in (("page_size", "201"), ("page", "0"), ("page", "x")):
        refused = APIClient().get(url_of(edited, "versions/"), {name: value})
        assert refused.status_code == 400
        assert list(refused.json()["errors"]) == [name]


def test_a_version_reads_whole_in_the_shape_of_a_deck_read(edited):
    api = APIClient()
    now = api.get(url_of(edited)).json()
    first = api.get(url_of(edited, "versions/1/"))
    assert first.status_code == 200
    old = first.json()
    assert set(old) == set(now)
    assert old["version"] == 1 and old["name"] == "Dwarves rush" and now["name"] == "Dwarves lean"
    assert len(old["entries"]) == 20 and len(now["entries"]) == 18
    assert old["maybe"] == [] and now["maybe"][0]["quantity"] == 2
    assert old["legal"] is True and now["legal"] is False
    assert old["id"] == now["id"]
    middle = api.get(url_of(edited, "versions/2/")).json()
    assert middle["maybe"] == now["maybe"] and middle["name"] == "Dwarves rush"


@pytest.mark.parametrize("number", ["4", "1000000000", str(VERSION_MAX)])
def test_a_version_never_kept_is_a_404(edited, number):
    response = APIClient().get(url_of(edited, f"versions/{number}/"))
    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "detail": f"Version {number} of this deck was never kept.",
    }


@pytest.mark.parametrize("number", ["0", "00", str(VERSION_MAX + 1), "9" * 30, "9" * 5000])
def test_a_version_number_past_the_limit_is_a_400_naming_it(edited, number):
    response = APIClient().get(url_of(edited, f"versions/{number}/"))
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "number": [f"A version is a whole number from 1 to {VERSION_MAX:,}."]
    }


def test_a_diff_names_each_card_added_removed_or_changed_and_each_setting(edited):
    cards = edited["cards"]
    diff = APIClient().get(url_of(edited, "diff/"), {"from": 1, "to": 3}).json()
    assert (diff["from"], diff["to"]) == (1, 3)
    assert [(a["card"]["id"], a["quantity"], a["zone"]) for a in diff["added"]] == [
        (cards[-1]["id"], 2, "maybe")
    ]
    assert {r["card"]["id"] for r in diff["removed"]} == {cards[-1]["id"], cards[-2]["id"]}
    assert all(r["quantity"] == 1 for r in diff["removed"])
    assert diff["changed"] == []
    assert diff["settings"] == {"name": {"from": "Dwarves rush", "to": "Dwarves lean"}}
    card = diff["added"][0]["card"]
    assert set(card) == {"id", "name", "url"}
    assert APIClient().get(card["url"]).json()["name"] == card["name"]


def test_a_diff_runs_to_the_current_version_when_to_is_absent_and_either_way(edited, alice):
    api = client_for(alice)
    cards = edited["cards"]
    more = [*cards[:-2], {"id": cards[0]["id"], "quantity": 1}]
    assert api.patch(url_of(edited), {"cards": more}, format="json").json()["version"] == 4
    diff = APIClient().get(url_of(edited, "diff/"), {"from": 3}).json()
    assert diff["to"] == 4 and diff["added"] == [] and diff["removed"] == []
    assert [(c["card"]["id"], c["from"], c["to"]) for c in diff["changed"]] == [
        (cards[0]["id"], 1, 2)
    ]
    backwards = APIClient().get(url_of(edited, "diff/"), {"from": 4, "to": 3}).json()
    assert [(c["from"], c["to"]) for c in backwards["changed"]] == [(2, 1)]


def test_a_card_the_catalogue_no_longer_has_keeps_its_short_id_with_no_name(edited):
    deck = Deck.objects.get(share_key=edited["id"])
    first = DeckVersion.objects.get(deck=deck, number=1)
    first.snapshot["cards"].append(["gone0000", "battle", 2])
    first.save()
    diff = APIClient().get(url_of(edited, "diff/"), {"from": 1}).json()
    gone = [r for r in diff["removed"] if r["card"]["id"] == "gone0000"]
    assert gone == [{"card": {"id": "gone0000", "name": None, "url": None}, "quantity": 2,
                     "zone": "battle"}]  # fmt: skip


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({}, "from"),
        ({"from": "one"}, "from"),
        ({"from": "0"}, "from"),
        ({"from": "-1"}, "from"),
        ({"from": "1.5"}, "from"),
        ({"from": str(VERSION_MAX + 1)}, "from"),
        ({"from": "9" * 400}, "from"),
        ({"from": "1", "to": ""}, "to"),
        ({"from": "1", "to": "latest"}, "to"),
    ],
)
def test_a_diff_s_bad_version_is_a_400_naming_it(edited, params, named):
    response = APIClient().get(url_of(edited, "diff/"), params)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [named]


def test_a_diff_from_or_to_a_version_never_kept_is_a_404(edited):
    assert APIClient().get(url_of(edited, "diff/"), {"from": 9}).status_code == 404
    assert APIClient().get(url_of(edited, "diff/"), {"from": 1, "to": 9}).status_code == 404


def test_a_revert_makes_a_new_version_equal_to_the_old_one(edited, alice):
    api = client_for(alice)
    etag = api.get(url_of(edited))["ETag"]
    response = api.post(url_of(edited, "revert/"), {"version": 1}, HTTP_IF_MATCH=etag)
    assert response.status_code == 200, response.content
    deck = response.json()
    assert deck["version"] == 4 and response["ETag"] == f'"deck-{edited["id"]}-v4"'
    assert deck["name"] == "Dwarves rush" and len(deck["entries"]) == 20 and deck["maybe"] == []
    newest = api.get(url_of(edited, "versions/")).json()["results"][0]
    assert newest["note"] == "Reverted to version 1"
    assert api.get(url_of(edited, "diff/"), {"from": 1}).json()["added"] == []


def test_a_revert_may_name_the_version_it_read_in_its_body(edited, alice):
    body = {"version": 2, "expected_version": 3}
    response = client_for(alice).post(url_of(edited, "revert/"), body, format="json")
    assert response.status_code == 200 and response.json()["name"] == "Dwarves rush"


def test_a_revert_without_if_match_or_expected_version_is_a_428(edited, alice):
    response = client_for(alice).post(url_of(edited, "revert/"), {"version": 1}, format="json")
    assert response.status_code == 428
    assert Deck.objects.get(share_key=edited["id"]).version == 3


def test_a_revert_from_a_stale_version_is_refused_and_changes_nothing(edited, alice):
    api = client_for(alice)
    stale_etag = f'"deck-{edited["id"]}-v2"'
    by_header = api.post(
        url_of(edited, "revert/"), {"version": 1}, HTTP_IF_MATCH=stale_etag, format="json"
    )
    assert by_header.status_code == 412
    assert by_header.json()["code"] == "stale_version" and by_header.json()["current"] == 3
    body = {"version": 1, "expected_version": 2}
    by_body = api.post(url_of(edited, "revert/"), body, format="json")
    assert by_body.status_code == 409 and by_body.json()["current"] == 3
    assert DeckVersion.objects.filter(deck__share_key=edited["id"]).count() == 3


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"version": 3, "expected_version": 3}, 400),  # the current one
        ({"version": 0, "expected_version": 3}, 400),
        ({"version": "1", "expected_version": 3}, 400),
        ({"version": VERSION_MAX + 1, "expected_version": 3}, 400),
        ({"expected_version": 3}, 400),
        ({"version": 7, "expected_version": 3}, 404),  # never kept
    ],
)
def test_a_revert_to_no_version_or_the_current_one_is_refused(edited, alice, body, status):
    response = client_for(alice).post(url_of(edited, "revert/"), body, format="json")
    assert response.status_code == status
    if status == 400:
        assert list(response.json()["errors"]) == ["version"]
    assert Deck.objects.get(share_key=edited["id"]).version == 3


def test_only_the_owner_may_revert(edited, bob):
    body = {"version": 1, "expected_version": 3}
    assert client_for(bob).post(url_of(edited, "revert/"), body, format="json").status_code == 403
    assert APIClient().post(url_of(edited, "revert/"), body, format="json").status_code == 401


def test_two_decks_compare_by_their_cards_and_curves(alice, bob):
    dwarves = new_deck(alice, "public")
    cards = capital_cards()
    other = (
        client_for(bob)
        .post(
            DECKS,
            {
                "game": "conquest-for-the-capital",
                "format": "faction-deck",
                "name": "Dwarves heavy",
                "visibility": "unlisted",
                "cards": [{"id": cards[0]["id"], "quantity": 3}, *cards[1:10]],
            },
            format="json",
        )
        .json()
    )
    response = APIClient().get(f"{DECKS}compare/", {"a": dwarves["id"], "b": other["id"]})
    assert response.status_code == 200
    body = response.json()
    assert body["a"] == {"id": dwarves["id"], "name": "Dwarves rush", "version": 1}
    assert body["b"]["name"] == "Dwarves heavy"
    both = {x["card"]["id"]: (x["a"], x["b"]) for x in body["both"]}
    assert both[cards[0]["id"]] == (1, 3) and len(both) == 10
    assert len(body["only_a"]) == 10 and body["only_b"] == []
    assert all(x["quantity"] == 1 for x in body["only_a"])
    assert body["curves"], "the game's curves, overlaid"
    for curve in body["curves"]:
        assert [s["deck"] for s in curve["series"]] == ["a", "b"]
        assert all(len(s["values"]) == len(curve["labels"]) for s in curve["series"])


def test_decks_of_two_games_do_not_compare(alice):
    dwarves = new_deck(alice, "public")
    nest = client_for(alice).post(
        DECKS, {"game": "fate-foretold", "format": "nest", "name": "N", "cards": []}, format="json"
    )
    response = client_for(alice).get(
        f"{DECKS}compare/", {"a": dwarves["id"], "b": nest.json()["id"]}
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["b"]


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("value", [None, "", "x" * 33, "a b", "../x", "\u0661\u0662"])
def test_a_comparison_needs_two_deck_ids(alice, side, value):
    deck = new_deck(alice, "public")
    params = {"a": deck["id"], "b": deck["id"], side: value}
    if value is None:
        del params[side]
    response = APIClient().get(f"{DECKS}compare/", params)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [side]


def test_a_private_deck_compares_as_no_deck_at_all_for_others(alice, bob):
    public = new_deck(alice, "public")
    private = new_deck(alice, "private")
    hidden = client_for(bob).get(f"{DECKS}compare/", {"a": public["id"], "b": private["id"]})
    missing = client_for(bob).get(f"{DECKS}compare/", {"a": public["id"], "b": "no-such-deck"})
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json()
    assert "b" in hidden.json()["detail"]
    own = client_for(alice).get(f"{DECKS}compare/", {"a": public["id"], "b": private["id"]})
    assert own.status_code == 200


def test_a_variant_of_one_s_own_deck_keeps_its_visibility_and_names_its_parent(edited, alice):
    response = client_for(alice).post(
        url_of(edited, "variants/"), {"name": "vs. aggro", "note": "Branched"}, format="json"
    )
    assert response.status_code == 201
    variant = response.json()
    assert response["Location"] == f"http://testserver{DECKS}{variant['id']}/"
    assert response["ETag"] == f'"deck-{variant["id"]}-v1"'
    assert variant["name"] == "vs. aggro" and variant["visibility"] == "public"
    assert variant["parent"] == {"id": edited["id"], "version": 3}
    assert variant["forked_from"] == edited["id"]
    first = APIClient().get(url_of(variant, "versions/")).json()["results"][0]
    assert first["note"] == "Branched" and first["first"] is True


def test_a_variant_of_someone_else_s_deck_is_a_private_copy_of_one_s_own(edited, bob):
    response = client_for(bob).post(url_of(edited, "variants/"), {"name": "Mine"}, format="json")
    assert response.status_code == 201
    copy = response.json()
    assert (copy["owner"], copy["visibility"]) == ("bob", "private")
    assert APIClient().get(url_of(copy)).status_code == 404


@pytest.mark.parametrize("name", ["", "   ", "x" * (NAME_MAX + 1), 12, None])
def test_a_variant_needs_a_name_of_1_to_120_characters(edited, alice, name):
    body = {"name": name} if name is not None else {}
    response = client_for(alice).post(url_of(edited, "variants/"), body, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["name"]


def test_only_someone_signed_in_may_branch_a_deck(edited):
    response = APIClient().post(url_of(edited, "variants/"), {"name": "x"}, format="json")
    assert response.status_code == 401


def test_the_variants_listed_are_public_ones_and_one_s_own(edited, alice, bob):
    mine = client_for(alice).post(url_of(edited, "variants/"), {"name": "A"}, format="json")
    unlisted = client_for(alice).post(url_of(edited, "variants/"), {"name": "U"}, format="json")
    client_for(alice).patch(url_of(unlisted.json()), {"visibility": "unlisted"}, format="json")
    bobs = client_for(bob).post(url_of(edited, "variants/"), {"name": "B"}, format="json")
    seen_by = {
        "anonymous": APIClient(),
        "alice": client_for(alice),
        "bob": client_for(bob),
    }
    listed = {
        who: {v["name"] for v in api.get(url_of(edited, "variants/")).json()["results"]}
        for who, api in seen_by.items()
    }
    assert listed == {"anonymous": {"A"}, "alice": {"A", "U"}, "bob": {"A", "B"}}
    short = seen_by["alice"].get(url_of(edited, "variants/")).json()["results"][0]
    assert set(short) == {
        "id",
        "name",
        "owner",
        "visibility",
        "version",
        "parent_version",
        "updated_at",
        "url",
    }
    assert short["parent_version"] == 3
    assert mine.status_code == bobs.status_code == 201


def test_a_parent_someone_made_private_is_named_to_its_owner_only(edited, alice, bob):
    copy = client_for(bob).post(url_of(edited, "variants/"), {"name": "B"}, format="json").json()
    client_for(bob).patch(url_of(copy), {"visibility": "public"}, format="json")
    client_for(alice).patch(url_of(edited), {"visibility": "private"}, format="json")
    # Alice reads first, so her record (naming her deck) is the one cached, if any were.
    assert client_for(alice).get(url_of(copy)).json()["parent"]["id"] == edited["id"]
    for api in (APIClient(), client_for(bob)):
        read = api.get(url_of(copy))
        assert read.json()["parent"] is None and read.json()["forked_from"] is None
        assert edited["id"] not in read.content.decode()
        old = api.get(url_of(copy, "versions/1/"))
        assert old.json()["parent"] is None and edited["id"] not in old.content.decode()


def test_a_deleted_parent_is_no_longer_named(edited, alice, bob):
    copy = client_for(alice).post(url_of(edited, "variants/"), {"name": "A"}, format="json")
    client_for(alice).delete(url_of(edited))
    assert APIClient().get(url_of(copy.json())).json()["parent"] is None


def test_a_deck_read_shows_its_planned_cards_and_a_patch_sets_them_by_name_or_id(edited, alice):
    api = client_for(alice)
    cards = edited["cards"]
    named = APIClient().get(f"/api/v1/cards/{cards[0]['id']}/").json()["name"]
    response = api.patch(
        url_of(edited),
        {"maybe": [{"name": named, "quantity": 2}, {"id": cards[1]["id"]}]},
        format="json",
    )
    assert response.status_code == 200
    maybe = response.json()["maybe"]
    assert {(m["card"]["id"], m["quantity"]) for m in maybe} == {
        (cards[0]["id"], 2),
        (cards[1]["id"], 1),
    }
    assert maybe[0]["card"]["url"].startswith("http://testserver/api/v1/cards/")
    # Planned cards are outside the deck: its entries and legality do not change.
    assert len(response.json()["entries"]) == 18
    assert api.patch(url_of(edited), {"maybe": []}, format="json").json()["maybe"] == []


@pytest.mark.parametrize(
    "maybe",
    [
        [{"name": "No Such Card Anywhere"}],
        [{"id": "zzzzzzzz"}],
        [{"id": "x", "name": "y"}],
        [{"quantity": 2}],
        [{"id": "CARD", "quantity": 0}],
        [{"id": "CARD", "quantity": 100}],
        [{"id": "CARD", "quantity": 60}, {"id": "CARD", "quantity": 60}],
        [{"name": f"Card {i}"} for i in range(MAX_MAYBE + 1)],
        "Quartermaster",
        {"id": "CARD"},
    ],
)
def test_planned_cards_beyond_their_limits_or_unknown_are_a_400_naming_maybe(edited, alice, maybe):
    # A card of the deck's game, by its short id, wherever the case names one.
    card = edited["cards"][0]["id"]
    if isinstance(maybe, list):
        maybe = [{**m, "id": card} if m.get("id") == "CARD" else m for m in maybe]
    elif isinstance(maybe, dict):
        maybe = {"id": card}
    response = client_for(alice).patch(url_of(edited), {"maybe": maybe}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["errors"]) == ["maybe"]
    assert Deck.objects.get(share_key=edited["id"]).version == 3


def test_a_patch_keeps_its_note_on_the_version_it_makes_and_a_no_op_makes_none(edited, alice):
    api = client_for(alice)
    done = api.patch(url_of(edited), {"name": "Noted", "note": "  Why  "}, format="json")
    assert done.json()["version"] == 4
    assert api.get(url_of(edited, "versions/")).json()["results"][0]["note"] == "Why"
    same = api.patch(url_of(edited), {"name": "Noted", "note": "Again"}, format="json")
    assert same.status_code == 200 and same.json()["version"] == 4
    assert api.get(url_of(edited, "versions/")).json()["count"] == 4
    too_long = api.patch(url_of(edited), {"name": "X", "note": "n" * (NOTE_MAX + 1)}, format="json")
    assert too_long.status_code == 400 and list(too_long.json()["errors"]) == ["note"]
    assert api.get(url_of(edited)).json()["name"] == "Noted"


def test_a_page_of_versions_costs_the_same_queries_however_many_it_holds(edited, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_for_a_page():
        with CaptureQueriesContext(connection) as queries:
            assert APIClient().get(url_of(edited, "versions/")).status_code == 200
        return len(queries)

    few = queries_for_a_page()
    api = client_for(alice)
    for n in range(12):
        api.patch(url_of(edited), {"name": f"Name {n}", "note": f"rename {n}"}, format="json")
    assert APIClient().get(url_of(edited, "versions/")).json()["count"] == 15
    assert queries_for_a_page() == few
