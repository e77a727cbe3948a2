"""Accounts under attack: a new password revokes API tokens, a username cannot pass for
another, sign-up and password reset tell nobody which names or emails exist, and a reset mail
that cannot be sent says so."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.accounts import NOT_AVAILABLE

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"
NEW_PASSWORD = "another-Long-pass-77"
CYRILLIC_A = "\u0430"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", email="alice@example.com", password=PASSWORD)


def token_works(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get("/api/v1/decks/", {"mine": "true"}).status_code == 200


def sign_up(username, email="", client=None):
    body = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return (client or Client()).post("/accounts/signup/", body)


# --- a new password revokes API tokens --------------------------------------------------------


def test_changing_the_password_on_the_site_revokes_the_api_token(alice):
    token = Token.objects.create(user=alice)
    assert token_works(token.key)
    client = Client()
    client.force_login(alice)
    response = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/password_change/done/"
    assert not Token.objects.filter(user=alice).exists()
    assert not token_works(token.key)
    assert "Log out alice" in client.get("/").content.decode()  # this session goes on


def test_resetting_the_password_by_email_revokes_the_api_token(alice):
    token = Token.objects.create(user=alice)
    client = Client()
    response = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    (message,) = mail.outbox
    link = re.search(r"http://testserver(/accounts/reset/\S+)", message.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Set a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert not token_works(token.key)
    assert Client().login(username="alice", password=NEW_PASSWORD)


def test_a_token_taken_after_the_change_works(alice):
    alice.set_password(NEW_PASSWORD)
    alice.save()
    taken = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": NEW_PASSWORD}, format="json"
    )
    assert taken.status_code == 200 and token_works(taken.json()["token"])


def test_saving_a_user_without_a_new_password_leaves_the_token(alice):
    token = Token.objects.create(user=alice)
    alice.first_name = "Alice"
    alice.save()
    assert token_works(token.key)


# --- usernames ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lookalike",
    [
        f"{CYRILLIC_A}lice",  # one Cyrillic letter among Latin ones
        "ALICE",  # another case
        "\uff41\uff4c\uff49\uff43\uff45",  # full-width letters, the same after NFKC
    ],
)
def test_a_username_that_looks_like_a_taken_one_is_refused(alice, lookalike):
    response = sign_up(lookalike)
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [NOT_AVAILABLE]
    assert User.objects.count() == 1


def test_a_name_wholly_of_letters_that_pass_for_latin_ones_is_refused_even_unclaimed():
    # Cyrillic "ape": whoever later signs up as the Latin "ape" would have a double.
    response = sign_up(f"{CYRILLIC_A}\u0440\u0435")
    assert response.context["form"].errors["username"] == [NOT_AVAILABLE]
    assert not User.objects.exists()


def test_a_name_in_another_script_that_looks_like_no_latin_name_is_welcome():
    assert sign_up("\u0418\u0432\u0430\u043d").status_code == 302  # Иван
    assert User.objects.filter(username="\u0418\u0432\u0430\u043d").exists()


def test_a_taken_name_and_a_lookalike_get_the_very_same_answer(alice):
    taken = sign_up("alice").content.decode()
    lookalike = sign_up(f"{CYRILLIC_A}lice").content.decode()
    # All but the name typed in and the page's CSRF token.
    strip = re.compile(r'value="[^"]*"|"X-CSRFToken": "[^"]*"')
    assert strip.sub("", taken) == strip.sub("", lookalike)


def test_sign_up_never_says_an_email_is_in_use(alice):
    response = sign_up("bob", email="alice@example.com")
    assert response.status_code == 302
    assert User.objects.get(username="bob").email == "alice@example.com"


# --- password reset -----------------------------------------------------------------------


def test_a_reset_for_an_unknown_email_looks_the_same_as_for_a_known_one(alice):
    known = Client().post("/accounts/password_reset/", {"email": "alice@example.com"})
    unknown = Client().post("/accounts/password_reset/", {"email": "nobody@example.com"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("email", ["alice@example.com", "nobody@example.com"])
def test_when_the_mail_server_is_down_the_reset_page_says_so_for_any_address(
    alice, settings, caplog, email
):
    settings.EMAIL_BACKEND = "tests.hostile.mail.DownBackend"
    response = Client().post("/accounts/password_reset/", {"email": email})
    assert response.status_code == 200
    assert "We could not send the email just now" in response.content.decode()
    assert "password reset mail not sent" in caplog.text


def test_a_reset_mail_the_server_refuses_is_reported_not_passed_over(alice, settings, caplog):
    settings.EMAIL_BACKEND = "tests.hostile.mail.RefusingBackend"
    response = Client().post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert response.status_code == 200
    assert "no reset link went out" in response.content.decode()
    assert "Transaction failed" in caplog.text


def test_reset_requests_are_throttled_per_address_and_a_refused_one_sends_nothing(alice, rates):
    rates(password_reset="1/hour")
    client = Client()
    assert (
        client.post("/accounts/password_reset/", {"email": "alice@example.com"}).status_code == 302
    )
    refused = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert refused.status_code == 429
    assert "the limit is 1 password reset request an hour" in refused.content.decode()
    assert len(mail.outbox) == 1
