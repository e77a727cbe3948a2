"""The shapes of proposals, their reviews and a card's history in the API."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.api.fields import GAME_SLUGS
from cardsite.contributions.limits import (
    MAX_NOTE,
    MAX_PHOTO_BYTES,
    MAX_REASON,
    MAX_SOURCE_TEXT,
)
from cardsite.contributions.models import Proposal

KINDS = [k for k in Proposal.Kind.values if k != Proposal.Kind.BULK]
# A bare text source is read by its shape: an address is a publisher's page, anything else a
# rulebook passage (the printed card needs a photo, so it is always an object).
SOURCE_DESCRIPTION = (
    "Where the facts come from: an object `{kind, text, url}` with `kind` one of "
    "`rulebook` (its passage in `text`), `printed_card` (the photo in `photo`, multipart) or "
    "`publisher` (its page in `url`); or a bare text: an http(s) address is read as a "
    "publisher's page, any other text as a rulebook passage. A proposal without one is a 400 "
    f"naming `source`. Text at most {MAX_SOURCE_TEXT:,} characters, an address at most 500."
)
CHANGES_DESCRIPTION = (
    "What is proposed, keyed by the card CSV's column names (`name`, `type`, `text`, "
    "`factions`, `keywords`, a stat key...), each checked as the importer checks it; a new "
    'card needs `set` and `number`; a ruling or erratum is `{"rulings": {"text", '
    '"date"}}` or `{"errata": ...}`; a set is `{code, name, release_date, description}`. '
    "In a multipart body, a JSON text."
)


class SourceSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Proposal.Source.choices)
    text = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=MAX_SOURCE_TEXT
    )
    url = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


def _url_like(text: str) -> bool:
    return text.lower().startswith(("http://", "https://"))


@extend_schema_field(
    {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": list(Proposal.Source.values)},
                    "text": {"type": "string", "maxLength": MAX_SOURCE_TEXT},
                    "url": {"type": "string", "maxLength": 500},
                },
                "required": ["kind"],
            },
            {"type": "string", "maxLength": MAX_SOURCE_TEXT},
        ],
        "description": SOURCE_DESCRIPTION,
    }
)
class SourceField(serializers.Field):
    """A source object, or a bare text read by its shape; in multipart, either as JSON."""

    def to_internal_value(self, data: Any) -> dict[str, str]:
        if isinstance(data, str):
            stripped = data.strip()
            if stripped.startswith("{"):
                try:
                    data = json.loads(stripped)
                except ValueError:
                    raise serializers.ValidationError("not a JSON object") from None
            elif _url_like(stripped):
                return {"kind": Proposal.Source.PUBLISHER, "text": "", "url": stripped}
            else:
                return {"kind": Proposal.Source.RULEBOOK, "text": stripped, "url": ""}
        if not isinstance(data, dict):
            raise serializers.ValidationError("a source object or a text")
        body = SourceSerializer(data=data)
        if not body.is_valid():
            raise serializers.ValidationError(
                [f"{k}: {m}" for k, ms in body.errors.items() for m in ms]
            )
        return dict(body.validated_data)

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(
    {"type": "object", "additionalProperties": True, "description": CHANGES_DESCRIPTION}
)
class ChangesField(serializers.Field):
    """An object; in a multipart body, the same object as a JSON text."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                raise serializers.ValidationError("not a JSON object") from None
        if not isinstance(data, dict):
            raise serializers.ValidationError("an object of field names and values")
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class ProposalCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAME_SLUGS)
    kind = serializers.ChoiceField(
        choices=KINDS,
        required=False,
        help_text="Left out: `card` when `card` is null and `changes` names `set`, `number` "
        "or `name`; `edit` otherwise.",
    )
    card = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=12,
        help_text="The card's short id; null for a new card or set.",
    )
    changes = ChangesField(required=False, default=dict)
    # Not required here, so that a missing or empty source (a multipart body drops an empty
    # field) is the service's refusal naming `source`, as on the pages.
    source = SourceField(required=False, default=None)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_NOTE)
    email_me = serializers.BooleanField(
        required=False, default=False, help_text="E-mail the outcome (needs an address)."
    )


class ProposalUploadSerializer(ProposalCreateSerializer):
    photo = serializers.ImageField(
        required=False,
        help_text=f"The printed card or a scan, at most {MAX_PHOTO_BYTES // (1024 * 1024)} MB; "
        "EXIF is removed, and it stays private until approved.",
    )


class DiffLineSerializer(serializers.Serializer):
    field = serializers.CharField()
    label = serializers.CharField()
    to = serializers.JSONField(help_text="Any JSON value; null for none.")


# "from" is a Python keyword, so it cannot be a class attribute's name.
DiffLineSerializer._declared_fields["from"] = serializers.JSONField(
    help_text="Any JSON value; null for none."
)


class ProposalSerializer(serializers.Serializer):
    """A proposal's record (built by views.proposal_record)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Proposal.Status.choices)
    kind = serializers.ChoiceField(choices=Proposal.Kind.choices)
    game = serializers.CharField()
    card = serializers.CharField(allow_null=True)
    changes = serializers.DictField()
    diff = DiffLineSerializer(many=True)
    source = serializers.DictField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
    proposer = serializers.CharField(allow_null=True)
    reviewer = serializers.CharField(allow_null=True)
    reviewed_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()
    photo = serializers.CharField(allow_null=True, help_text="Private: proposer and curators.")


class ApproveSerializer(serializers.Serializer):
    changes = ChangesField(
        required=False,
        default=dict,
        help_text="Approve with edits: values replacing or adding to the proposed ones.",
    )
    resolve = serializers.DictField(
        child=serializers.ChoiceField(choices=["proposed", "current"]),
        required=False,
        default=dict,
        help_text="Per stale field, which value wins (see the 409).",
    )


class RejectSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=MAX_REASON)


class StaleFieldSerializer(serializers.Serializer):
    field = serializers.CharField()
    label = serializers.CharField()
    then = serializers.JSONField(help_text="Any JSON value; null for none.")
    now = serializers.JSONField(help_text="Any JSON value; null for none.")
    proposed = serializers.JSONField(help_text="Any JSON value; null for none.")


class StaleSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    fields = StaleFieldSerializer(many=True)


class ChangeSerializer(serializers.Serializer):
    """One accepted change (built by cardsite.catalogue.history.change_record)."""

    id = serializers.IntegerField()
    field = serializers.CharField()
    label = serializers.CharField()
    to = serializers.JSONField(help_text="Any JSON value; null for none.")
    author = serializers.CharField(allow_null=True)
    reviewer = serializers.CharField(allow_null=True)
    source = serializers.DictField()
    at = serializers.DateTimeField()
    proposal = serializers.IntegerField(allow_null=True)
    reverts = serializers.IntegerField(allow_null=True, help_text="The change this reverts.")


ChangeSerializer._declared_fields["from"] = serializers.JSONField(
    help_text="Any JSON value; null for none."
)
