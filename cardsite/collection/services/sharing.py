"""Letting named users read a collection, and taking that back (it stops at once)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from cardsite.collection.models import CollectionShare
from cardsite.collection.services.owner_lock import lock_owner
from cardsite.collection.services.people import user_named
from engines.errors import InputError

# Readers one collection may have: a playgroup, a club, never a broadcast list.
MAX_SHARES = 50


def collection_share(*, owner: User, reader_username: str) -> CollectionShare:
    """Let the user called `reader_username` read `owner`'s collection (never change it).
    Sharing again with the same reader changes nothing. InputError naming `username` for no
    such user, oneself, or past MAX_SHARES readers."""
    reader = user_named(reader_username)
    if reader.pk == owner.pk:
        raise InputError("username", "Your collection is yours to read already.")
    with transaction.atomic():
        # Looked for and counted under the owner's lock: two requests at once cannot both
        # pass at 49, and a share made by one just before is found by the other, not counted
        # as a 51st.
        lock_owner(owner=owner)
        existing = CollectionShare.objects.filter(owner=owner, reader=reader).first()
        if existing is not None:
            return existing
        if CollectionShare.objects.filter(owner=owner).count() >= MAX_SHARES:
            raise InputError(
                "username",
                f"A collection can be shared with at most {MAX_SHARES} users; remove one first.",
            )
        try:
            with transaction.atomic():
                return CollectionShare.objects.create(owner=owner, reader=reader)
        except IntegrityError:  # the same share, made by a request at the same moment
            return CollectionShare.objects.get(owner=owner, reader=reader)


def collection_unshare(*, owner: User, reader: User) -> bool:
    """Stop `reader` reading `owner`'s collection; whether they could until now."""
    removed, _ = CollectionShare.objects.filter(owner=owner, reader=reader).delete()
    return removed > 0
