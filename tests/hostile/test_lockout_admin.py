"""An operator sees who is locked out in the admin and lifts a lockout there, or with axes'
manage.py commands; the user can then log in."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def operator():
    client = Client()
    client.force_login(User.objects.create_superuser("root", password=PASSWORD))
    return client


def lock_out(username="alice"):
    for _ in range(5):
        Client().post("/accounts/login/", {"username": username, "password": "wrong"})


def log_in(username="alice"):
    return Client().post("/accounts/login/", {"username": username, "password": PASSWORD})


def test_an_admin_sees_a_lockout_and_clears_it_and_the_user_can_log_in(alice, operator):
    lock_out()
    assert log_in().status_code == 429
    listing = operator.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200
    assert "alice" in listing.content.decode()
    (row,) = AccessAttempt.objects.filter(username="alice")
    cleared = operator.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"},
    )
    assert cleared.status_code == 302
    assert not AccessAttempt.objects.exists()
    assert log_in().status_code == 302


def test_manage_py_axes_reset_clears_every_lockout(alice):
    lock_out()
    call_command("axes_reset")
    assert log_in().status_code == 302


def test_manage_py_axes_reset_username_clears_that_username_only(alice):
    User.objects.create_user("bob", password=PASSWORD)
    lock_out("alice")
    lock_out("bob")
    call_command("axes_reset_username", "alice")
    assert log_in("alice").status_code == 302
    assert log_in("bob").status_code == 429


def test_the_admins_clean_up_action_deletes_only_expired_attempts(alice, operator):
    lock_out()
    (row,) = AccessAttempt.objects.all()
    cleaned = operator.post(
        "/admin/axes/accessattempt/",
        {"action": "cleanup_expired_attempts", "_selected_action": [row.pk]},
    )
    assert cleaned.status_code == 302
    assert AccessAttempt.objects.filter(pk=row.pk).exists()  # not expired yet
    AccessAttempt.objects.update(attempt_time=row.attempt_time - timedelta(minutes=16))
    operator.post(
        "/admin/axes/accessattempt/",
        {"action": "cleanup_expired_attempts", "_selected_action": [row.pk]},
    )
    assert not AccessAttempt.objects.exists()
    assert log_in().status_code == 302
