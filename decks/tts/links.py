"""Signed, expiring links to a private deck's Tabletop Simulator save and sheets.

TTS fetches a save's images itself, without the owner's session, so a private deck's sheet
URLs carry `expires` (seconds since the epoch) and `sig`, a signature binding the deck's
share key to that time. A link is good until it expires: 24 hours from when it was made,
rounded up to the hour, so every link made within one hour is the same (and TTS, which
caches images by URL, fetches a sheet again at most once an hour).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from urllib.parse import urlencode

from django.core.signing import Signer
from django.utils.crypto import constant_time_compare

SALT = "decks.tts.links"
LINK_HOURS = 24
HOUR = 60 * 60
# An expiry is a whole number of seconds; twelve digits reach past the year 33,000.
MAX_EXPIRES_DIGITS = 12
# The one way a link writes its expiry: ASCII digits without a leading zero. int() would also
# read "0…", "+…", " … " and other scripts' digits as the same time, making one signature
# good for many URLs (each a separate entry in every cache on the way).
EXPIRES = re.compile(rf"[1-9][0-9]{{0,{MAX_EXPIRES_DIGITS - 1}}}")
MAX_SIGNATURE = 100


def link_expiry(now: datetime) -> int:
    later = int(now.timestamp()) + LINK_HOURS * HOUR
    return -(-later // HOUR) * HOUR


def _signature(share_key: str, expires: int) -> str:
    return Signer(salt=SALT).signature(f"{share_key}:{expires}")


def signed_query(share_key: str, now: datetime) -> dict[str, str]:
    expires = link_expiry(now)
    return {"expires": str(expires), "sig": _signature(share_key, expires)}


def signed(url: str, share_key: str, now: datetime) -> str:
    """`url` (without a query) with a signature good for LINK_HOURS from `now`."""
    return f"{url}?{urlencode(signed_query(share_key, now))}"


def link_is_valid(share_key: str, query: Mapping[str, str], now: datetime) -> bool:
    """Whether `query` signs a link to this deck that has not expired at `now`."""
    expires = query.get("expires", "")
    signature = query.get("sig", "")
    if not EXPIRES.fullmatch(expires):
        return False
    if int(expires) <= now.timestamp() or len(signature) > MAX_SIGNATURE:
        return False
    return constant_time_compare(signature, _signature(share_key, int(expires)))
