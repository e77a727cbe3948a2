"""Guessing passwords: after LOGIN_FAILURE_LIMIT failures one username, or one address, is
locked out for the cool-off, on the site's log-in page, the admin's and the API's token
endpoint alike. The lockout is a 429 that says when to try again, and signs nobody in."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"
LOGIN = "/accounts/login/"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", password=PASSWORD)


def attempt(client, username, password, url=LOGIN, address="203.0.113.1"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def fail_to_limit(client, settings, username="alice", address="203.0.113.1", url=LOGIN):
    """Fail as many times as the limit allows; the last failure is the one that locks."""
    answers = [
        attempt(client, username, "wrong", url=url, address=address).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    return answers


def test_the_failure_that_reaches_the_limit_locks_the_account_and_says_when_to_retry(
    alice, client, settings
):
    answers = fail_to_limit(client, settings)
    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]

    locked = attempt(client, "alice", PASSWORD)
    assert locked.status_code == 429
    assert locked["Retry-After"] == "900"
    page = locked.content.decode()
    assert f"after {settings.AXES_FAILURE_LIMIT} failures" in page
    assert "Try again in 15 minutes" in page
    assert "_auth_user_id" not in client.session


def test_an_account_is_locked_whichever_addresses_the_guesses_come_from(alice, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(Client(), "alice", "wrong", address=f"203.0.113.{n + 10}")
    fresh = Client()
    assert attempt(fresh, "alice", PASSWORD, address="198.51.100.7").status_code == 429
    assert "_auth_user_id" not in fresh.session


def test_an_address_is_locked_whichever_usernames_it_guesses(alice, settings):
    client = Client()
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, f"nobody{n}", "wrong")
    assert attempt(client, "alice", PASSWORD).status_code == 429
    # Alice herself, from her own address, is not locked out by someone else's guessing.
    elsewhere = Client()
    assert attempt(elsewhere, "alice", PASSWORD, address="198.51.100.7").status_code == 302


def test_a_forged_forwarded_for_header_does_not_unlock_an_address(alice, settings):
    client = Client()
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            LOGIN,
            {"username": f"nobody{n}", "password": "wrong"},
            REMOTE_ADDR="203.0.113.1",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
    assert attempt(client, "bob", "wrong").status_code == 429


def test_the_admin_log_in_is_locked_out_too(settings):
    User.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    answers = fail_to_limit(client, settings, username="root", url="/admin/login/")
    assert answers[-1] == 429
    assert attempt(client, "root", PASSWORD, url="/admin/login/").status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_api_token_endpoint_is_locked_out_with_a_json_429_and_issues_no_token(
    alice, api, settings
):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        api.post("/api/v1/auth/token/", {"username": "alice", "password": "wrong"}, format="json")
    refused = api.post(
        "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert refused.status_code == 429
    assert refused.json()["code"] == "locked_out"
    assert f"after {settings.AXES_FAILURE_LIMIT} failures" in refused.json()["detail"]
    assert refused["Retry-After"] == "900"
    assert not Token.objects.exists()


def test_failures_are_counted_in_the_cache_not_stored_in_the_database(alice, client, settings):
    fail_to_limit(client, settings)
    assert not AccessAttempt.objects.exists()


def test_a_success_before_the_limit_clears_the_count(alice, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, "alice", "wrong")
    assert attempt(client, "alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    assert attempt(client, "alice", "wrong").status_code == 200


def test_logging_in_without_a_request_still_works_for_tests_and_scripts(alice):
    client = Client()
    assert client.login(username="alice", password=PASSWORD)
    assert "Log out alice" in client.get("/").content.decode()
