"""One card's copies in one user's collection: set to a number, or stepped by + and -."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from cardsite.catalogue.models import Card
from cardsite.collection.models import MAX_QUANTITY, CollectionCard
from cardsite.collection.services.owner_lock import lock_owner
from engines.errors import InputError


def collection_set_quantity(*, owner: User, card: Card, quantity: int) -> int:
    """Hold exactly `quantity` copies of `card` (0 removes the row). InputError naming
    `quantity` outside 0 to MAX_QUANTITY; nothing is written then."""
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise InputError("quantity", f"A quantity is a whole number from 0 to {MAX_QUANTITY}.")
    if not 0 <= quantity <= MAX_QUANTITY:
        raise InputError(
            "quantity",
            f"A collection holds 0 to {MAX_QUANTITY} copies of a printing; {quantity:,} is "
            "out of range.",
        )
    with transaction.atomic():
        lock_owner(owner=owner)
        _store(owner=owner, card=card, quantity=quantity)
    return quantity


def collection_adjust(*, owner: User, card: Card, delta: int) -> int:
    """Add `delta` copies (negative takes them away), kept within 0 to MAX_QUANTITY: minus at 0
    and `+` at the limit change nothing and are not errors. Returns the new quantity."""
    with transaction.atomic():
        # Not a lock on the card's row: there is none to lock before the first copy.
        lock_owner(owner=owner)
        held = (
            CollectionCard.objects.filter(owner=owner, card=card)
            .values_list("quantity", flat=True)
            .first()
        ) or 0
        wanted = max(0, min(MAX_QUANTITY, held + delta))
        if wanted != held:
            _store(owner=owner, card=card, quantity=wanted)
    return wanted


def _store(*, owner: User, card: Card, quantity: int) -> None:
    if quantity == 0:
        CollectionCard.objects.filter(owner=owner, card=card).delete()
        return
    CollectionCard.objects.update_or_create(owner=owner, card=card, defaults={"quantity": quantity})
