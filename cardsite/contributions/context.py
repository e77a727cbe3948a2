"""The header's counts: unread notices for a signed-in user, open proposals for a curator."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from cardsite.contributions.selectors import header_counts


def contribution_counts(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: a response that never shows the header (JSON, a file) asks nothing.
    return {"contribution_counts": SimpleLazyObject(lambda: header_counts(user=user))}
