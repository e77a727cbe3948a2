"""Personal API tokens: POST username and password for a token, DELETE it to revoke it. A new
password, by whatever path it is set, revokes the user's tokens. A token is sent as
`Authorization: Token <token>` or `Authorization: Bearer <token>` (cardsite.api.authentication)."""

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import StrictCharField
from cardsite.lockout import lockout_message, lockout_seconds

TokenResponse = inline_serializer("TokenResponse", {"token": serializers.CharField()})


class TokenRequestSerializer(AuthTokenSerializer):
    """DRF's, with JSON strings only, and a username no longer than a user's can be."""

    username = StrictCharField(max_length=User._meta.get_field("username").max_length)
    password = StrictCharField(trim_whitespace=False, write_only=True)


class TokenView(APIView):
    throttle_scope = "auth"

    def get_permissions(self) -> list:
        return [IsAuthenticated()] if getattr(self.request, "method", None) == "DELETE" else []

    def get_authenticators(self) -> list:
        # Logging in with a password needs no session (and so no CSRF token).
        return (
            [] if getattr(self.request, "method", None) == "POST" else super().get_authenticators()
        )

    @extend_schema(
        request=TokenRequestSerializer,
        responses={200: TokenResponse},
        summary="Your API token, for Authorization: Token <token> or Bearer <token>",
    )
    def post(self, request: Request) -> Response:
        serializer = TokenRequestSerializer(data=request.data, context={"request": request})
        valid = serializer.is_valid()
        # Answered, not raised: a raised error rolls the request's transaction back, and with
        # it the failure django-axes has just counted in the database.
        # The lockout backend marks the request it was given, the API's own, not Django's.
        if getattr(request, "axes_locked_out", False):
            return Response(
                {"code": "locked_out", "detail": lockout_message(request)},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(lockout_seconds(request))},
            )
        if not valid:
            return Response(
                {
                    "code": "invalid",
                    "detail": "The request has invalid fields.",
                    "errors": serializer.errors,
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(request=None, responses={204: None}, summary="Revoke your API token")
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class RevokeTokensOnPasswordChange:
    """A password validator that checks nothing: Django calls password_changed() on every
    validator once a new password is saved, whether by the password change or reset pages,
    the admin or manage.py changepassword, so this is where a new password revokes the
    user's API tokens (a token taken with the old password must not outlive it)."""

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is not None and user.pk is not None:
            Token.objects.filter(user=user).delete()

    def get_help_text(self) -> str:
        return "A new password revokes your API token."
