"""Guessing passwords, on the site's log-in page, the admin's and the API's token endpoint
alike. Three locks, each at its own limit: a username from one address (LOGIN_FAILURE_LIMIT),
an address whatever the usernames (LOGIN_ADDRESS_FAILURE_LIMIT), and a username from every
address (LOGIN_USERNAME_FAILURE_LIMIT, which a password reset lifts). A lockout is a 429 that
says which lock and when to try again, and signs nobody in."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"
NEW_PASSWORD = "another-Long-pass-43"
LOGIN = "/accounts/login/"
HOME = "203.0.113.1"
ELSEWHERE = "198.51.100.7"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", email="alice@example.com", password=PASSWORD)


def attempt(client, username, password, url=LOGIN, address=HOME):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def assert_locked(response, limit, what):
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 900
    page = response.content.decode()
    assert f"after {limit} failures, log-in is locked for {what} for 15 minutes" in page
    # However slow the machine, the wait is counted down from the cool-off, never past it.
    assert re.search(r"Try again in (1[0-5]|[1-9]) minutes?\.", page)


def test_the_failure_that_reaches_the_limit_locks_the_username_from_that_address(
    alice, client, settings
):
    answers = [attempt(client, "alice", "wrong").status_code for _ in range(5)]
    assert answers == [200, 200, 200, 200, 429]
    assert_locked(attempt(client, "alice", PASSWORD), 5, "that username from this address")
    assert "_auth_user_id" not in client.session


def test_guesses_at_a_username_from_one_address_do_not_lock_its_owner_out_elsewhere(alice):
    for _ in range(5):
        attempt(Client(), "alice", "wrong")
    assert attempt(Client(), "alice", PASSWORD).status_code == 429
    owner = Client()
    assert attempt(owner, "alice", PASSWORD, address=ELSEWHERE).status_code == 302
    assert "_auth_user_id" in owner.session


def test_guesses_from_many_addresses_lock_a_username_only_at_the_username_limit(alice):
    # Four guesses from each of twelve addresses: no address or pair lock, 48 failures.
    for n in range(48):
        attempt(Client(), "alice", "wrong", address=f"203.0.113.{10 + n // 4}")
    assert attempt(Client(), "alice", PASSWORD, address=ELSEWHERE).status_code == 302
    for n in range(50):
        attempt(Client(), "alice", "wrong", address=f"203.0.113.{10 + n // 4}")
    locked = attempt(Client(), "alice", PASSWORD, address=ELSEWHERE)
    assert_locked(locked, 50, "that username from every address")
    assert "a password reset link lets you in" in locked.content.decode()


def test_the_owner_of_a_locked_username_gets_in_through_a_password_reset_link(alice, settings):
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 8
    for n in range(8):
        attempt(Client(), "alice", "wrong", address=f"203.0.113.{10 + n}")
    owner = Client()
    assert attempt(owner, "alice", PASSWORD, address=ELSEWHERE).status_code == 429
    owner.post("/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR=ELSEWHERE)
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = owner.get(link, follow=True, REMOTE_ADDR=ELSEWHERE)
    new = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert owner.post(form.redirect_chain[-1][0], new).status_code == 302
    assert attempt(owner, "alice", NEW_PASSWORD, address=ELSEWHERE).status_code == 302
    assert "_auth_user_id" in owner.session


def test_an_address_is_locked_at_the_address_limit_whatever_usernames_it_guesses(alice):
    client = Client()
    for n in range(19):
        assert attempt(client, f"nobody{n}", "wrong").status_code == 200
    assert attempt(client, "nobody19", "wrong").status_code == 429
    assert_locked(attempt(client, "alice", PASSWORD), 20, "this address, whatever the username")
    # Alice herself, from her own address, is not locked out by someone else's guessing.
    assert attempt(Client(), "alice", PASSWORD, address=ELSEWHERE).status_code == 302


def test_logging_in_to_an_account_of_ones_own_does_not_clear_the_address_count(alice):
    client = Client()
    for n in range(19):
        attempt(client, f"nobody{n}", "wrong")
    assert attempt(client, "alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/", REMOTE_ADDR=HOME)
    assert attempt(client, "nobody19", "wrong").status_code == 429


def test_a_forged_forwarded_for_header_does_not_unlock_an_address(alice):
    client = Client()
    for n in range(20):
        client.post(
            LOGIN,
            {"username": f"nobody{n}", "password": "wrong"},
            REMOTE_ADDR=HOME,
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
    assert attempt(client, "bob", "wrong").status_code == 429


def test_a_flood_of_usernames_from_one_address_stores_no_more_rows_than_the_address_limit():
    client = Client()
    for n in range(60):
        attempt(client, f"nobody{n}", "wrong")
    assert AccessAttempt.objects.count() == 20


def test_failures_while_locked_out_do_not_prolong_the_lockout(alice):
    client = Client()
    for _ in range(5):
        attempt(client, "alice", "wrong")
    (row,) = AccessAttempt.objects.all()
    locked_at = row.attempt_time
    for _ in range(3):
        assert attempt(client, "alice", "wrong").status_code == 429
    row.refresh_from_db()
    assert (row.attempt_time, row.failures_since_start) == (locked_at, 5)


def test_the_admin_log_in_is_locked_out_by_the_same_rule(settings):
    User.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    answers = [attempt(client, "root", "wrong", url="/admin/login/").status_code for _ in range(5)]
    assert answers[-1] == 429
    assert attempt(client, "root", PASSWORD, url="/admin/login/").status_code == 429
    assert "_auth_user_id" not in client.session
    elsewhere = Client()
    answer = attempt(elsewhere, "root", PASSWORD, url="/admin/login/", address=ELSEWHERE)
    assert answer.status_code == 302
    assert "_auth_user_id" in elsewhere.session


def test_the_api_token_endpoint_is_locked_out_with_a_json_429_and_issues_no_token(alice, api):
    answers = [
        api.post(
            "/api/v1/auth/token/", {"username": "alice", "password": "wrong"}, format="json"
        ).status_code
        for _ in range(5)
    ]
    assert answers == [400, 400, 400, 400, 429]
    refused = api.post(
        "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert refused.status_code == 429
    assert refused.json()["code"] == "locked_out"
    assert "after 5 failures, log-in is locked for that username" in refused.json()["detail"]
    assert 0 < int(refused["Retry-After"]) <= 900
    assert not Token.objects.exists()


def test_a_wrong_password_at_the_api_is_a_json_400_naming_the_problem(alice, api):
    wrong = api.post("/api/v1/auth/token/", {"username": "alice", "password": "no"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid"
    assert wrong.json()["errors"]["non_field_errors"]


def test_a_success_before_the_limit_clears_the_count(alice, client):
    for _ in range(4):
        attempt(client, "alice", "wrong")
    assert attempt(client, "alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    assert attempt(client, "alice", "wrong").status_code == 200


def test_logging_in_without_a_request_still_works_for_tests_and_scripts(alice):
    client = Client()
    assert client.login(username="alice", password=PASSWORD)
    assert "Log out alice" in client.get("/").content.decode()


@pytest.mark.parametrize("forwarded", ["not-an-address", "", "999.1.1.1", "unknown, <script>"])
def test_a_failure_from_an_address_that_is_no_ip_address_is_counted_not_a_server_error(
    alice, settings, forwarded
):
    # Behind a proxy the address is the forwarded header's text, which a client writes: the
    # address column (inet, on PostgreSQL) must never be handed it.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = Client()
    for _ in range(5):
        response = client.post(
            LOGIN,
            {"username": "alice", "password": "wrong"},
            REMOTE_ADDR=HOME,
            HTTP_X_FORWARDED_FOR=forwarded,
        )
        assert response.status_code in (200, 429)
    assert response.status_code == 429


def test_the_api_token_endpoint_answers_a_request_with_no_address_at_all(alice, api):
    response = api.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "wrong"}, REMOTE_ADDR=""
    )
    assert response.status_code == 400
