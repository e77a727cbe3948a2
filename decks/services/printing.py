"""A user's printer: the back offsets read on the duplex calibration sheet, saved once and
applied to every proxy sheet they print after."""

from __future__ import annotations

import math
from decimal import Decimal

from django.contrib.auth.models import User

from decks.models import PrintProfile
from decks.proxies import MAX_BACK_OFFSET
from engines.errors import InputError


def _tenths(value: float, name: str) -> Decimal:
    if not math.isfinite(value) or not -MAX_BACK_OFFSET <= value <= MAX_BACK_OFFSET:
        raise InputError(
            name, f"must be between {-MAX_BACK_OFFSET:g} and {MAX_BACK_OFFSET:g} mm, got {value}"
        )
    # Tenths of a millimetre: what the calibration sheet can be read to, and what is stored.
    return Decimal(f"{value:.1f}") + 0


def print_profile_set(*, user: User, back_offset_x: float, back_offset_y: float) -> PrintProfile:
    """Save `user`'s back offsets (mm, right and up positive, each within MAX_BACK_OFFSET,
    kept to 0.1 mm). Raises InputError naming the offset out of range; nothing is saved then."""
    x = _tenths(float(back_offset_x), "back_offset_x")
    y = _tenths(float(back_offset_y), "back_offset_y")
    profile, _ = PrintProfile.objects.update_or_create(
        user=user, defaults={"back_offset_x": x, "back_offset_y": y}
    )
    return profile
