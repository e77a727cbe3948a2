"""The API of sharing and pooling collections: /api/v1/collection/shares/ and .../pool/.

A signed-in user's own settings only: nothing here reads another user's collection rows.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import StrictCharField, StrictIntegerField
from cardsite.collection.models import Pool
from cardsite.collection.services.people import USERNAME_MAX, user_named
from cardsite.collection.services.pools import (
    INVITATION_DAYS,
    POOL_NAME_MAX,
    accepted_pool,
    pool_accept,
    pool_create,
    pool_decline,
    pool_decline_all,
    pool_invite,
    pool_leave,
)
from cardsite.collection.services.sharing import collection_share, collection_unshare
from cardsite.collection.sharing_selectors import (
    MAX_INVITATIONS_SHOWN,
    invited_pool,
    pool_state,
    readers_of,
    shared_with,
)
from engines.errors import InputError

POOL_ID_MAX = 2**63 - 1


class UsernameSerializer(serializers.Serializer):
    # Spaces are the service's to trim: a name of spaces is "no such user", as on the page.
    username = StrictCharField(
        max_length=USERNAME_MAX, trim_whitespace=False, help_text="A user's name."
    )


class PoolNameSerializer(serializers.Serializer):
    name = StrictCharField(
        max_length=POOL_NAME_MAX,
        trim_whitespace=False,
        help_text=f"1 to {POOL_NAME_MAX} characters, spaces squeezed.",
    )


class PoolIdSerializer(serializers.Serializer):
    pool = StrictIntegerField(
        min_value=1, max_value=POOL_ID_MAX, help_text="The id of a pool that invited you."
    )


class SharesSerializer(serializers.Serializer):
    readers = serializers.ListField(
        child=serializers.CharField(), help_text="Users who may read your collection."
    )
    shared_with = serializers.ListField(
        child=serializers.CharField(), help_text="Users whose collections you may read."
    )


class MemberSerializer(serializers.Serializer):
    username = serializers.CharField()
    accepted = serializers.BooleanField(help_text="False while only invited: not counted yet.")


class PoolSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    members = MemberSerializer(many=True)


class InvitationSerializer(serializers.Serializer):
    pool = serializers.IntegerField()
    name = serializers.CharField()
    invited_by = serializers.CharField(allow_null=True)


class PoolStateSerializer(serializers.Serializer):
    pool = PoolSerializer(allow_null=True, help_text="Your pool, or null.")
    invitations = InvitationSerializer(
        many=True,
        help_text=f"Pools inviting you, the newest {MAX_INVITATIONS_SHOWN} at most, newest first;"
        f" an invitation expires after {INVITATION_DAYS} days unanswered.",
    )
    invitations_waiting = serializers.IntegerField(
        help_text="How many invitations are waiting for you, listed or not."
    )


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _shares(user: Any) -> dict[str, Any]:
    return {
        "readers": [u.username for u in readers_of(owner=user)],
        "shared_with": [u.username for u in shared_with(reader=user)],
    }


def _pool_state(user: Any) -> dict[str, Any]:
    state = pool_state(user=user)
    pool = state.pool
    return {
        "pool": None
        if pool is None
        else {
            "id": pool.pk,
            "name": pool.name,
            "members": [
                {"username": m.user.username, "accepted": m.accepted_at is not None}
                for m in state.members
            ],
        },
        "invitations": [
            {
                "pool": i.pool.pk,
                "name": i.pool.name,
                "invited_by": i.invited_by.username if i.invited_by else None,
            }
            for i in state.invitations
        ],
        "invitations_waiting": state.invitations_waiting,
    }


def _invited(user: Any, pool_id: int) -> Pool:
    pool = invited_pool(user=user, pool_id=pool_id)
    if pool is None:
        raise NotFound("You have no invitation to that pool.")
    return pool


class _Own(APIView):
    permission_classes = [IsAuthenticated]

    @property
    def throttle_scope(self) -> str:
        return "read" if self.request.method in ("GET", "HEAD", "OPTIONS") else "write"


class SharesView(_Own):
    @extend_schema(responses={200: SharesSerializer}, summary="Who reads your collection")
    def get(self, request: Request) -> Response:
        return Response(_shares(request.user))

    @extend_schema(
        request=UsernameSerializer,
        responses={201: SharesSerializer},
        summary="Let a user read your collection",
    )
    def post(self, request: Request) -> Response:
        data = _valid(UsernameSerializer, request.data)
        collection_share(owner=request.user, reader_username=data["username"])
        return Response(_shares(request.user), status=status.HTTP_201_CREATED)


class ShareDetailView(_Own):
    @extend_schema(
        responses={204: OpenApiResponse(description="They can no longer read it.")},
        summary="Stop a user reading your collection",
    )
    def delete(self, request: Request, username: str) -> Response:
        try:
            reader = user_named(username[: USERNAME_MAX + 1])
        except InputError:
            raise NotFound("You share your collection with no such user.") from None
        if not collection_unshare(owner=request.user, reader=reader):
            raise NotFound("You share your collection with no such user.")
        return Response(status=status.HTTP_204_NO_CONTENT)


class PoolView(_Own):
    @extend_schema(responses={200: PoolStateSerializer}, summary="Your pool and invitations")
    def get(self, request: Request) -> Response:
        return Response(_pool_state(request.user))

    @extend_schema(
        request=PoolNameSerializer,
        responses={201: PoolStateSerializer},
        summary="Make a pool, with you its first member",
    )
    def post(self, request: Request) -> Response:
        data = _valid(PoolNameSerializer, request.data)
        pool_create(user=request.user, name=data["name"])
        return Response(_pool_state(request.user), status=status.HTTP_201_CREATED)


class PoolInviteView(_Own):
    @extend_schema(
        request=UsernameSerializer,
        responses={200: PoolStateSerializer},
        summary="Invite a user into your pool",
    )
    def post(self, request: Request) -> Response:
        data = _valid(UsernameSerializer, request.data)
        pool = accepted_pool(user=request.user)
        if pool is None:
            raise InputError("pool", "You are in no pool: make one first.")
        pool_invite(pool=pool, by=request.user, username=data["username"])
        return Response(_pool_state(request.user))


class PoolAcceptView(_Own):
    @extend_schema(
        request=PoolIdSerializer,
        responses={
            200: PoolStateSerializer,
            404: OpenApiResponse(description="No pool you belong to or were invited to."),
        },
        summary="Accept a pool's invitation",
    )
    def post(self, request: Request) -> Response:
        data = _valid(PoolIdSerializer, request.data)
        pool_accept(user=request.user, pool=_invited(request.user, data["pool"]))
        return Response(_pool_state(request.user))


class PoolDeclineView(_Own):
    @extend_schema(
        request=PoolIdSerializer,
        responses={
            200: PoolStateSerializer,
            404: OpenApiResponse(description="No pool you belong to or were invited to."),
        },
        summary="Decline a pool's invitation",
    )
    def post(self, request: Request) -> Response:
        data = _valid(PoolIdSerializer, request.data)
        pool = _invited(request.user, data["pool"])
        if not pool_decline(user=request.user, pool=pool):
            raise InputError("pool", "You are a member of that pool: leave it instead.")
        return Response(_pool_state(request.user))


class PoolDeclineAllView(_Own):
    @extend_schema(
        request=None,
        responses={200: PoolStateSerializer},
        summary="Decline every pool invitation waiting for you",
    )
    def post(self, request: Request) -> Response:
        pool_decline_all(user=request.user)
        return Response(_pool_state(request.user))


class PoolLeaveView(_Own):
    @extend_schema(
        request=None,
        responses={
            200: PoolStateSerializer,
            400: OpenApiResponse(description="You are in no pool."),
        },
        summary="Leave your pool",
    )
    def post(self, request: Request) -> Response:
        if not pool_leave(user=request.user):
            raise InputError("pool", "You are in no pool.")
        return Response(_pool_state(request.user))
