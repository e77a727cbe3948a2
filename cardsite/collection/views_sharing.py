"""/collection/sharing/: who reads my collection, whose I read, and my pool."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from cardsite.accounts import signed_in
from cardsite.api.errors import as_form_error
from cardsite.collection.models import Pool
from cardsite.collection.services.people import user_named
from cardsite.collection.services.pools import (
    INVITATION_DAYS,
    MAX_INVITATIONS_OUT,
    MAX_POOL_MEMBERS,
    POOL_NAME_MAX,
    pool_accept,
    pool_create,
    pool_decline,
    pool_decline_all,
    pool_invite,
    pool_leave,
)
from cardsite.collection.services.sharing import MAX_SHARES, collection_share, collection_unshare
from cardsite.collection.sharing_selectors import (
    MAX_INVITATIONS_SHOWN,
    invited_pool,
    pool_state,
    readers_of,
    shared_with,
)
from engines.errors import InputError

POOL_ID_DIGITS = 12


def _pool(request: HttpRequest) -> Pool:
    raw = request.POST.get("pool", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= POOL_ID_DIGITS):
        raise InputError("pool", "No such pool.")
    pool = invited_pool(user=signed_in(request), pool_id=int(raw))
    if pool is None:
        raise InputError("pool", "No such pool.")
    return pool


def _share(request: HttpRequest) -> str:
    share = collection_share(
        owner=signed_in(request), reader_username=request.POST.get("username", "")
    )
    return f"{share.reader.username} can now read your collection."


def _unshare(request: HttpRequest) -> str:
    reader = user_named(request.POST.get("username", ""))
    collection_unshare(owner=signed_in(request), reader=reader)
    return f"{reader.username} can no longer read your collection."


def _create(request: HttpRequest) -> str:
    pool = pool_create(user=signed_in(request), name=request.POST.get("name", ""))
    return f"Pool “{pool.name}” made: invite the others by username."


def _invite(request: HttpRequest) -> str:
    member = pool_invite(
        pool=_pool(request), by=signed_in(request), username=request.POST.get("username", "")
    )
    return f"{member.user.username} is invited; their copies count once they accept."


def _accept(request: HttpRequest) -> str:
    member = pool_accept(user=signed_in(request), pool=_pool(request))
    return f"You joined “{member.pool.name}”: its members' collections count as yours."


def _decline(request: HttpRequest) -> str:
    pool = _pool(request)
    pool_decline(user=signed_in(request), pool=pool)
    return f"Invitation to “{pool.name}” declined."


def _decline_all(request: HttpRequest) -> str:
    declined = pool_decline_all(user=signed_in(request))
    return f"{declined} invitation{'s' if declined != 1 else ''} declined."


def _leave(request: HttpRequest) -> str:
    pool_leave(user=signed_in(request))
    return "You left the pool: only your own copies count as yours now."


ACTIONS: dict[str, Callable[[HttpRequest], str]] = {
    "share": _share,
    "unshare": _unshare,
    "create": _create,
    "invite": _invite,
    "accept": _accept,
    "decline": _decline,
    "decline_all": _decline_all,
    "leave": _leave,
}


def _context(request: HttpRequest) -> dict[str, Any]:
    return {
        "readers": readers_of(owner=signed_in(request)),
        "shared_with": shared_with(reader=request.user),
        "pool": pool_state(user=signed_in(request)),
        "max_shares": MAX_SHARES,
        "max_members": MAX_POOL_MEMBERS,
        "max_invitations_out": MAX_INVITATIONS_OUT,
        "max_invitations_shown": MAX_INVITATIONS_SHOWN,
        "invitation_days": INVITATION_DAYS,
        "name_max": POOL_NAME_MAX,
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def collection_sharing(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render(request, "collection/sharing.html", _context(request))
    action = ACTIONS.get(request.POST.get("action", ""))
    try:
        if action is None:
            raise InputError("action", f"The action is one of {', '.join(ACTIONS)}.")
        done = action(request)
    except InputError as exc:
        # What was typed stays in its field, to be corrected rather than typed again.
        posted = {k: request.POST.get(k, "")[:150] for k in ("action", "username", "name")}
        context = _context(request) | {"error": as_form_error(exc), "posted": posted}
        return render(request, "collection/sharing.html", context, status=400)
    messages.success(request, done)
    return HttpResponseRedirect(reverse("collection:sharing"))
