"""The colour theme a visitor chose: the system's (no cookie), or light or dark forced.

The choice lives in a `theme` cookie, so that the server can put data-theme on <html> and the
first paint is already in the right colours; site.js sets the same cookie (and localStorage)
when the header's switch is pressed. Without JavaScript the switch posts here instead.
"""

from __future__ import annotations

from typing import TypedDict

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

COOKIE = "theme"
FORCED = ("light", "dark")
# The switch's order: each press moves to the next.
CYCLE = ("system", "light", "dark")
LABELS = {"system": "System", "light": "Light", "dark": "Dark"}
NEXT_TITLES = {
    "system": "Follow the system's theme",
    "light": "Use the light theme",
    "dark": "Use the dark theme",
}
# A year: a preference, not a session.
COOKIE_MAX_AGE = 365 * 24 * 60 * 60
# The page to go back to after the switch, as the form sends it (the page's own path).
MAX_NEXT_CHARS = 2000


class SiteTheme(TypedDict):
    choice: str
    forced: str
    label: str
    next: str
    next_title: str
    back_to: str


def theme_choice(request: HttpRequest) -> str:
    """system, light or dark; anything else in the cookie counts as no choice."""
    value = request.COOKIES.get(COOKIE, "")
    return value if value in FORCED else "system"


def site_theme(request: HttpRequest) -> dict[str, SiteTheme]:
    """Context processor: what base.html needs for <html data-theme> and the switch."""
    choice = theme_choice(request)
    following = CYCLE[(CYCLE.index(choice) + 1) % len(CYCLE)]
    path = request.get_full_path()
    return {
        "site_theme": {
            "choice": choice,
            "forced": choice if choice in FORCED else "",
            "label": LABELS[choice],
            "next": following,
            "next_title": NEXT_TITLES[following],
            "back_to": path if len(path) <= MAX_NEXT_CHARS else "/",
        }
    }


def _refuse(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "limit.html", {"message": message}, status=400)


@require_POST
def set_theme(request: HttpRequest) -> HttpResponse:
    """The switch without JavaScript: remember the choice, then back to the page."""
    choice = request.POST.get("theme", "")
    if choice not in CYCLE:
        return _refuse(request, "theme must be one of system, light or dark.")
    back_to = request.POST.get("next", "")
    if len(back_to) > MAX_NEXT_CHARS:
        return _refuse(request, f"next may be at most {MAX_NEXT_CHARS:,} characters.")
    if not back_to.startswith("/") or not url_has_allowed_host_and_scheme(
        back_to, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back_to = "/"
    response = HttpResponseRedirect(back_to)
    if choice in FORCED:
        response.set_cookie(COOKIE, choice, max_age=COOKIE_MAX_AGE, samesite="Lax")
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response
