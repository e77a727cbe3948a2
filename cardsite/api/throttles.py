"""Rate limits per scope. A refused request gets 429 with Retry-After (DRF adds the header).

Rates come from settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] each time, not once at
import, so a deployment (or a test) can change them through settings alone.
"""

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle


class _LiveRates:
    scope: str

    def get_rate(self) -> str | None:
        return settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(self.scope)


class ScopedThrottle(_LiveRates, ScopedRateThrottle):
    """The view's `throttle_scope` (reads, writes, validate, goldfish, proxies...)."""

    def allow_request(self, request: Request, view: Any) -> bool:
        scope: str | None = getattr(view, "throttle_scope", None)
        if not scope:
            return True
        self.scope = scope
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return SimpleRateThrottle.allow_request(self, request, view)


class SearchThrottle(_LiveRates, SimpleRateThrottle):
    """Searches (a card list with ?q=) cost the database most, so they have their own, stricter
    budget on top of the view's."""

    scope = "search"

    def __init__(self) -> None:
        pass  # the rate is read per request

    def allow_request(self, request: Request, view: Any) -> bool:
        if not request.query_params.get("q"):
            return True
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str:
        ident = (
            request.user.pk
            if request.user and request.user.is_authenticated
            else self.get_ident(request)
        )
        return self.cache_format % {"scope": self.scope, "ident": ident}
