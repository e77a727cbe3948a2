"""Finding the user a form or request names, the same way sign-up compares names."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth.models import User

from engines.errors import InputError

USERNAME_MAX = User._meta.get_field("username").max_length or 150


def user_named(username: str, *, field: str = "username") -> Any:
    """The active user called `username` (NFKC, regardless of case, as sign-up compares
    names), else InputError naming `field`. It says only "no such user": nothing else about
    who exists."""
    name = unicodedata.normalize("NFKC", username or "").strip()
    if not name:
        raise InputError(field, "Give a username.")
    if len(name) > USERNAME_MAX:
        raise InputError(field, f"A username is at most {USERNAME_MAX} characters.")
    found = User.objects.filter(username__iexact=name, is_active=True).first()
    if found is None:
        raise InputError(field, f"There is no user called {name[:40]!r}.")
    return found
