"""Login lockout (django-axes): its authentication backend and its lockout page."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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


def lockout_minutes(request: Any = None) -> int:
    cool_off = get_cool_off(request)
    return round(cool_off.total_seconds() / 60) if cool_off else 0


def lockout_message(request: Any = None) -> str:
    minutes = lockout_minutes(request)
    return (
        f"Too many failed log-ins: after {settings.AXES_FAILURE_LIMIT} failures for one username"
        f" or from one address, log-in is locked for {minutes} minute{'s' if minutes != 1 else ''}"
        f" from the last attempt. Try again in {minutes} minute{'s' if minutes != 1 else ''}."
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """The page a locked-out log-in gets: 429, saying when to try again."""
    response = render(
        request,
        "registration/locked_out.html",
        {"message": lockout_message(request)},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
    response["Retry-After"] = str(lockout_minutes(request) * 60)
    return response
