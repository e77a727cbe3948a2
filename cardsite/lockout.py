"""Login lockout (django-axes): its authentication backend, its handler and its lockout page.

Failures are counted in the database by axes (one AccessAttempt row per username, address and
user agent), and three rules lock, each with its own limit:
- a username from one address, after LOGIN_FAILURE_LIMIT failures (someone guessing one
  account);
- an address, after LOGIN_ADDRESS_FAILURE_LIMIT failures whatever the usernames (someone
  trying many accounts);
- a username from every address, only after LOGIN_USERNAME_FAILURE_LIMIT failures (many
  addresses guessing one account). Usernames are public, so this one is high, and a new
  password (the reset link its owner gets by mail) clears it.
Axes itself knows one limit; the handler below checks each rule's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from axes.admin import AccessAttemptAdmin
from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib import admin
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


@dataclass(frozen=True)
class Rule:
    parameters: tuple[str, ...]  # the AccessAttempt fields one count is kept for
    setting: str  # the setting holding its limit
    what: str  # what is locked, for the lockout message

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.setting))


RULES = (
    Rule(("username", "ip_address"), "LOGIN_FAILURE_LIMIT", "that username from this address"),
    Rule(("ip_address",), "LOGIN_ADDRESS_FAILURE_LIMIT", "this address, whatever the username"),
    Rule(("username",), "LOGIN_USERNAME_FAILURE_LIMIT", "that username from every address"),
)


def axes_failure_limit(request: Any = None, credentials: Any = None) -> int:
    """AXES_FAILURE_LIMIT: axes' own check (any one count reaching it) then only ever locks
    where a rule does too; the handler checks each rule at its own, lower, limit."""
    return max(rule.limit for rule in RULES)


@dataclass(frozen=True)
class Lockout:
    rule: Rule
    until: datetime


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler, locking by RULES, each at its own limit.

    Axes' own check (any count reaching AXES_FAILURE_LIMIT, the highest of the limits) only
    ever locks where a rule does too; this handler adds the rules with lower limits."""

    def lockout(self, request: Any, credentials: dict[str, Any] | None = None) -> Lockout | None:
        """The first rule whose limit this request's username or address has reached within
        the cool-off, and when that lock ends."""
        values = {
            "username": get_client_username(request, credentials),
            "ip_address": getattr(request, "axes_ip_address", None),
        }
        recent = AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))
        for rule in RULES:
            counted = recent.filter(**{p: values[p] for p in rule.parameters}).aggregate(
                failures=Sum("failures_since_start"), last=Max("attempt_time")
            )
            if (counted["failures"] or 0) >= rule.limit:
                return Lockout(rule=rule, until=counted["last"] + get_cool_off(request))
        return None

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        return self.lockout(request, credentials) is not None

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or request.axes_locked_out or self.is_whitelisted(request, credentials):
            return
        if self.is_locked(request, credentials):
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        # A success clears the failures against its own username only. Axes would clear the
        # address's too, and so anyone could reset their address's count by logging in to an
        # account of their own between guesses at others.
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return count


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a locked-out username or address before any password is checked.

    A log-in with no request (the test client's login(), a shell) comes from no address and is
    none of the web's failures to count, so it is let through to the next backend; axes' own
    backend would raise instead."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


class ClearLockoutOnPasswordChange:
    """A password validator that checks nothing: Django calls password_changed() on every
    validator once a new password is saved (the reset link, the change page, the admin,
    manage.py changepassword), so this is where a new password lifts the lockout of its
    username: its owner, locked out by others' guesses, gets in through a reset link."""

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is not None and user.pk is not None:
            AxesProxyHandler.reset_attempts(username=user.get_username())

    def get_help_text(self) -> str:
        return "A new password lifts a lockout of your username."


class LockoutAttemptAdmin(AccessAttemptAdmin):
    """Axes' admin of failed log-ins, where an operator sees lockouts and deletes a row to
    lift one. Its "Clean up expired attempts" action reads the time axes stamps on log-in
    requests only, and failed (a 500) on the admin's own; stamped here first."""

    @admin.action(description="Clean up expired attempts")
    def cleanup_expired_attempts(self, request: HttpRequest, queryset: Any) -> None:
        AxesProxyHandler.update_request(request)
        super().cleanup_expired_attempts(request, queryset)


def _lockout(request: Any) -> Lockout | None:
    handler = AxesProxyHandler.get_implementation()
    if not isinstance(handler, LockoutHandler):
        return None
    return handler.lockout(request, getattr(request, "axes_credentials", None))


def lockout_seconds(request: Any) -> int:
    """How long until the lock on this request ends (at most the cool-off)."""
    lockout = _lockout(request)
    if lockout is None:
        cool_off = get_cool_off(request)
        return int(cool_off.total_seconds()) if cool_off else 0
    return max(1, math.ceil((lockout.until - timezone.now()).total_seconds()))


def lockout_message(request: Any) -> str:
    lockout = _lockout(request)
    cool_off = get_cool_off(request)
    period = round(cool_off.total_seconds() / 60) if cool_off else 0
    minutes = max(1, math.ceil(lockout_seconds(request) / 60))
    rule = lockout.rule if lockout is not None else RULES[0]
    message = (
        f"Too many failed log-ins: after {rule.limit} failures, log-in is locked for {rule.what}"
        f" for {period} minutes. Try again in {minutes} minute{'s' if minutes != 1 else ''}."
    )
    if rule.parameters == ("username",):
        message += " If this is your account, a password reset link lets you in at once."
    return message


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """The page a locked-out log-in gets: 429, saying which lock and when to try again."""
    response = render(
        request,
        "registration/locked_out.html",
        {"message": lockout_message(request)},
        # django-axes puts its defaults (429 here) on Django's settings; the stubs do not know.
        status=getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429),
    )
    response["Retry-After"] = str(lockout_seconds(request))
    return response
