"""Fifty writes of each kind at once against the default set-up: SQLite in a file, its WAL,
busy timeout and IMMEDIATE write transactions as `make run` has them (the test database is a
file with the site's settings, cardsite/settings/test.py), served by Django's threaded
server over real HTTP. No answer may be a 5xx, and nothing may be lost: writers queue for the
file's write lock rather than fail ("database is locked") the moment two overlap.

What the requests need is committed first (the server's threads have connections of their
own) and deleted afterwards. PostgreSQL's concurrent writers are tested in
tests/decks/test_concurrency.py.
"""

import secrets
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection, connections
from django.test import Client
from django.test.testcases import LiveServerThread
from rest_framework.authtoken.models import Token

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard, CollectionShare, Pool
from cardsite.collection.services.pools import MAX_POOL_MEMBERS
from cardsite.devserver.management.commands.runserver import LISTEN_BACKLOG
from decks.models import Deck, DeckVersion
from decks.services import Intake, RequestedCard, deck_create
from tests.live_server import start_live_server

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the default set-up's SQLite file under concurrent writes"
)
AT_ONCE = 50
API = "/api/v1"


class _Server(ThreadedWSGIServer):
    # The listen queue of `make run`'s runserver (Django's own holds 10, and the kernel would
    # reset the rest of fifty connections opened at once).
    request_queue_size = LISTEN_BACKLOG


class _ServerThread(LiveServerThread):
    server_class = _Server


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker) -> Iterator[str]:
    with django_db_blocker.unblock():
        thread, url = start_live_server(_ServerThread)
        yield url
        thread.terminate()


@pytest.fixture(autouse=True)
def unthrottled(settings):
    # Fifty writes a second from one user are past the write rate: this is about the lock.
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {scope: "1000000/min" for scope in rates},
    }


@pytest.fixture
def live(site, django_db_blocker) -> Iterator[str]:
    # The server's threads reach the database while the test fires requests.
    with django_db_blocker.unblock():
        yield site


def _user(name: str) -> tuple[User, str]:
    user = User.objects.create_user(name, password="x-Long-pass-9")
    return user, Token.objects.create(user=user).key


@pytest.fixture
def owner(live) -> Iterator[dict[str, Any]]:
    user, token = _user("lockstep")
    game = Game.objects.get(slug="conquest-for-the-capital")
    dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
    deck = deck_create(
        owner=user,
        game=game,
        format_slug="faction-deck",
        name="Contested",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in dwarves)),
    )
    yield {"user": user, "token": token, "deck": deck}
    Pool.objects.filter(created_by=user).delete()
    User.objects.filter(pk=user.pk).delete()


@pytest.fixture
def signed_in(owner) -> dict[str, Any]:
    """The owner's browser: a session cookie, and a CSRF cookie with its header."""
    browser = Client()
    browser.force_login(owner["user"])
    csrf = secrets.token_hex(16)  # 32 characters, as Django's own token secrets are
    return {
        "cookies": {"sessionid": browser.cookies["sessionid"].value, "csrftoken": csrf},
        "headers": {"X-CSRFToken": csrf},
    }


@pytest.fixture
def friends(live) -> Iterator[list[tuple[User, str]]]:
    made = [_user(f"lockstep-friend-{n}") for n in range(AT_ONCE)]
    yield made
    Pool.objects.filter(created_by__in=[user for user, _ in made]).delete()
    User.objects.filter(pk__in=[user.pk for user, _ in made]).delete()


def fire(calls: list[tuple[str, str, dict[str, Any]]]) -> list[requests.Response]:
    """Every (method, url, keyword arguments) at once, each on a connection of its own."""
    start = threading.Barrier(len(calls))

    def send(call: tuple[str, str, dict[str, Any]]) -> requests.Response:
        method, url, kwargs = call
        start.wait()
        return requests.request(method, url, timeout=120, allow_redirects=False, **kwargs)

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(send, calls))


def statuses(answers: list[requests.Response]) -> Counter[int]:
    failed = [(a.status_code, a.text[:300]) for a in answers if a.status_code >= 500]
    assert not failed, failed
    return Counter(a.status_code for a in answers)


def token(key: str) -> dict[str, str]:
    return {"Authorization": f"Token {key}"}


def versions_of(deck: Deck) -> list[int]:
    return list(DeckVersion.objects.filter(deck=deck).values_list("number", flat=True))


def test_fifty_renames_at_once_are_all_saved_each_as_a_version_of_its_own(live, owner):
    deck = owner["deck"]
    url = f"{live}{API}/decks/{deck.share_key}/"
    answers = fire(
        [
            ("PATCH", url, {"json": {"name": f"Name {n}"}, "headers": token(owner["token"])})
            for n in range(AT_ONCE)
        ]
    )
    assert statuses(answers) == {200: AT_ONCE}
    deck.refresh_from_db()
    assert deck.version == 1 + AT_ONCE
    assert sorted(versions_of(deck)) == list(range(1, AT_ONCE + 2))
    assert sorted(a.json()["version"] for a in answers) == list(range(2, AT_ONCE + 2))


def test_fifty_reverts_of_one_version_at_once_let_exactly_one_through(live, owner):
    deck, key = owner["deck"], owner["token"]
    url = f"{live}{API}/decks/{deck.share_key}/"
    assert requests.patch(url, json={"name": "Renamed"}, headers=token(key)).status_code == 200
    body = {"version": 1, "expected_version": 2}
    answers = fire([("POST", f"{url}revert/", {"json": body, "headers": token(key)})] * AT_ONCE)
    assert statuses(answers) == {200: 1, 409: AT_ONCE - 1}
    deck.refresh_from_db()
    assert (deck.version, deck.name) == (3, "Contested")
    assert sorted(versions_of(deck)) == [1, 2, 3]


def test_fifty_forks_variants_builds_unbuilds_and_deletes_at_once_all_happen(live, owner):
    deck, key = owner["deck"], owner["token"]
    url = f"{live}{API}/decks/{deck.share_key}/"
    forks = fire([("POST", f"{url}fork/", {"headers": token(key)})] * AT_ONCE)
    assert statuses(forks) == {201: AT_ONCE}
    variants = fire(
        [
            ("POST", f"{url}variants/", {"json": {"name": f"Variant {n}"}, "headers": token(key)})
            for n in range(AT_ONCE)
        ]
    )
    assert statuses(variants) == {201: AT_ONCE}
    copies = [a.json()["id"] for a in forks]
    mine = Deck.objects.filter(owner=owner["user"])
    assert mine.filter(share_key__in=copies).count() == AT_ONCE
    assert mine.filter(forked_from=deck).count() == 2 * AT_ONCE

    built = fire(
        [("POST", f"{live}{API}/decks/{c}/build/", {"headers": token(key)}) for c in copies]
    )
    assert statuses(built) == {200: AT_ONCE}
    assert mine.filter(built_at__isnull=False).count() == AT_ONCE
    unbuilt = fire(
        [("DELETE", f"{live}{API}/decks/{c}/build/", {"headers": token(key)}) for c in copies]
    )
    assert statuses(unbuilt) == {204: AT_ONCE}
    assert not mine.filter(built_at__isnull=False).exists()

    deleted = fire([("DELETE", f"{live}{API}/decks/{c}/", {"headers": token(key)}) for c in copies])
    assert statuses(deleted) == {204: AT_ONCE}
    assert mine.filter(share_key__in=copies, deleted_at__isnull=False).count() == AT_ONCE
    assert mine.filter(deleted_at__isnull=True).count() == 1 + AT_ONCE


def test_fifty_pluses_on_a_card_not_yet_owned_make_exactly_fifty_copies(live, owner, signed_in):
    card = Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort").first()
    url = f"{live}/collection/cards/{card.short_id}/"
    answers = fire([("POST", url, {"data": {"step": "1"}, **signed_in})] * AT_ONCE)
    assert statuses(answers) == {302: AT_ONCE}
    owned = CollectionCard.objects.filter(owner=owner["user"], card=card)
    assert list(owned.values_list("quantity", flat=True)) == [AT_ONCE]


def test_fifty_quantities_put_at_once_leave_one_of_them(live, owner):
    card = Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort").last()
    url = f"{live}{API}/collection/cards/{card.short_id}/"
    answers = fire(
        [
            ("PUT", url, {"json": {"quantity": n}, "headers": token(owner["token"])})
            for n in range(1, AT_ONCE + 1)
        ]
    )
    assert statuses(answers) == {200: AT_ONCE}
    owned = CollectionCard.objects.filter(owner=owner["user"], card=card)
    assert len(owned) == 1
    assert 1 <= owned[0].quantity <= AT_ONCE


def test_fifty_shares_made_and_withdrawn_at_once_all_happen(live, owner, friends):
    url = f"{live}{API}/collection/shares/"
    key = owner["token"]
    made = fire(
        [
            ("POST", url, {"json": {"username": u.username}, "headers": token(key)})
            for u, _ in friends
        ]
    )
    assert statuses(made) == {201: AT_ONCE}
    shares = CollectionShare.objects.filter(owner=owner["user"])
    assert shares.count() == AT_ONCE
    gone = fire([("DELETE", f"{url}{u.username}/", {"headers": token(key)}) for u, _ in friends])
    assert statuses(gone) == {204: AT_ONCE}
    assert not shares.exists()


def test_fifty_invitations_and_acceptances_at_once_keep_a_pools_limits(live, owner, friends):
    url = f"{live}{API}/collection/pool/"
    key = owner["token"]
    assert requests.post(url, json={"name": "Club"}, headers=token(key)).status_code == 201
    pool = Pool.objects.get(created_by=owner["user"])
    invited = fire(
        [
            ("POST", f"{url}invite/", {"json": {"username": u.username}, "headers": token(key)})
            for u, _ in friends
        ]
    )
    assert statuses(invited) == {200: MAX_POOL_MEMBERS - 1, 400: AT_ONCE - MAX_POOL_MEMBERS + 1}
    assert pool.members.count() == MAX_POOL_MEMBERS
    accepted = fire(
        [
            ("POST", f"{url}accept/", {"json": {"pool": pool.pk}, "headers": token(k)})
            for _, k in friends
        ]
    )
    answered = statuses(accepted)
    assert answered[200] == MAX_POOL_MEMBERS - 1
    assert answered[200] + answered[400] + answered[404] == AT_ONCE
    assert pool.members.filter(accepted_at__isnull=False).count() == MAX_POOL_MEMBERS


def test_fifty_pools_made_and_left_at_once_all_happen(live, friends):
    url = f"{live}{API}/collection/pool/"
    made = fire(
        [
            ("POST", url, {"json": {"name": f"Table {n}"}, "headers": token(k)})
            for n, (_, k) in enumerate(friends)
        ]
    )
    assert statuses(made) == {201: AT_ONCE}
    theirs = Pool.objects.filter(created_by__in=[u for u, _ in friends])
    assert theirs.count() == AT_ONCE
    left = fire([("POST", f"{url}leave/", {"headers": token(k)}) for _, k in friends])
    assert statuses(left) == {200: AT_ONCE}
    assert not theirs.exists()


@pytest.mark.parametrize("form", ["json", "csv"])
def test_ten_imports_at_once_by_one_user_keep_the_999_copies_limit(live, owner, form):
    # Each adds 100 copies of one printing: nine fit under 999, the tenth would pass it. The
    # imports read what is held under the owner's lock, so exactly one of them is refused,
    # whether it came as a pasted list (JSON) or a CSV upload (multipart).
    card = Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort").first()
    game = "conquest-for-the-capital"
    if form == "json":
        url, field = f"{live}{API}/collection/import/", "text"
        sent = {"json": {"game": game, "text": f"100 {card.name}", "mode": "add"}}
    else:
        url, field = f"{live}{API}/collection/import/csv/", "csv"
        sheet = f"name,quantity\n{card.name},100\n".encode()
        sent = {"data": {"game": game, "mode": "add"}, "files": {"csv": ("c.csv", sheet)}}
    answers = fire([("POST", url, {**sent, "headers": token(owner["token"])})] * 10)
    assert statuses(answers) == {200: 9, 400: 1}
    refused = next(a for a in answers if a.status_code == 400)
    assert "at most 999" in refused.json()["errors"][field][0]
    owned = CollectionCard.objects.filter(owner=owner["user"], card=card)
    assert list(owned.values_list("quantity", flat=True)) == [900]


def test_ten_replacing_json_imports_at_once_leave_exactly_one_of_the_lists(live, owner):
    cards = list(Card.objects.filter(card_set__code="CFC-SMP").order_by("number_sort")[:10])
    url = f"{live}{API}/collection/import/"
    lists = [f"{n + 1} {c.name} (CFC-SMP) {c.number}" for n, c in enumerate(cards)]
    game = "conquest-for-the-capital"
    answers = fire(
        [
            (
                "POST",
                url,
                {
                    "json": {"game": game, "text": text, "mode": "replace"},
                    "headers": token(owner["token"]),
                },
            )
            for text in lists
        ]
    )
    assert statuses(answers) == {200: 10}
    held = list(CollectionCard.objects.filter(owner=owner["user"]).values_list("card", "quantity"))
    assert len(held) == 1
    assert held[0] in {(c.pk, n + 1) for n, c in enumerate(cards)}


@pytest.fixture
def write_lock_held(live, monkeypatch) -> Iterator[None]:
    """Another process's write transaction on the file, held for as long as the test runs,
    and a busy timeout of a tenth of a second for the server's connections, each opened anew
    for its request: a write certainly waits past it, however busy the machine."""
    monkeypatch.setitem(connections.settings["default"]["OPTIONS"], "timeout", 0.1)
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield
    other.execute("ROLLBACK")
    other.close()


def test_a_write_that_cannot_get_the_lock_in_time_is_a_503_with_retry_after(
    live, owner, signed_in, write_lock_held
):
    deck = owner["deck"]
    api = requests.patch(
        f"{live}{API}/decks/{deck.share_key}/",
        json={"name": "Never saved"},
        headers=token(owner["token"]),
    )
    assert api.status_code == 503
    assert api.headers["Retry-After"] == "2"
    assert api.json()["code"] == "busy"
    assert "waited 0.1 seconds" in api.json()["detail"]
    assert "nothing was saved" in api.json()["detail"]

    page = requests.post(
        f"{live}/decks/{deck.share_key}/delete/", allow_redirects=False, **signed_in
    )
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "2"
    assert page.headers["Content-Type"].startswith("text/html")
    assert "nothing was saved" in page.text
    deck.refresh_from_db()
    assert (deck.name, deck.deleted_at, deck.version) == ("Contested", None, 1)


def test_a_page_is_read_while_another_connection_holds_the_write_lock(
    live, owner, signed_in, write_lock_held
):
    # Read-only requests begin DEFERRED, and WAL lets them read beside the writer.
    deck = owner["deck"]
    assert requests.get(f"{live}/decks/{deck.share_key}/", **signed_in).status_code == 200
    api = requests.get(f"{live}{API}/decks/{deck.share_key}/", headers=token(owner["token"]))
    assert api.status_code == 200


def test_ten_pasted_lists_with_sideboards_at_once_each_leave_a_whole_deck_and_plan(live, owner):
    deck, key = owner["deck"], owner["token"]
    url = f"{live}{API}/decks/{deck.share_key}/"
    dwarves = list(deck.entries.select_related("card__card_set").order_by("card__short_id"))
    others = list(
        Card.objects.filter(card_set__code="CFC-SMP")
        .exclude(factions__name="Dwarves")
        .select_related("card_set")
        .order_by("short_id")[:10]
    )
    assert len(others) == 10

    def text(n: int) -> str:
        # Writer n drops the n-th dwarf card and plans the n-th other card, n + 1 copies.
        rows = [f"1 {e.card.name} ({e.card.card_set.code}) {e.card.number}" for e in dwarves]
        del rows[n]
        c = others[n]
        return "\n".join(
            [*rows, "", "Sideboard", f"{n + 1} {c.name} ({c.card_set.code}) {c.number}"]
        )

    stale = fire(
        [
            ("PATCH", url, {"json": {"text": text(n), "version": 1}, "headers": token(key)})
            for n in range(10)
        ]
    )
    assert statuses(stale) == {200: 1, 409: 9}
    deck.refresh_from_db()
    assert deck.version == 2
    answers = fire(
        [("PATCH", url, {"json": {"text": text(n)}, "headers": token(key)}) for n in range(10)]
    )
    # Without a version each write applies to the deck as it is then (as the renames above).
    assert statuses(answers) == {200: 10}
    deck.refresh_from_db()
    assert sorted(versions_of(deck)) == list(range(1, 13))
    # The deck and its plan are one writer's list, never a mix of two.
    plan = list(deck.maybe.values_list("card__short_id", "quantity"))
    [(planned_id, copies)] = plan
    n = copies - 1
    assert planned_id == others[n].short_id
    kept = {e.card.short_id for i, e in enumerate(dwarves) if i != n}
    assert set(deck.entries.values_list("card__short_id", flat=True)) == kept


@pytest.fixture
def proposers(live) -> Iterator[dict[str, Any]]:
    """A player with 45 open proposals, ten curators of the game, and the card they concern;
    the card's every column is put back afterwards, as later tests read it as loaded."""
    import datetime as dt

    from django.utils import timezone

    from cardsite.catalogue.models import CardChange
    from cardsite.contributions.models import Curator
    from cardsite.contributions.services.proposals import SourceInput, proposal_create

    game = Game.objects.get(slug="conquest-for-the-capital")
    card = Card.objects.filter(game=game, card_set__code="CFC-RB").order_by("number_sort")[0]
    saved = {
        f.attname: getattr(card, f.attname) for f in Card._meta.concrete_fields if not f.primary_key
    }
    people = [_user(f"lockstep-proposer-{n}") for n in range(11)]
    User.objects.filter(pk__in=[u.pk for u, _ in people]).update(
        date_joined=timezone.now() - dt.timedelta(hours=2)
    )
    (player, player_token), curators = people[0], people[1:]
    Curator.objects.bulk_create(Curator(user=user, game=game) for user, _ in curators)
    for n in range(45):
        proposal_create(
            proposer=User.objects.get(pk=player.pk),
            game=game,
            kind="edit",
            card=card,
            changes={"flavour": f"Held open {n}."},
            source=SourceInput(kind="rulebook", text="p. 3"),
        )
    yield {"player": player, "token": player_token, "curators": curators, "card": card}
    CardChange.objects.filter(card=card, proposal__isnull=False).delete()
    Card.objects.filter(pk=card.pk).update(**saved)
    User.objects.filter(pk__in=[u.pk for u, _ in people]).delete()


def test_ten_proposals_at_once_from_a_player_with_45_open_let_exactly_five_through(live, proposers):
    from cardsite.contributions.models import Proposal

    card = proposers["card"]
    body = {
        "game": "conquest-for-the-capital",
        "card": card.short_id,
        "source": {"kind": "rulebook", "text": "p. 3"},
    }
    answers = fire(
        [
            (
                "POST",
                f"{live}{API}/proposals/",
                {
                    "json": {**body, "changes": {"flavour": f"At once {n}."}},
                    "headers": token(proposers["token"]),
                },
            )
            for n in range(10)
        ]
    )
    assert statuses(answers) == {201: 5, 429: 5}
    open_ = Proposal.objects.filter(proposer=proposers["player"], status="open")
    assert open_.count() == 50


def test_ten_curators_approving_one_proposal_at_once_let_exactly_one_through(live, proposers):
    from cardsite.catalogue.models import CardChange
    from cardsite.contributions.models import Proposal

    proposal = Proposal.objects.filter(proposer=proposers["player"]).order_by("pk")[0]
    answers = fire(
        [
            ("POST", f"{live}{API}/proposals/{proposal.pk}/approve/", {"headers": token(key)})
            for _, key in proposers["curators"]
        ]
    )
    assert statuses(answers) == {200: 1, 409: 9}
    assert {a.json()["code"] for a in answers if a.status_code == 409} == {"closed"}
    proposals_card = proposers["card"]
    proposals_card.refresh_from_db()
    assert proposals_card.flavour_text == "Held open 0."
    assert CardChange.objects.filter(proposal=proposal.pk).count() == 1
