"""Limits on what one client may ask of the site, and the 429 that names the limit reached.

A client is a signed-in user, or else an address (behind NUM_PROXIES proxies, as the API's
throttles read it); sign-up and password reset count by address always (BY_ADDRESS).
Pages are throttled with the API's own throttle classes, rates and counters
(cardsite/api/throttles.py), so a page and its API endpoint share one budget.
Services raise LimitReached; the API answers it as JSON (cardsite/api/errors.py) and pages
as HTML (LimitReachedMiddleware below). Either way the request's transaction is rolled back,
so a refused request stores nothing.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import salted_hmac
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from cardsite.api.throttles import _LiveRates

# What one request of each page scope counts, for the message that names the limit.
COUNTED = {
    "search": ("search", "searches"),
    "goldfish": ("goldfish page", "goldfish pages"),
    "proxies": ("proxy sheet", "proxy sheets"),
    "images": ("picture drawn", "pictures drawn"),
    "faces": ("card face drawn", "card faces drawn"),
    "tts": ("card face drawn for Tabletop Simulator", "card faces drawn for Tabletop Simulator"),
    "signup": ("sign-up", "sign-ups"),
    "password_reset": ("password reset request", "password reset requests"),
    "proposals": ("proposal", "proposals"),
    "proposals_address": ("proposal from one address", "proposals from one address"),
    "events": ("event created", "events created"),
}
PERIODS = {1: "a second", 60: "a minute", 3600: "an hour", 86400: "a day"}
# Scopes counted per address whoever is signed in: signing up signs the new user in, so a
# count by user would start afresh with every account made.
BY_ADDRESS = frozenset({"signup", "password_reset", "proposals_address"})


class LimitReached(Exception):
    """A limit refused this request; `message` says which, `retry_after` when to try again
    (in seconds), when that is known."""

    def __init__(self, *, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def client_address(request: Any) -> str:
    """The client's address, trusting X-Forwarded-For only as far as NUM_PROXIES says."""
    return str(BaseThrottle().get_ident(request))


def client_ip(request: Any) -> str | None:
    """client_address as an IP address, or None where it is none: what the log-in lockout
    stores (an address column, which PostgreSQL refuses anything else for). A forwarded
    header is the client's own text, and a request may come with no address at all."""
    address = BaseThrottle().get_ident(request)
    try:
        return str(ipaddress.ip_address(address)) if address else None
    except ValueError:
        return None


def client_key(request: Any) -> str:
    """Who a per-client limit counts: the signed-in user, else the address, keyed so that
    what is stored (decks.models.Job.client) is no address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "addr:" + salted_hmac("cardsite.limits.client_key", client_address(request)).hexdigest()


class _PageThrottle(_LiveRates, SimpleRateThrottle):
    """The API's scoped throttle for a page: same rate, same counter (the cache key is the
    one ScopedThrottle uses for this scope and client)."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.rate = self.get_rate()
        if self.rate is not None:
            self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated and self.scope not in BY_ADDRESS
        ident = user.pk if user is not None and signed_in else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def take(self, request: Any, wanted: int) -> int:
        """Count up to `wanted` uses at once, as many as the budget has left; how many."""
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        granted = max(0, min(wanted, self.num_requests - len(self.history)))
        if granted:
            self.history[:0] = [self.now] * granted
            self.cache.set(self.key, self.history, self.duration)
        return granted


def _rate_in_words(throttle: _PageThrottle) -> str:
    seconds = throttle.duration
    period = PERIODS.get(seconds, f"every {seconds} seconds")
    one, many = COUNTED.get(throttle.scope, ("request", "requests"))
    return f"{throttle.num_requests} {one if throttle.num_requests == 1 else many} {period}"


def _refusal(throttle: _PageThrottle) -> LimitReached:
    wait = max(1, round(throttle.wait() or 1))
    return LimitReached(
        code="throttled",
        message=(
            f"Too many requests: the limit is {_rate_in_words(throttle)} per"
            f" client. Try again in {wait} second{'s' if wait != 1 else ''}."
        ),
        retry_after=wait,
    )


def spend(request: HttpRequest, scope: str) -> None:
    """Count one request of `scope` against the client's budget; raise LimitReached, naming
    the limit, once it is spent. For work that costs only sometimes (a picture drawn once,
    then read from its file), so only the costly part is counted."""
    throttle = _PageThrottle(scope)
    if throttle.rate is not None and not throttle.allow_request(request, None):
        raise _refusal(throttle)


def grant(request: HttpRequest, scope: str, wanted: int) -> int:
    """Count up to `wanted` units of work of `scope` (faces to draw) against the client's
    budget and return how many it may start: all, what the budget has left, or, with
    nothing left, LimitReached naming the limit. Asking for nothing costs nothing."""
    throttle = _PageThrottle(scope)
    if wanted <= 0 or throttle.rate is None:
        return max(0, wanted)
    granted = throttle.take(request, wanted)
    if not granted:
        raise _refusal(throttle)
    return granted


def throttle_page(
    scope: str, *, counts: Callable[[HttpRequest], bool] = lambda request: True
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Throttle a page by the API's rate for `scope`; only requests for which `counts` is
    true use the budget (a search page with no query costs nothing)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if counts(request):
                spend(request, scope)
            return view(request, *args, **kwargs)

        return throttled

    return decorate


def limit_response(request: HttpRequest, exc: LimitReached) -> HttpResponse:
    response = render(request, "limit.html", {"message": exc.message}, status=429)
    if exc.retry_after is not None:
        response["Retry-After"] = str(exc.retry_after)
    return response


class LimitReachedMiddleware:
    """Pages answer a LimitReached with a short HTML 429 naming the limit."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if isinstance(exception, LimitReached):
            return limit_response(request, exception)
        return None
