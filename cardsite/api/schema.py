"""The OpenAPI schema's error responses.

Every API error has one JSON shape (cardsite.api.errors). Rather than each view listing the
errors DRF and our handlers can answer with, this schema class adds them to every operation
from what the operation takes and how its view is guarded, all pointing at one Error component.
Views still declare their own errors where the body carries more (QueryError, StaleVersion...);
an error a view declares without a body gets the Error body too.

It also states two rules the code keeps that DRF's schema leaves out: that a trimmed string
may not be blank (whitespace only), and (add_rules_across_fields) a rule across a request
serializer's fields, its `schema_extra`.

And it writes two things in the form OpenAPI 3.0 and its tools read: a nested serializer that
may be null inline, as an object with `nullable` (drf-spectacular's `allOf: [$ref]` beside
`nullable` has no `type`, so 3.0.3 ignores the `nullable` and validators refuse the null); and
an operation open to anyone with `security: []` said outright, rather than left out.
"""

import copy
from http import HTTPStatus
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS

from cardsite.api.pagination import StablePagination

# Not blank: a character that is not whitespace as str.strip() (DRF's CharField trims with it)
# counts it: ECMA's \s, and \x1c to \x1f, which Python counts too.
NOT_BLANK = r"[^\s\u001c-\u001f]"


class ErrorSerializer(serializers.Serializer):
    """Every API error's body (some add fields of their own, named in their responses)."""

    code = serializers.CharField(help_text="A stable, machine-readable reason, e.g. not_found.")
    detail = serializers.CharField(help_text="What went wrong, for people.")
    errors = serializers.DictField(
        required=False,
        help_text="For code=invalid: the messages for each field that has a problem.",
    )


class ApiSchema(AutoSchema):
    def _map_serializer_field(
        self, field: Any, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        if isinstance(field, serializers.Serializer) and field.allow_null:
            # The nested object itself, not a component: OpenAPI 3.0 has no nullable $ref.
            inline: dict[str, Any] = self._map_serializer(field, direction, bypass_extensions)
            meta = self._get_serializer_field_meta(field, direction)
            return {**inline, **meta, "nullable": True}
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and field.trim_whitespace
            and not field.allow_blank
            and schema.get("type") == "string"
            and "pattern" not in schema
            # A field with a pattern of its own (a RegexField) gets it from its validator later,
            # and only when no pattern is set yet: this one would have hidden it.
            and not any(isinstance(v, RegexValidator) for v in field.validators)
        ):
            schema["pattern"] = NOT_BLANK
        return schema

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: ComponentRegistry,
    ) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses: dict[str, Any] = operation["responses"]
        possible = self._possible_errors(operation)
        for code, description in possible.items():
            responses.setdefault(str(code), {"description": description})
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        for status, response in responses.items():
            if int(status) >= 400:
                response.setdefault("content", {"application/json": {"schema": error}})
                response["description"] = (
                    response["description"]
                    or possible.get(int(status))
                    or HTTPStatus(int(status)).phrase
                )
        if "429" in responses:
            responses["429"].setdefault("headers", {})["Retry-After"] = {
                "schema": {"type": "integer"},
                "description": "Seconds to wait before asking again.",
            }
        operation["responses"] = dict(sorted(responses.items()))
        if not self.view.get_authenticators():
            # No authenticator reads a header here: say so, rather than leave the operation
            # without a security requirement (which reads as "see the document's").
            operation["security"] = []
        return operation

    def _possible_errors(self, operation: dict[str, Any]) -> dict[int, str]:
        """The errors DRF and our handlers can answer this operation with, and why."""
        parameters = operation.get("parameters", [])
        query = {p["name"] for p in parameters if p["in"] == "query"}
        schemes = {name for requirement in operation.get("security", []) for name in requirement}
        authenticators = self.view.get_authenticators()
        errors: dict[int, str] = {}
        if "requestBody" in operation or query:
            errors[400] = "The request has invalid fields or values."
        if schemes:
            # A bad token is refused even where signing in is optional.
            errors[401] = "Not signed in, or the token is not valid."
        if self.method not in SAFE_METHODS and any(
            isinstance(a, SessionAuthentication) for a in authenticators
        ):
            errors[403] = "Not allowed (or, signed in by session, no CSRF token)."
        # A page past the last one is a 404 too.
        if any(p["in"] == "path" for p in parameters) or StablePagination.page_query_param in query:
            errors[404] = "No such resource, or no such page."
        if "requestBody" in operation:
            errors[413] = "The body is larger than the limit the answer names."
            errors[415] = "The body is not in a content type the operation reads."
        if self.view.get_throttles():
            errors[429] = "Too many requests; see Retry-After."
        return errors


def add_rules_across_fields(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: each request serializer's `schema_extra` (JSON
    Schema keywords such as oneOf, for a rule across its fields that its validate() keeps)
    added to its component, one `allOf` entry a keyword. After the enum hook, which would
    otherwise lift the enums inside those keywords into components of their own.

    Under `allOf`, not beside `properties`: a validator reads both the same, but a client
    generator takes a top-level oneOf or anyOf for a union of its branches, and the branches
    (one a game, naming only the fields that game narrows) would stand for the whole body,
    without its name, visibility or text. openapi-python-client reads an allOf entry's own
    `properties` only, so the body stays one model of every field."""
    schemas = result.get("components", {}).get("schemas", {})
    # The registry has no public way to list its components; they map names to serializers.
    for component in generator.registry._components.values():
        extra = getattr(component.object, "schema_extra", None)
        if extra and component.name.endswith("Request") and component.name in schemas:
            rules = [{keyword: copy.deepcopy(value)} for keyword, value in extra.items()]
            schemas[component.name].setdefault("allOf", []).extend(rules)
    return result
