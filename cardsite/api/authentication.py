"""`Authorization: Bearer <token>`, beside DRF's `Token <token>`: the same tokens, either word.
Its own module, imported by DRF's settings while rest_framework.views loads: it may import
nothing that imports the views."""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    """The same tokens as `Token <token>`, under the word RFC 6750 gives them: openapi-python-
    client's AuthenticatedClient, httpx and requests' helpers send `Bearer` by default."""

    keyword = "Bearer"


class BearerScheme(OpenApiAuthenticationExtension):
    """Bearer as its own security scheme. drf-spectacular's TokenAuthentication extension would
    match this subclass too, under the name it gives `Token`, and the two would collide."""

    target_class = BearerTokenAuthentication
    name = "bearerAuth"
    priority = 1

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "Your API token as `Authorization: Bearer <token>`; the same token "
            "as `Token <token>` (tokenAuth).",
        }
